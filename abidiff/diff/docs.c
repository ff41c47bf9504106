// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documentation part of the diff: entries are paired by their What:
 * patterns, and each move between stability levels is a change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

/*
 * Documentation entries are paired by their What: patterns: the entry that
 * documents the same interface in the new tree is the one that shares a
 * pattern with it, wherever in the tree it now lives.
 */
struct what_ref {
	const char *what;
	int32_t entry;
};

static int what_ref_cmp(const void *pa, const void *pb)
{
	const struct what_ref *a = pa, *b = pb;
	int c = strcmp(a->what, b->what);

	return c ? c : a->entry - b->entry;
}

static struct what_ref *index_what(const struct snapshot *s, size_t *nr)
{
	struct what_ref *v;
	size_t i, j, n = 0;

	for (i = 0; i < s->docs.nr; i++)
		n += s->docs.v[i].nr_what;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	*nr = 0;
	for (i = 0; i < s->docs.nr; i++) {
		for (j = 0; j < s->docs.v[i].nr_what; j++) {
			v[*nr].what = s->docs.v[i].what[j];
			v[(*nr)++].entry = i;
		}
	}
	qsort(v, *nr, sizeof(*v), what_ref_cmp);
	return v;
}

/*
 * The entry of @idx (indexing @docs) that documents one of @e's patterns,
 * or -1.  When several do (a pattern two files document), one at @e's own
 * level is taken: that is the entry itself, and no move.
 */
static int32_t find_entry(const struct what_ref *idx, size_t nr,
			  const struct doc_entry *docs, const struct doc_entry *e)
{
	int32_t found = -1;
	size_t i, lo, hi;

	for (i = 0; i < e->nr_what; i++) {
		lo = 0;
		hi = nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(idx[mid].what, e->what[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < nr && !strcmp(idx[lo].what, e->what[i]); lo++) {
			if (docs[idx[lo].entry].level == e->level)
				return idx[lo].entry;
			if (found < 0)
				found = idx[lo].entry;
		}
	}
	return found;
}

/*
 * How committed the kernel is to an interface at each level, most first;
 * obsolete and removed are the way out and judged apart.
 */
static int commitment(enum abi_level level)
{
	static const int rank[LEVEL_COUNT] = {
		[LEVEL_STABLE] = 0, [LEVEL_TESTING] = 1, [LEVEL_PRIVATE] = 2,
		[LEVEL_UNSTABLE] = 3, [LEVEL_OBSOLETE] = 4, [LEVEL_REMOVED] = 5,
		[LEVEL_UNDOCUMENTED] = 6,
	};

	return rank[level];
}

/* The kind of a move from level @from to level @to; -1 for no change. */
static int level_transition(enum abi_level from, enum abi_level to)
{
	if (from == to)
		return -1;
	if (to == LEVEL_REMOVED)
		return from == LEVEL_OBSOLETE ? CHANGE_DOC_RETIRED :
		       CHANGE_DOC_REMOVED_EARLY;
	if (to == LEVEL_OBSOLETE)
		return CHANGE_DOC_OBSOLETED;
	return commitment(to) > commitment(from) ? CHANGE_DOC_DEMOTED :
	       CHANGE_DOC_PROMOTED;
}

static char *describe_entry(const struct doc_entry *e)
{
	return xasprintf("%s#%u", e->file, e->line);
}

static int doc_change(const struct snapshot *old, const struct snapshot *new,
		      int kind, int32_t i, int32_t j, struct diff *d)
{
	const struct doc_entry *a = i >= 0 ? &old->docs.v[i] : NULL;
	const struct doc_entry *b = j >= 0 ? &new->docs.v[j] : NULL;
	char *was = a ? describe_entry(a) : NULL;
	char *now = b ? describe_entry(b) : NULL;
	int err = -ENOMEM;

	if ((!a || was) && (!b || now))
		err = diff_add(d, kind, a ? a->what[0] : b->what[0], was, now, i, j);
	free(was);
	free(now);
	return err;
}

int diff_docs(const struct snapshot *old, const struct snapshot *new,
	      const struct doc_matches *m, struct diff *d)
{
	size_t nr_old, nr_new, i;
	struct what_ref *old_idx = index_what(old, &nr_old);
	struct what_ref *new_idx = index_what(new, &nr_new);
	int err = old_idx && new_idx ? 0 : -ENOMEM;

	for (i = 0; !err && i < old->docs.nr; i++) {
		const struct doc_entry *e = &old->docs.v[i];
		int32_t j = find_entry(new_idx, nr_new, new->docs.v, e);
		int kind = j < 0 ? CHANGE_DOC_DROPPED :
			   level_transition(e->level, new->docs.v[j].level);

		if (e->nr_what && kind >= 0)
			err = doc_change(old, new, kind, i, j, d);
	}
	for (i = 0; !err && i < new->docs.nr; i++) {
		const struct doc_entry *e = &new->docs.v[i];

		if (e->nr_what && find_entry(old_idx, nr_old, old->docs.v, e) < 0)
			err = doc_change(old, new, CHANGE_DOC_ADDED, -1, i, d);
	}
	free(old_idx);
	free(new_idx);
	return err;
}
