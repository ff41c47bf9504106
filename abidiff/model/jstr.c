// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bytes.h"
#include "jstr.h"

char *jstr__encode(const char *s, size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t rest = strlen(s);
	char *buf, *q;

	/* at worst every byte becomes "\xHH" */
	buf = malloc(rest * 4 + 1);
	if (!buf)
		return NULL;
	q = buf;
	while (rest) {
		size_t len = utf8_char_len(p, rest);

		if (*p == '\\') {
			*q++ = '\\';
			*q++ = '\\';
		} else if (len) {
			memcpy(q, p, len);
			q += len;
		} else {
			q += snprintf(q, 5, "\\x%02x", *p);
			len = 1;
		}
		p += len;
		rest -= len;
	}
	*q = '\0';
	*out_len = q - buf;
	return buf;
}

json_t *jstr__new(const char *s)
{
	size_t len;
	char *text = jstr__encode(s, &len);
	json_t *str;

	if (!text)
		return NULL;
	str = json_stringn_nocheck(text, len);
	free(text);
	return str;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int jstr__decode(const json_t *str, char **out)
{
	return jstr__decode_buf(json_string_value(str),
				json_string_length(str), out);
}

int jstr__decode_buf(const char *p, size_t len, char **out)
{
	const char *end = p + len;
	char *buf, *q;

	if (memchr(p, '\0', len))
		return -EINVAL;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	for (q = buf; p < end; p++) {
		int hi, lo;

		if (*p != '\\') {
			*q++ = *p;
			continue;
		}
		if (p + 1 < end && p[1] == '\\') {
			*q++ = '\\';
			p++;
			continue;
		}
		if (end - p < 4 || p[1] != 'x')
			goto bad;
		hi = hex_digit(p[2]);
		lo = hex_digit(p[3]);
		if (hi < 0 || lo < 0 || !(hi | lo))
			goto bad;
		*q++ = hi << 4 | lo;
		p += 3;
	}
	*q = '\0';
	*out = buf;
	return 0;
bad:
	free(buf);
	return -EINVAL;
}
