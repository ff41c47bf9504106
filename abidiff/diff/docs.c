// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documentation part of the diff: entries are paired by their What:
 * patterns, and each move between stability levels is a change.
 *
 * Pairing goes in three steps, each only for what the one before left:
 *
 *  1. the same What: pattern, as written;
 *  2. the same pattern once its wildcards are renamed to one token
 *     (what_pattern__normalize(): "iio:deviceX" is "iio:device<N>"): only
 *     the spelling changed, so nothing is reported but a change of level;
 *  3. a pattern with the same last component (the attribute) and evidence
 *     that the entry itself moved: the same description, or the same file
 *     and Date:, or a new pattern that matches the old one as a path (a
 *     path generalised with "...").  That is doc-moved.
 *
 * An old entry still unpaired is dropped: doc-dropped-live when NEW has nodes
 * it documents (the interface is there, only its page went), doc-dropped
 * otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/what-normal.h"
#include "parts.h"

/* One What: pattern (or its normal form) of one entry. */
struct what_ref {
	const char *what;
	int32_t entry;
	uint32_t nth;		/* which of the entry's patterns */
};

/* Both indexes of one tree's patterns, each sorted by pattern. */
struct what_idx {
	const struct doc_entry *docs;
	struct what_ref *raw;
	struct what_ref *normal;	/* .what owned */
	size_t nr;
};

static int what_ref_cmp(const void *pa, const void *pb)
{
	const struct what_ref *a = pa, *b = pb;
	int c = strcmp(a->what, b->what);

	return c ? c : a->entry - b->entry;
}

static void what_idx__release(struct what_idx *x)
{
	size_t i;

	if (x->normal)
		for (i = 0; i < x->nr; i++)
			free((char *)x->normal[i].what);
	free(x->raw);
	free(x->normal);
}

static int what_idx__init(struct what_idx *x, const struct snapshot *s)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->docs.nr; i++)
		n += s->docs.v[i].nr_what;
	x->docs = s->docs.v;
	x->nr = 0;
	x->raw = malloc((n + 1) * sizeof(*x->raw));
	x->normal = calloc(n + 1, sizeof(*x->normal));
	if (!x->raw || !x->normal)
		return -ENOMEM;
	for (i = 0; i < s->docs.nr; i++) {
		for (j = 0; j < s->docs.v[i].nr_what; j++) {
			struct what_ref r = {
				s->docs.v[i].what[j], i, j,
			};

			x->raw[x->nr] = r;
			r.what = what_pattern__normalize(r.what);
			x->normal[x->nr++] = r;
			if (!r.what)
				return -ENOMEM;
		}
	}
	qsort(x->raw, x->nr, sizeof(*x->raw), what_ref_cmp);
	qsort(x->normal, x->nr, sizeof(*x->normal), what_ref_cmp);
	return 0;
}

/*
 * The entry of @idx with pattern @key at @level, or -1; *@found is set to
 * the first entry with @key at any level if it is still -1.
 */
static int32_t lookup(const struct what_ref *idx, size_t nr,
		      const struct doc_entry *docs, const char *key,
		      enum abi_level level, int32_t *found)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(idx[mid].what, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nr && !strcmp(idx[lo].what, key); lo++) {
		if (docs[idx[lo].entry].level == level)
			return idx[lo].entry;
		if (*found < 0)
			*found = idx[lo].entry;
	}
	return -1;
}

/*
 * The entry of @x that shares one of @e's patterns, as written or else in
 * normal form, into *@out (-1 for none).  When several do (a pattern two
 * files document), one at @e's own level is taken: that is the entry
 * itself, and no move.  Returns 0 or -ENOMEM.
 */
static int find_entry(const struct what_idx *x, const struct doc_entry *e,
		      int32_t *out)
{
	int32_t found = -1, j = -1;
	size_t i;

	for (i = 0; j < 0 && i < e->nr_what; i++)
		j = lookup(x->raw, x->nr, x->docs, e->what[i], e->level,
			   &found);
	for (i = 0; j < 0 && found < 0 && i < e->nr_what; i++) {
		char *key = what_pattern__normalize(e->what[i]);

		if (!key)
			return -ENOMEM;
		j = lookup(x->normal, x->nr, x->docs, key, e->level, &found);
		free(key);
	}
	*out = j >= 0 ? j : found;
	return 0;
}

/*
 * How committed the kernel is to an interface at each level, most first;
 * obsolete and removed are the way out and judged apart.
 */
