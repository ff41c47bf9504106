/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which Documentation/ABI entries a kernel is seen to implement, and by
 * which source: the live tree a booted guest dumped (the sysfs part), the
 * census read out of its vmlinux and modules, both or neither.
 *
 * An entry is observed by a source when that source's join picks it for
 * one of its attributes: docmatch__run()'s entry of a file of the live
 * tree (what `undocumented --level` lists, so that its entries, counted by
 * file and line, are the live ones), census_join__run()'s entry of an
 * attribute of the census.  Both joins pick one entry an attribute, the
 * most stable; an entry documenting only directories or links is never
 * observed, as the census has none.
 */
#ifndef KABIDIFF_OBSERVED_H
#define KABIDIFF_OBSERVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* By whom an entry is observed: bit 0 the live tree, bit 1 the census. */
enum observed_by {
	OBSERVED_NEITHER,
	OBSERVED_LIVE,		/* the live tree only */
	OBSERVED_CENSUS,	/* the census only */
	OBSERVED_BOTH,
	OBSERVED_BY_COUNT,
};

struct observed_counts {
	size_t entries;
	size_t by[OBSERVED_BY_COUNT];
};

/*
 * The counts per level of the entries, and over all of them.  @live and
 * @census say which sources were there: one that was not (a snapshot
 * without a sysfs or census part) observes nothing, and the counts it
 * would split are not known (doc_observed__known()), not zero.
 */
struct doc_observed {
	bool live;
	bool census;
	struct observed_counts level[LEVEL_COUNT];
	struct observed_counts total;
};

/*
 * doc_observed__count() - fill @o for the entries of @docs from the joins
 * already made: @node_entry[i] is docmatch__run()'s entry of node i of
 * @tree's sysfs part, @attr_entry[i] census_join__run()'s of attribute i
 * of its census; NULL for a source that is not there.  Returns 0 or
 * -ENOMEM.
 */
int doc_observed__count(struct doc_observed *o, const struct snapshot *docs,
			const struct snapshot *tree, const int32_t *node_entry,
			const int32_t *attr_entry);

/*
 * doc_observed__run() - fill @o for the entries of @docs, joining them to
 * the sysfs and census parts of @tree that were collected.  @node_entry
 * is docmatch__run()'s entries for @tree's nodes when the caller has them,
 * or NULL: matched here.  Returns 0 or -ENOMEM.
 */
int doc_observed__run(struct doc_observed *o, const struct snapshot *docs,
		      const struct snapshot *tree, const int32_t *node_entry);

/* doc_observed__known() - whether @o's count of entries @by means anything. */
bool doc_observed__known(const struct doc_observed *o, enum observed_by by);

/* doc_observed__seen() - how many entries of @c either source observed. */
size_t doc_observed__seen(const struct observed_counts *c);

#endif /* KABIDIFF_OBSERVED_H */
