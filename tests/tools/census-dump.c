// SPDX-License-Identifier: GPL-2.0-only
/*
 * census-dump PATH: the census of PATH (a file, a directory or, when it
 * ends in .deb, a -dbg package streamed), one attribute a line, in the
 * snapshot's order:
 * "MODULE FILE SYMBOL NAME KIND MODE [r] [g:GROUP] [p:PATH]", r when
 * is_visible decides the mode, "-" for what is absent.  Then the count of
 * files read.  Exit status 0, 1 when the census failed, 2 for bad usage.
 */
#include <stdio.h>

#include "model/model.h"
#include "pipeline/census.h"

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

int main(int argc, char **argv)
{
	struct snapshot *s = snapshot__new();
	size_t i;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: census-dump PATH\n");
		return 2;
	}
	err = s ? collect_census(s, argv[1]) : 1;
	if (!err)
		err = snapshot__sort(s, argv[1]);
	for (i = 0; !err && i < s->census.nr; i++) {
		const struct census_attr *a = &s->census.v[i];

		printf("%s %s %s %s %s %04o%s%s%s%s%s\n", a->module, or_dash(a->file),
		       a->symbol, a->name, census_kind__name(a->kind), a->mode,
		       a->mode_at_run_time ? " r" : "", a->grouped ? " g:" : "",
		       a->grouped ? or_dash(a->group) : "", a->path ? " p:" : "",
		       a->path ? a->path : "");
	}
	if (!err)
		printf("files %zu\n", s->nr_census_modules);
	snapshot__free(s);
	return err ? 1 : 0;
}
