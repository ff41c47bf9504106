// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the Documentation/ABI parser.
 *
 * The input is the text of one ABI file.  It is parsed into a fresh
 * snapshot, checked for duplicate What: patterns, sorted and written as JSON
 * to /dev/null, so the writer runs on whatever the parser produced.  A
 * second parse of the same bytes under another file name makes every What:
 * documented in two files, so the duplicate check's report path runs too.
 *
 * Besides what ASan and UBSan catch, the harness aborts when a function
 * returns what its contract does not allow: abidocs__parse() and
 * abidocs__check_duplicates() only 0 or -ENOMEM; snapshot__sort() -EEXIST
 * (two entries on one line of one file) never; snapshot__write() only 0 or
 * -ENOMEM (writing to /dev/null cannot fail).
 *
 *   make fuzz-build && build/fuzz/fuzz-abidocs build/fuzz/corpus-abidocs
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "collectors/abidocs/abidocs.h"
#include "lib/print.h"
#include "match/what-index.h"
#include "model/model.h"
#include "model/snapshot-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void check(int err, const char *what)
{
	if (err && err != -ENOMEM) {
		fprintf(stderr, "fuzz-abidocs: %s returned %d\n", what, err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	struct snapshot *s;
	int err;

	if (!devnull) {
		kabi_set_print(NULL);
		devnull = fopen("/dev/null", "w");
		if (!devnull) {
			perror("fuzz-abidocs: /dev/null");
			abort();
		}
	}

	s = snapshot__new();
	if (!s)
		return 0;
	err = abidocs__parse("fuzz", LEVEL_TESTING, (const char *)data, size,
			     s, &st);
	check(err, "abidocs__parse(\"fuzz\")");
	if (!err) {
		err = abidocs__parse("fuzz-copy", LEVEL_TESTING,
				     (const char *)data, size, s, &st);
		check(err, "abidocs__parse(\"fuzz-copy\")");
	}
	if (!err) {
		err = abidocs__check_duplicates(s, &st);
		check(err, "abidocs__check_duplicates");
	}
	if (!err) {
		err = snapshot__sort(s, "fuzz");
		check(err, "snapshot__sort");
	}
	if (!err) {
		err = snapshot__write(s, devnull);
		check(err, "snapshot__write");
		fflush(devnull);
		clearerr(devnull);
	}
	snapshot__free(s);
	return 0;
}
