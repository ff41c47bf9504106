// SPDX-License-Identifier: GPL-2.0-only
/*
 * What: patterns compared with each other.  Documentation/ABI names the
 * same wildcard in many ways: "iio:deviceX", "iio:device<N>", "cpu*",
 * "sd[a-z]".  When a tree renames one, the entry is still the same; the
 * normal form lets the diff see that.  The lexing follows what-index.c's
 * grammar, so that what the matcher takes as a wildcard is one here too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "what-index.h"
#include "what-normal.h"

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

/* IIO's ".../name = "value"" documents the path before " = ". */
static size_t pattern_len(const char *pattern)
{
	const char *eq = strstr(pattern, " = ");

	return eq ? (size_t)(eq - pattern) : strlen(pattern);
}

/*
 * The length of the wildcard at @p (of a component ending at @end, @start
 * its first byte), or 0 for a literal byte.  An unclosed '<' or '[' is
 * taken literally: such a pattern does not parse, and is only compared.
 */
static size_t wildcard_len(const char *start, const char *p, const char *end)
{
	const char *close;

	switch (*p) {
	case '<':
		close = memchr(p, '>', end - p);
		return close ? (size_t)(close - p + 1) : 0;
	case '[':
		close = memchr(p, ']', end - p);
		if (!close)
			return 0;
		if (close + 1 < end && close[1] == '+')
			close++;
		return close - p + 1;
	case '*':
		return 1;
	case 'X': case 'Y': case 'Z':
		/* a placeholder unless a capital letter touches it */
		if (p > start && is_upper(p[-1]))
			return 0;
		return p + 1 < end && is_upper(p[1]) ? 0 : 1;
	}
	return 0;
}

char *what_pattern__normalize(const char *pattern)
{
	size_t len = pattern_len(pattern), n = 0;
	const char *p = pattern, *end = pattern + len, *start = pattern;
	/* a wildcard is at least one byte and its token three */
	char *out = malloc(3 * len + 1);
	bool wild = false;

	if (!out)
		return NULL;
	while (p < end) {
		const char *slash = memchr(p, '/', end - p);
		const char *cend = slash ? slash : end;
		size_t w = p < cend ? wildcard_len(start, p, cend) : 0;

		if (*p == '/')
			start = p + 1;
		if (w) {
			if (!wild) {
				memcpy(out + n, WHAT_NORMAL_WILDCARD,
				       strlen(WHAT_NORMAL_WILDCARD));
				n += strlen(WHAT_NORMAL_WILDCARD);
			}
			wild = true;
			p += w;
			continue;
		}
		wild = false;
		out[n++] = *p++;
	}
	out[n] = '\0';
	return out;
}

const char *what_pattern__attribute(const char *normal, size_t *len)
{
	size_t n = strlen(normal);
	const char *p;

	if (n > 1 && normal[n - 1] == '/')
		n--;
	for (p = normal + n; p > normal && p[-1] != '/'; p--)
		;
	*len = normal + n - p;
	return p;
}

static void matched(uint32_t id, bool dir_only, void *ctx)
{
	(void)id;
	(void)dir_only;
	*(bool *)ctx = true;
}

int what_pattern__covers(const char *general, const char *specific)
{
	size_t len = pattern_len(specific);
	struct what_index *idx;
	bool found = false;
	char *path;
	int err;

	if (len > 1 && specific[len - 1] == '/')
		len--;
	path = strndup(specific, len);
	idx = what_index__new();
	err = path && idx ? 0 : -ENOMEM;
	if (!err)
		err = what_index__add(idx, general, 0, NULL);
	if (!err)
		err = what_index__match(idx, path, matched, &found);
	what_index__free(idx);
	free(path);
	if (err == -EINVAL)
		return 0;
	return err ? err : found;
}
