/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte strings in JSON.
 *
 * JSON strings are Unicode, our strings are bytes (a sysfs name can be any
 * byte but NUL and '/').  The mapping, specified in docs/snapshot-format.md:
 * valid UTF-8 is stored as it is, a backslash is stored as two backslashes and
 * every byte that is not part of valid UTF-8 as a backslash, 'x' and two
 * lower-case hex digits.  So "caf\xe9" (Latin-1) is the JSON text
 * "caf\\xe9" and a real backslash "a\b" is "a\\\\b".
 */
#ifndef KABIDIFF_JSTR_H
#define KABIDIFF_JSTR_H

#include <jansson.h>

/*
 * jstr__encode() - the UTF-8 text that stands for bytes @s in JSON.
 *
 * Returns a malloc()ed, NUL-terminated string and its length in *@out_len, or
 * NULL with errno ENOMEM.  Use it for object keys.
 */
char *jstr__encode(const char *s, size_t *out_len);

/* jstr__new() - the JSON string for bytes @s, or NULL with errno ENOMEM. */
json_t *jstr__new(const char *s);

/*
 * jstr__decode() - the bytes a JSON string stands for.
 *
 * Stores a malloc()ed copy in *@out.  Returns 0, -EINVAL when the string
 * holds NUL, a backslash not followed by '\' or 'x' and two hex digits, or
 * "\x00", or -ENOMEM.
 */
int jstr__decode(const json_t *str, char **out);

/* jstr__decode_buf() - the same for @len bytes of UTF-8 text (an object key). */
int jstr__decode_buf(const char *text, size_t len, char **out);

#endif /* KABIDIFF_JSTR_H */
