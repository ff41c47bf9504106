// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "bytes.h"
#include "print.h"

static bool json_messages;

void kabi_print_as_json(bool on)
{
	json_messages = on;
}

bool kabi_print_is_json(void)
{
	return json_messages;
}

/* The least urgent level passed on: kabi_print_upto(). */
static enum kabi_print_level passed_upto = KABI_DEBUG;

enum kabi_print_level kabi_print_upto(enum kabi_print_level level)
{
	enum kabi_print_level old = passed_upto;

	passed_upto = level;
	return old;
}

/* Progress (KABI_INFO) is for a person watching, or asked for. */
bool kabi_print_wants_info(void)
{
	static int show = -1;

	if (show < 0) {
		const char *v = getenv("KABIDIFF_VERBOSE");

		show = (v && *v && strcmp(v, "0")) || isatty(STDERR_FILENO);
	}
	return show;
}

static void put_line(FILE *f, const char *prefix, const char *msg)
{
	fputs(prefix, f);
	fputs_escaped(msg, f);
	fputc('\n', f);
}

/*
 * The line is put together in memory and written at once: stderr is
 * unbuffered, and the children that collect two sides at once share it,
 * so a line written piece by piece would come out interleaved with the
 * other child's.
 */
void kabi_vprint_line(FILE *f, const char *prefix, const char *fmt,
		      va_list ap)
{
	char *msg = xvasprintf(fmt, ap);
	/* out of memory: the format alone still says what went wrong */
	const char *text = msg ? msg : fmt;
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	if (mem) {
		put_line(mem, prefix, text);
		if (fclose(mem))
			mem = NULL;
	}
	if (mem)
		fwrite(line, 1, len, f);
	else
		put_line(f, prefix, text);
	free(line);
	free(msg);
}

void kabi_print_line(FILE *f, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kabi_vprint_line(f, prefix, fmt, ap);
	va_end(ap);
}

static void default_print(enum kabi_print_level level, const char *fmt,
			  va_list ap)
{
	if (level > KABI_INFO || (level == KABI_INFO && !kabi_print_wants_info()))
		return;
	kabi_vprint_line(stderr, level == KABI_WARN ? "kabidiff: warning: " :
			 "kabidiff: ", fmt, ap);
}

static kabi_print_fn_t print_fn = default_print;

kabi_print_fn_t kabi_set_print(kabi_print_fn_t fn)
{
	kabi_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

/* Where this thread's messages go instead of the callback, or NULL. */
static __thread struct kabi_held_lines *held;

void kabi_print_hold(struct kabi_held_lines *h)
{
	held = h;
}

static void hold(enum kabi_print_level level, const char *fmt, va_list ap)
{
	struct kabi_held_line *line;
	char *msg = xvasprintf(fmt, ap);

	line = msg ? ARRAY_APPEND(held->v, held->nr, held->alloc) : NULL;
	if (!line) {
		free(msg);
		held->lost++;
		return;
	}
	line->level = level;
	line->msg = msg;
}

/*
 * errno is saved and restored around the callback: it may use stdio, which
 * sets errno, and callers report an error before they return -errno.
 */
void kabi_pr(enum kabi_print_level level, const char *fmt, ...)
{
	int saved_errno = errno;
	va_list ap;

	if (!print_fn || level > passed_upto)
		return;
	va_start(ap, fmt);
	if (held)
		hold(level, fmt, ap);
	else
		print_fn(level, fmt, ap);
	va_end(ap);
	errno = saved_errno;
}

void kabi_print_replay(struct kabi_held_lines *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		kabi_pr(h->v[i].level, "%s", h->v[i].msg);
	if (h->lost)
		kabi_pr(KABI_ERROR, "out of memory: %zu diagnostics lost",
			h->lost);
	kabi_held_lines__release(h);
}

void kabi_held_lines__release(struct kabi_held_lines *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		free(h->v[i].msg);
	free(h->v);
	memset(h, 0, sizeof(*h));
}
