// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every command shares: how diagnostics are printed (text lines, or
 * JSON objects when the command prints JSON), usage errors, timing.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/bytes.h"
#include "model/json-arena.h"
#include "cli.h"

bool json_output;

static const char * const level_names[] = {
	[KABI_ERROR] = "error", [KABI_WARN] = "warning",
	[KABI_INFO] = "info", [KABI_DEBUG] = "debug",
};

/*
 * @msg as its text line shows it: control bytes, DEL and bytes that are not
 * UTF-8 escaped (fputs_escaped()), so valid UTF-8.  NULL: out of memory.
 */
static char *escaped(const char *msg)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fputs_escaped(msg, f) | fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The digits at @p as a number (0 for none or too many); *@end after them. */
static unsigned long number(const char *p, const char **end)
{
	unsigned long n = 0;

	for (*end = p; isdigit((unsigned char)**end) && n < 100000000; (*end)++)
		n = n * 10 + (**end - '0');
	return isdigit((unsigned char)**end) ? 0 : n;
}

/*
 * Where a message says it is: "FILE:LINE: rest" or "FILE:LINE:COLUMN:
 * rest", as compilers and kabidiff say it.  FILE is what comes before the
 * first ':' that digits and ':' follow; it is not empty and holds no ": "
 * (in "OLD has no sysfs part: ..." the ": " comes first, and there is no
 * place).  Returns the rest, or NULL when @msg names no place.
 */
static const char *split_place(const char *msg, size_t *file_len,
			       unsigned long *line, unsigned long *column)
{
	const char *p, *end;

	for (p = strchr(msg, ':'); p && p[1] != ' '; p = strchr(p + 1, ':')) {
		*line = number(p + 1, &end);
		if (!*line || *end != ':' || p == msg)
			continue;
		*column = 0;
		if (end[1] != ' ') {
			*column = number(end + 1, &end);
			if (!*column || end[0] != ':' || end[1] != ' ')
				continue;
		}
		*file_len = p - msg;
		return end + 2;
	}
	return NULL;
}

static json_t *message_json(enum kabi_print_level level, const char *text,
			    const char *hint)
{
	unsigned long line, column;
	size_t file_len;
	const char *rest = split_place(text, &file_len, &line, &column);
	json_t *obj = json_pack("{s:s, s:s}", "level", level_names[level],
				"message", rest ? rest : text);
	int err = !obj;

	if (!err && rest)
		err = json_object_set_new(obj, "file",
					  json_stringn(text, file_len)) ||
		      json_object_set_new(obj, "line", json_integer(line));
	if (!err && rest && column)
		err = json_object_set_new(obj, "column", json_integer(column));
	if (!err && hint)
		err = json_object_set_new(obj, "hint", json_string(hint));
	if (err) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/*
 * One diagnostic as one line of JSON on standard error:
 * {"level":"error","message":"...","file":"x.waivers","line":3}, the
 * message as its text line would show it, its place (FILE:LINE:, and
 * COLUMN: after it) taken off into "file", "line" and "column", and a
 * usage error's pointer at --help in "hint".
 */
static void print_json(enum kabi_print_level level, const char *msg,
		       const char *hint)
{
	char *text = escaped(msg);
	json_t *obj = text ? message_json(level, text, hint) : NULL;

	if (!obj || json_dumpf(obj, stderr, JSON_COMPACT))
		fputs("{\"level\":\"error\",\"message\":\"out of memory\"}",
		      stderr);
	fputc('\n', stderr);
	json_decref(obj);
	free(text);
}

static void __printf(2, 0) vprint_message(enum kabi_print_level level,
					  const char *fmt, va_list ap)
{
	char *msg;

	if (!kabi_print_is_json()) {
		kabi_vprint_line(stderr, level == KABI_WARN ?
				 "kabidiff: warning: " : "kabidiff: ", fmt, ap);
		return;
	}
	msg = xvasprintf(fmt, ap);
	/* out of memory: the format alone still says what went wrong */
	print_json(level, msg ? msg : fmt, NULL);
	free(msg);
}

void print_messages(enum kabi_print_level level, const char *fmt, va_list ap)
{
	if (level < KABI_INFO || (level == KABI_INFO && kabi_print_wants_info()))
		vprint_message(level, fmt, ap);
}

void cli_setup(void)
{
	kabi_set_print(print_messages);
	json_arena__install();
}

/* What a usage error points at: the --help of @cmd, or of the program. */
#define HELP_HINT	"Try 'kabidiff %s%s--help'."

int usage_hint(const char *cmd)
{
	fprintf(stderr, HELP_HINT "\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_TROUBLE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	char *msg, *hint;
	va_list ap;

	va_start(ap, fmt);
	if (!kabi_print_is_json()) {
		kabi_vprint_line(stderr, "kabidiff: ", fmt, ap);
		va_end(ap);
		return usage_hint(cmd);
	}
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	hint = xasprintf(HELP_HINT, cmd ? cmd : "", cmd ? " " : "");
	print_json(KABI_ERROR, msg ? msg : fmt, hint);
	free(hint);
	free(msg);
	return EXIT_TROUBLE;
}
