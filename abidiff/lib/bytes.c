// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

size_t utf8_char_len(const unsigned char *s, size_t n)
{
	unsigned int cp, min;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * Walk @s and hand each piece of its quoted form to @emit: runs of bytes
 * that stand for themselves, and escapes.  Backslashes and '"' are escaped
 * too unless @keep_quotes, and so are the ASCII bytes of @also (or NULL).
 * Returns true when no piece needed escaping.  The front ends below differ
 * only in where the pieces go, in @keep_quotes and in @also.
 */
static bool quote_walk(const char *s, bool keep_quotes, const char *also,
		       void (*emit)(const char *p, size_t len, void *ctx),
		       void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t rest = strlen(s);
	bool plain = true;

	while (rest) {
		size_t len = utf8_char_len(p, rest);
		char esc[5];

		if (len && *p >= 0x20 && *p != 0x7f &&
		    (keep_quotes || (*p != '\\' && *p != '"')) &&
		    !(also && *p < 0x80 && strchr(also, *p))) {
			emit((const char *)p, len, ctx);
		} else {
			if (*p == '\n')
				memcpy(esc, "\\n", 3);
			else if (*p == '\t')
				memcpy(esc, "\\t", 3);
			else if (*p == '\\' || *p == '"')
				snprintf(esc, sizeof(esc), "\\%c", *p);
			else
				snprintf(esc, sizeof(esc), "\\x%02x", *p);
			emit(esc, strlen(esc), ctx);
			plain = false;
			len = 1;
		}
		p += len;
		rest -= len;
	}
	return plain;
}

static void emit_nothing(const char *p, size_t len, void *ctx)
{
}

int quote_needed(const char *s)
{
	return !quote_walk(s, false, NULL, emit_nothing, NULL);
}

static void emit_file(const char *p, size_t len, void *ctx)
{
	fwrite(p, 1, len, ctx);
}

int fputs_quoted_also(const char *s, const char *also, FILE *f)
{
	if (quote_walk(s, false, also, emit_nothing, NULL))
		return fputs(s, f);
	fputc('"', f);
	quote_walk(s, false, also, emit_file, f);
	return fputc('"', f) == EOF ? EOF : 0;
}

int fputs_quoted(const char *s, FILE *f)
{
	return fputs_quoted_also(s, NULL, f);
}

int fputs_escaped(const char *s, FILE *f)
{
	quote_walk(s, true, NULL, emit_file, f);
	return ferror(f) ? EOF : 0;
}

struct quote_buf {
	char *buf;
	size_t size;
	size_t len;
	bool cut;
};

static void emit_buf(const char *p, size_t len, void *ctx)
{
	struct quote_buf *qb = ctx;

	/* keep room for the closing quote, "..." and the NUL */
	if (qb->cut || qb->len + len + 5 > qb->size) {
		qb->cut = true;
		return;
	}
	memcpy(qb->buf + qb->len, p, len);
	qb->len += len;
}

const char *quote_buf(char *buf, size_t size, const char *s)
{
	struct quote_buf qb = { .buf = buf, .size = size, .len = 1 };

	buf[0] = '"';
	quote_walk(s, false, NULL, emit_buf, &qb);
	snprintf(buf + qb.len, size - qb.len, "%s\"", qb.cut ? "..." : "");
	return buf;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

uint64_t fnv1a64(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}
