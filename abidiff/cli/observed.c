// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "lib/compiler.h"
#include "observed.h"

/* The columns of the counts, as printed. */
static const struct {
	enum observed_by by;
	const char *heading;
	int width;
} columns[] = {
	{ OBSERVED_LIVE, "live only", 10 },
	{ OBSERVED_CENSUS, "census only", 12 },
	{ OBSERVED_BOTH, "both", 8 },
	{ OBSERVED_NEITHER, "neither", 8 },
};

static const char *sources(const struct doc_observed *o)
{
	if (o->live && o->census)
		return "by the live tree and the census";
	if (o->live)
		return "by the live tree (census not collected)";
	return "by the census (sysfs not collected)";
}

static void show_row(const struct doc_observed *o,
		     const struct observed_counts *c, const char *name)
{
	size_t i;

	printf("%8zu", c->entries);
	for (i = 0; i < ARRAY_SIZE(columns); i++) {
		enum observed_by by = columns[i].by;

		if (doc_observed__known(o, by))
			printf(" %*zu", columns[i].width, c->by[by]);
		else
			printf(" %*s", columns[i].width, "-");
	}
	printf(" %6.1f  %s\n",
	       c->entries ? 100.0 * doc_observed__seen(c) / c->entries : 0.0,
	       name);
}

void show_observed_text(const struct doc_observed *o)
{
	size_t i;

	if (!o->live && !o->census) {
		puts("documentation entries observed: sysfs and census not collected");
		return;
	}
	printf("documentation entries observed %s\n", sources(o));
	printf("%8s", "entries");
	for (i = 0; i < ARRAY_SIZE(columns); i++)
		printf(" %*s", columns[i].width, columns[i].heading);
	printf(" %6s  %s\n", "%", "level");
	for (i = 0; i < LEVEL_COUNT; i++)
		if (o->level[i].entries)
			show_row(o, &o->level[i], abi_level__name(i));
	show_row(o, &o->total, "total");
}
