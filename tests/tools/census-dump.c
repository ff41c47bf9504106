// SPDX-License-Identifier: GPL-2.0-only
/*
 * census-dump PATH [DOCS]: the census of PATH (a file, a directory or, when it
 * ends in .deb, a -dbg package streamed), one attribute a line, in the
 * snapshot's order:
 * "MODULE FILE SYMBOL NAME KIND MODE [r] [g:GROUP] [p:PATH]", r when
 * is_visible decides the mode, "-" for what is absent.  Then the count of
 * files read.  With DOCS, a snapshot with a docs part, each line ends
 * with " e:FILE:LINE" of the entry the attribute joins, and then come the
 * entries joined by level: "joined LEVEL N of M".  Exit status 0, 1 when
 * the census failed, 2 for bad usage.
 */
#include <stdio.h>

#include <stdlib.h>

#include "match/census-join.h"
#include "match/observed.h"
#include "model/model.h"
#include "model/snapshot-json.h"
#include "pipeline/census.h"

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

static int print_joined(const struct snapshot *docs, const struct snapshot *s,
			const int32_t *entry)
{
	struct doc_observed o;
	int l, err = doc_observed__count(&o, docs, s, NULL, entry);

	for (l = 0; !err && l < LEVEL_COUNT; l++)
		if (o.level[l].entries)
			printf("joined %s %zu of %zu\n", abi_level__name(l),
			       o.level[l].by[OBSERVED_CENSUS], o.level[l].entries);
	return err;
}

int main(int argc, char **argv)
{
	struct snapshot *s = snapshot__new(), *docs = NULL;
	int32_t *entry = NULL;
	size_t i;
	int err;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: census-dump PATH [DOCS]\n");
		return 2;
	}
	err = s ? collect_census(s, argv[1]) : 1;
	if (!err)
		err = snapshot__sort(s, argv[1]);
	if (!err && argc == 3) {
		docs = snapshot__load(argv[2]);
		entry = calloc(s->census.nr + 1, sizeof(*entry));
		err = docs && entry ? census_join__run(s, docs, entry) : 1;
	}
	for (i = 0; !err && i < s->census.nr; i++) {
		const struct census_attr *a = &s->census.v[i];
		const struct doc_entry *d = entry && entry[i] >= 0 ?
					    &docs->docs.v[entry[i]] : NULL;

		printf("%s %s %s %s %s %04o%s%s%s%s%s", a->module, or_dash(a->file),
		       a->symbol, a->name, census_kind__name(a->kind), a->mode,
		       a->mode_at_run_time ? " r" : "", a->grouped ? " g:" : "",
		       a->grouped ? or_dash(a->group) : "", a->path ? " p:" : "",
		       a->path ? a->path : "");
		if (d)
			printf(" e:%s:%u", d->file, d->line);
		putchar('\n');
	}
	if (!err)
		printf("files %zu\n", s->nr_census_modules);
	if (!err && entry)
		err = print_joined(docs, s, entry);
	free(entry);
	snapshot__free(docs);
	snapshot__free(s);
	return err ? 1 : 0;
}
