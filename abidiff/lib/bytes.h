/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte strings that are not always text: sysfs names and values may hold any
 * byte but NUL and need not be UTF-8.  These helpers tell valid UTF-8 apart and
 * quote a string for display on one line.
 */
#ifndef KABIDIFF_BYTES_H
#define KABIDIFF_BYTES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler.h"

/*
 * utf8_char_len() - length of the UTF-8 character at @s.
 *
 * Looks at most @n bytes.  Returns 1 to 4 for a well-formed, shortest-form
 * character that is not a surrogate, 0 when @s does not start one.
 */
size_t utf8_char_len(const unsigned char *s, size_t n);

/*
 * strcmp_null() - strcmp() of strings that may be absent (NULL): an
 * absent string sorts first, two absent ones are equal.
 */
int strcmp_null(const char *a, const char *b);

/*
 * quote_needed() - whether @s must be quoted to show on one line: it holds a
 * control character, a DEL, a byte that is not UTF-8, a backslash or a '"'.
 */
int quote_needed(const char *s);

/*
 * fputs_quoted() - write @s to @f as it is when it needs no quoting, else
 * C-quoted in double quotes: \n, \t, \\, \" and \xHH for other control bytes,
 * DEL and bytes that are not UTF-8.  Returns what fputs() would.
 */
int fputs_quoted(const char *s, FILE *f);

/*
 * fputs_quoted_also() - fputs_quoted(), with the ASCII bytes of @also
 * escaped as \xHH too (and quoted for them): KTAP's '#', which would begin
 * a directive.  @also NULL is fputs_quoted().  Returns what fputs() would.
 */
int fputs_quoted_also(const char *s, const char *also, FILE *f);

/*
 * fputs_escaped() - write @s to @f with the escapes of fputs_quoted() for
 * control bytes, DEL and bytes that are not UTF-8, but with backslashes and
 * '"' as they are and no quotes around: for a diagnostic, which must stay
 * one line and must not drive the terminal whatever input it shows.
 * Returns EOF on a write error, else 0.
 */
int fputs_escaped(const char *s, FILE *f);

/*
 * quote_buf() - @s in double quotes with the escapes of fputs_quoted(),
 * always quoted, into @buf of @size bytes (@size >= 8), cut short with "..."
 * when it does not fit.  Returns @buf.  For messages.
 */
const char *quote_buf(char *buf, size_t size, const char *s);

/*
 * fnv1a64() - @h, an FNV-1a 64-bit hash so far (FNV1A64_BASIS to begin),
 * taking in the @len bytes at @p: a cheap, stable name for a cache entry,
 * not a cryptographic digest.
 */
#define FNV1A64_BASIS	0xcbf29ce484222325ull
uint64_t fnv1a64(uint64_t h, const void *p, size_t len);

/* xasprintf() - a malloc()ed, formatted string, or NULL (ENOMEM). */
char *xasprintf(const char *fmt, ...) __printf(1, 2);
char *xvasprintf(const char *fmt, va_list ap) __printf(1, 0);

#endif /* KABIDIFF_BYTES_H */
