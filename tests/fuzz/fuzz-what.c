// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the What: pattern compiler and matcher.
 *
 * The input is read as a string, cut at its first NUL.  The part before the
 * first '\n' is the pattern; the part after it, if any, is a path to match
 * (else the pattern itself is the path).  A pattern cannot hold a '\n' that
 * matters: the compiler rejects whitespace outside <...>, so cutting there
 * loses little.  What follows the first NUL, if anything, is more patterns,
 * one per NUL-terminated string, up to MAX_PATTERNS in all.
 *
 * Invariants checked (abort on failure):
 *  - what_pattern__check() and what_index__add() agree: both 0, or both
 *    -EINVAL with the same reason (-ENOMEM from the add is let through);
 *  - matching reports no id but the one added;
 *  - a pattern that parses and has no [...] class, no {...} and no " = "
 *    matches itself as a path: every other wildcard ('*', '<...>', X/Y/Z,
 *    "...") takes its own text;
 *  - one index of all the patterns matches the path with exactly the
 *    patterns that match it each in an index of its own: what the patterns
 *    share in the trie and in the cursor changes nothing.
 *
 *   make fuzz-build && build/fuzz/fuzz-what build/fuzz/corpus-what
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "match/what-index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SELF_ID		42
#define MAX_PATTERNS	64

struct matches {
	unsigned int self;	/* calls for SELF_ID: more than one is allowed */
	unsigned int nr;	/* calls for any other id: a bug */
};

static void on_match(uint32_t id, bool dir_only, void *ctx)
{
	struct matches *m = ctx;

	if (id == SELF_ID)
		m->self++;
	else
		m->nr++;
}

static void __printf(2, 3) __attribute__((noreturn))
fail(const char *pattern, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-what: pattern \"%s\": ", pattern);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void on_mask(uint32_t id, bool dir_only, void *ctx)
{
	*(uint64_t *)ctx |= 1ull << id;
}

/*
 * Into *@mask, bit i for each of the @nr @patterns that matches @path, all
 * in one index, or with @alone each in an index of its own.  Patterns that
 * do not parse match nothing.  Returns 0 or -ENOMEM.
 */
static int match_mask(char *const *patterns, size_t nr, const char *path,
		      bool alone, uint64_t *mask)
{
	struct what_index *idx = NULL;
	size_t i;
	int err = 0;

	*mask = 0;
	for (i = 0; !err && i < nr; i++) {
		if (!idx)
			idx = what_index__new();
		if (!idx)
			return -ENOMEM;
		err = what_index__add(idx, patterns[i], i, NULL);
		if (err == -EINVAL)
			err = 0;
		if (!err && alone) {
			err = what_index__match(idx, path, on_mask, mask);
			what_index__free(idx);
			idx = NULL;
		}
	}
	if (!err && !alone)
		err = what_index__match(idx, path, on_mask, mask);
	what_index__free(idx);
	return err;
}

/* The one index of @patterns against each alone, on @path. */
static void check_union(char *const *patterns, size_t nr, const char *path)
{
	uint64_t together, alone;

	if (match_mask(patterns, nr, path, false, &together) ||
	    match_mask(patterns, nr, path, true, &alone))
		return;
	if (together != alone)
		fail(patterns[0], "%zu patterns together match \"%s\" as %#llx, alone as %#llx",
		     nr, path, (unsigned long long)together,
		     (unsigned long long)alone);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why_check = NULL, *why_add = NULL, *path;
	char *pattern, *nl, *patterns[MAX_PATTERNS], *p;
	struct matches m = { 0 };
	struct what_index *idx;
	size_t nr = 1;
	int check, add, err;

	pattern = malloc(size + 1);
	if (!pattern)
		return 0;
	memcpy(pattern, data, size);
	pattern[size] = '\0';		/* and so cut at the first NUL */
	patterns[0] = pattern;
	for (p = pattern + strlen(pattern) + 1;
	     p < pattern + size && nr < MAX_PATTERNS; p += strlen(p) + 1)
		if (*p)
			patterns[nr++] = p;
	nl = strchr(pattern, '\n');
	if (nl) {
		*nl = '\0';
		path = nl + 1;
	} else {
		path = pattern;
	}

	check = what_pattern__check(pattern, &why_check);
	if (check && (check != -EINVAL || !why_check))
		fail(pattern, "what_pattern__check returned %d, reason %s",
		     check, why_check ? why_check : "(none)");

	idx = what_index__new();
	if (!idx) {
		free(pattern);
		return 0;
	}
	add = what_index__add(idx, pattern, SELF_ID, &why_add);
	if (add != -ENOMEM &&
	    (add != check || (check && (!why_add || strcmp(why_check, why_add)))))
		fail(pattern, "what_pattern__check returned %d (%s), what_index__add %d (%s)",
		     check, check ? why_check : "ok", add,
		     add ? (why_add ? why_add : "(none)") : "ok");

	if (!add) {
		err = what_index__match(idx, path, on_match, &m);
		if (err && err != -ENOMEM)
			fail(pattern, "what_index__match returned %d", err);
		if (!err && m.nr)
			fail(pattern, "%u matches with an id never added", m.nr);
		if (!err && path == pattern && !m.self &&
		    !strpbrk(pattern, "[{") && !strstr(pattern, " = "))
			fail(pattern, "does not match itself");
	}
	check_union(patterns, nr, path);

	what_index__free(idx);
	free(pattern);
	return 0;
}