static int commitment(enum abi_level level)
{
	static const int rank[LEVEL_COUNT] = {
		[LEVEL_STABLE] = 0, [LEVEL_TESTING] = 1, [LEVEL_SYSCTL] = 1,
		[LEVEL_PRIVATE] = 2,
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

/* The attribute (last component) of one normal form of NEW's entries. */
struct attr_ref {
	const char *attr;
	size_t len;
	int32_t entry;
	uint32_t nth;
};

static int attr_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int attr_ref_cmp(const void *pa, const void *pb)
{
	const struct attr_ref *a = pa, *b = pb;
	int c = attr_cmp(a->attr, a->len, b->attr, b->len);

	if (c)
		return c;
	if (a->entry != b->entry)
		return a->entry - b->entry;
	return (a->nth > b->nth) - (a->nth < b->nth);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The same words in the same order, whatever the blanks; empty is never. */
static bool same_text(const char *a, const char *b)
{
	bool any = false;

	if (!a || !b)
		return false;
	for (;;) {
		while (is_blank(*a))
			a++;
		while (is_blank(*b))
			b++;
		if (!*a || !*b)
			return !*a && !*b && any;
		/* one word each */
		for (; *a && !is_blank(*a); a++, b++)
			if (*a != *b)
				return false;
		if (*b && !is_blank(*b))
			return false;
		any = true;
	}
}

/* Why an entry counts as moved, weakest first; MOVED_NOT for no reason. */
enum moved_by {
	MOVED_NOT,
	MOVED_COVERS,		/* NEW's pattern matches OLD's as a path */
	MOVED_FILE_DATE,	/* same file and Date: */
	MOVED_DESCRIPTION,	/* same description */
};

static const char *const moved_reason[] = {
	[MOVED_COVERS] = "its What: matches the old one",
	[MOVED_FILE_DATE] = "same file and date",
	[MOVED_DESCRIPTION] = "same description",
};

/* A doc-moved found for one entry of OLD. */
struct move {
	enum moved_by by;
	int32_t entry;		/* of NEW */
	uint32_t old_nth, new_nth;
};

/* The evidence that @a's pattern @wa moved to @b's pattern @wb. */
static int moved_by(const struct doc_entry *a, const char *wa,
		    const struct doc_entry *b, const char *wb)
{
	int covers;

	if (same_text(a->description, b->description))
		return MOVED_DESCRIPTION;
	if (!strcmp(a->file, b->file) && a->date && *a->date && b->date &&
	    !strcmp(a->date, b->date))
		return MOVED_FILE_DATE;
	covers = what_pattern__covers(wb, wa);
	if (covers < 0)
		return covers;
	return covers ? MOVED_COVERS : MOVED_NOT;
}

/* Keep the move to @r's entry if @by is better evidence than @mv's. */
static void take_move(struct move *mv, int by, const struct attr_ref *r,
		      uint32_t old_nth)
{
	if (by > (int)mv->by ||
	    (by && by == (int)mv->by && r->entry < mv->entry)) {
		mv->by = by;
		mv->entry = r->entry;
		mv->old_nth = old_nth;
		mv->new_nth = r->nth;
	}
}

/*
 * A NEW attribute spelt with alternatives ("create_{pmem,ram}_region") has
 * another name than each attribute it documents: @a moved into it when the
 * pattern matches @a's, read as a path.
 */
static int find_move_into_braces(const struct doc_entry *a,
				 const struct attr_ref *attrs, size_t nr,
				 const struct doc_entry *docs, struct move *mv)
{
	size_t i, k;

	for (k = 0; k < nr; k++) {
		const struct attr_ref *r = &attrs[k];

		if (!memchr(r->attr, '{', r->len))
			continue;
		for (i = 0; i < a->nr_what; i++) {
			int covers = what_pattern__covers(docs[r->entry].what[r->nth],
							  a->what[i]);

			if (covers < 0)
				return covers;
			if (covers)
				take_move(mv, MOVED_COVERS, r, i);
		}
	}
	return 0;
}

/*
 * The best move of OLD's entry @a among @attrs (NEW's unpaired entries by
 * attribute) into *@mv: the strongest evidence, then the first entry of
 * NEW.  Returns 0 or -ENOMEM.
 */
static int find_move(const struct doc_entry *a, const struct attr_ref *attrs,
		     size_t nr, const struct doc_entry *docs, struct move *mv)
{
	size_t i, lo, hi, len;

	*mv = (struct move){ .by = MOVED_NOT, .entry = -1 };
	for (i = 0; i < a->nr_what; i++) {
		char *normal = what_pattern__normalize(a->what[i]);
		const char *attr;

		if (!normal)
			return -ENOMEM;
		attr = what_pattern__attribute(normal, &len);
		lo = 0;
		hi = nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (attr_cmp(attrs[mid].attr, attrs[mid].len, attr,
				     len) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < nr && !attr_cmp(attrs[lo].attr, attrs[lo].len, attr,
					    len); lo++) {
			const struct attr_ref *r = &attrs[lo];
			const struct doc_entry *b = &docs[r->entry];
			int by = moved_by(a, a->what[i], b, b->what[r->nth]);

			if (by < 0) {
				free(normal);
				return by;
			}
			take_move(mv, by, r, i);
		}
		free(normal);
	}
	return mv->by == MOVED_NOT ? find_move_into_braces(a, attrs, nr, docs, mv) :
	       0;
}

/* The attributes of NEW's entries that no entry of OLD pairs with. */
static struct attr_ref *index_attrs(const struct what_idx *x,
				    const bool *paired, size_t *nr)
{
	struct attr_ref *v = malloc((x->nr + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	*nr = 0;
	for (i = 0; i < x->nr; i++) {
		const struct what_ref *r = &x->normal[i];

		if (paired[r->entry])
			continue;
		v[*nr].attr = what_pattern__attribute(r->what, &v[*nr].len);
		v[*nr].entry = r->entry;
		v[(*nr)++].nth = r->nth;
	}
	qsort(v, *nr, sizeof(*v), attr_ref_cmp);
	return v;
}

static int moved_change(const struct snapshot *old, const struct snapshot *new,
			int32_t i, const struct move *mv, struct diff *d)
{
	const struct doc_entry *a = &old->docs.v[i];
	const struct doc_entry *b = &new->docs.v[mv->entry];
	int kind = level_transition(a->level, b->level);
	char *was = xasprintf("%s (%s#%u)", a->what[mv->old_nth], a->file,
			      a->line);
	char *now = xasprintf("%s (%s#%u, %s)", b->what[mv->new_nth], b->file,
			      b->line, moved_reason[mv->by]);
	int err = -ENOMEM;

	if (was && now)
		err = diff_add(d, kind < 0 ? CHANGE_DOC_MOVED : kind,
			       a->what[0], was, now, i, mv->entry);
	free(was);
	free(now);
	return err;
}

/* Which of OLD's entries document a node NEW still has; NULL for none. */
static bool *live_entries(const struct snapshot *old,
			  const struct snapshot *new,
			  const struct doc_matches *m)
{
	bool *live = calloc(old->docs.nr + 1, sizeof(*live));
	size_t i;

	if (live && m && m->new_entry)
		for (i = 0; i < new->sysfs.nr; i++)
			if (m->new_entry[i] >= 0)
				live[m->new_entry[i]] = true;
	return live;
}

int diff_docs(const struct snapshot *old, const struct snapshot *new,
	      const struct doc_matches *m, struct diff *d)
{
	struct what_idx old_idx = { 0 }, new_idx = { 0 };
	bool *paired = calloc(new->docs.nr + 1, sizeof(*paired));
	bool *claimed = calloc(new->docs.nr + 1, sizeof(*claimed));
	bool *live = live_entries(old, new, m);
	struct attr_ref *attrs = NULL;
	size_t nr_attrs = 0, i;
	int32_t j;
	int err = paired && claimed && live ? 0 : -ENOMEM;

	if (!err)
		err = what_idx__init(&old_idx, old) ?:
		      what_idx__init(&new_idx, new);
	for (i = 0; !err && i < new->docs.nr; i++) {
		err = find_entry(&old_idx, &new->docs.v[i], &j);
		paired[i] = j >= 0;
	}
	if (!err) {
		attrs = index_attrs(&new_idx, paired, &nr_attrs);
		if (!attrs)
			err = -ENOMEM;
	}
	for (i = 0; !err && i < old->docs.nr; i++) {
		const struct doc_entry *e = &old->docs.v[i];
		struct move mv;
		int kind;

		if (!e->nr_what)
			continue;
		err = find_entry(&new_idx, e, &j);
		if (!err && j >= 0) {
			kind = level_transition(e->level, new->docs.v[j].level);
			if (kind >= 0)
				err = doc_change(old, new, kind, i, j, d);
			continue;
		}
		if (!err)
			err = find_move(e, attrs, nr_attrs, new->docs.v, &mv);
		if (!err && mv.by != MOVED_NOT) {
			claimed[mv.entry] = true;
			err = moved_change(old, new, i, &mv, d);
		} else if (!err) {
			err = doc_change(old, new, live[i] ?
					 CHANGE_DOC_DROPPED_LIVE :
					 CHANGE_DOC_DROPPED, i, -1, d);
		}
	}
	for (i = 0; !err && i < new->docs.nr; i++) {
		const struct doc_entry *e = &new->docs.v[i];

		if (e->nr_what && !paired[i] && !claimed[i])
			err = doc_change(old, new, CHANGE_DOC_ADDED, -1, i, d);
	}
	what_idx__release(&old_idx);
	what_idx__release(&new_idx);
	free(attrs);
	free(paired);
	free(claimed);
	free(live);
	return err;
}
