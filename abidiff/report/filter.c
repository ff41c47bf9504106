// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a report shows: the findings --verdict and --only let through, and
 * the counts --stat shows instead of them.  Selecting only; every verdict
 * was given by the policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

bool report_filter__narrows(const struct report_filter *f)
{
	return f && (f->verdict != VERDICT_NOTE || f->parts);
}

bool report_filter__shows(const struct report_filter *f,
			  const struct finding *fi)
{
	if (!f)
		return true;
	if (fi->verdict < f->verdict)
		return false;
	return !f->parts || (f->parts & 1u << change_kind__part(fi->change->kind));
}

int report_filter__apply(const struct report_filter *f,
			 const struct judgement *j, struct judgement *shown)
{
	size_t i;

	*shown = *j;
	shown->v = NULL;
	shown->nr = 0;
	if (!j->nr)
		return 0;
	shown->v = malloc(j->nr * sizeof(*shown->v));
	if (!shown->v)
		return -ENOMEM;
	for (i = 0; i < j->nr; i++)
		if (report_filter__shows(f, &j->v[i]))
			shown->v[shown->nr++] = j->v[i];
	return 0;
}

char *report_filter__describe(char *buf, size_t size,
			      const struct report_filter *f)
{
	const char *sep = "parts ";
	size_t len = 0;
	int i;

	buf[0] = '\0';
	if (f && f->verdict != VERDICT_NOTE)
		len = snprintf(buf, size, "verdict %s or worse",
			       verdict__name(f->verdict));
	if (len)
		sep = "; parts ";
	for (i = 0; f && f->parts && i < PART_COUNT && len < size; i++) {
		if (!(f->parts & 1u << i))
			continue;
		len += snprintf(buf + len, size - len, "%s%s", sep,
				change_part__name(i));
		sep = ", ";
	}
	return buf;
}

size_t report_total(const struct judgement *j)
{
	return j->count[VERDICT_BREAK] + j->count[VERDICT_WARN] +
	       j->count[VERDICT_NOTE] + j->waived;
}

/* The index of a finding's cell in the table report_stat() counts in. */
static size_t stat_cell(enum change_kind kind, enum abi_level level,
			enum verdict verdict, bool waived)
{
	return ((kind * LEVEL_COUNT + level) * VERDICT_COUNT + verdict) * 2 +
	       waived;
}

int report_stat(const struct judgement *j, struct report_stat_row **rows,
		size_t *nr)
{
	const size_t cells = CHANGE_KIND_COUNT * LEVEL_COUNT * VERDICT_COUNT * 2;
	size_t *count = calloc(cells, sizeof(*count));
	size_t i, n = 0;
	int kind, level, verdict, waived;

	*rows = NULL;
	*nr = 0;
	if (!count)
		return -ENOMEM;
	for (i = 0; i < j->nr; i++) {
		const struct finding *f = &j->v[i];

		if (!count[stat_cell(f->change->kind, f->level, f->verdict,
				     f->waiver)]++)
			n++;
	}
	if (n) {
		*rows = malloc(n * sizeof(**rows));
		if (!*rows) {
			free(count);
			return -ENOMEM;
		}
	}
	/* kinds are grouped by part, in the order of the parts */
	for (kind = 0; kind < CHANGE_KIND_COUNT; kind++)
		for (level = 0; level < LEVEL_COUNT; level++)
			for (verdict = VERDICT_COUNT - 1; verdict >= 0; verdict--)
				for (waived = 0; waived < 2; waived++) {
					size_t c = count[stat_cell(kind, level,
								   verdict,
								   waived)];

					if (c)
						(*rows)[(*nr)++] = (struct report_stat_row){
							kind, level, verdict,
							waived, c };
				}
	free(count);
	return 0;
}
