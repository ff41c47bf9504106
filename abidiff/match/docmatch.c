// SPDX-License-Identifier: GPL-2.0-only
/*
 * Matching a sysfs tree against Documentation/ABI, aliases included.
 *
 * A sysfs node has one real path and often several more names through
 * links: /sys/class/net/eth0 is a link to /sys/devices/.../net/eth0, so
 * /sys/class/net/eth0/mtu names the same attribute as the real path, and
 * the documentation may use either.  A node is documented when any of its
 * names matches a What: pattern.
 *
 * Listing every alias of every node first would be wasteful: most names
 * through links (".../subsystem/devices/...", ".../device/driver/...") match
 * no pattern, and there are many of them.  Instead one depth-first walk goes
 * down the tree from its roots carrying a what_index cursor, the set of
 * patterns still alive for the name walked so far.  At a link it goes on
 * into the link's target with the link's name, so the target and all below
 * it are matched under their alias names in the same pass.  Wherever the
 * cursor becomes empty no pattern can match any name below, and the walk
 * stops there: that is what keeps following links cheap.
 *
 * Loops are cut by never entering a target that the current name already
 * passed through, and names are bounded to DOCMATCH_MAX_LINKS links.
 *
 * Many links lead into the same directory with the same patterns alive:
 * every device's "subsystem" link, when only "/sys/.../uevent"-like patterns
 * are left.  Walking that directory again could find nothing new, so each
 * (target, set of live patterns) is walked once (struct seen_set).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "docmatch.h"
#include "sysfs-tree.h"
#include "what-index.h"

/* Deeper names are not matched; real sysfs paths are far shorter. */
#define MAX_DEPTH	256

/* The (link target, cursor) pairs already walked: open addressing. */
struct seen {
	int32_t dir;		/* -1: free slot */
	int links;		/* how many links the name had passed */
	uint64_t hash;
	struct what_cursor cursor;	/* a copy */
};

struct seen_set {
	struct seen *v;
	size_t size;		/* a power of two */
	size_t nr;
};

/* A snapshot's What: lines compiled, numbered in order. */
struct docmatch_docs {
	const struct doc_entry *docs;
	struct what_index *idx;
	/* What: lines are indexed by number: pattern number -> entry, What: */
	int32_t *pat_entry;
	uint32_t *pat_what;
};

struct matcher {
	struct sysfs_tree t;
	struct seen_set seen;
	const struct doc_entry *docs;
	const struct what_index *idx;
	int32_t *entry;
	struct what_cursor cursor[MAX_DEPTH];
	int32_t links[DOCMATCH_MAX_LINKS];	/* targets the name passed */
	int nr_links;
	int32_t node;		/* the node whose entries are being noted */
	const int32_t *pat_entry;
	const uint32_t *pat_what;
	struct docmatch_hits *hits;	/* NULL: not asked for */
	int err;		/* of a callback */
};

/* A directory, or a link to one: what a pattern ending in '/' names. */
static bool is_directory(const struct sysfs_tree *t, int32_t node)
{
	if (t->v[node].kind == NODE_LINK && t->target[node] >= 0)
		node = t->target[node];
	return t->v[node].kind == NODE_DIR;
}

/* Pattern @pat matches the current node: keep the best entry. */
static void note_entry(uint32_t pat, bool dir_only, void *ctx)
{
	struct matcher *m = ctx;
	int32_t *best = &m->entry[m->node];
	int32_t id = m->pat_entry[pat];

	if (dir_only && !is_directory(&m->t, m->node))
		return;
	if (m->hits) {
		struct docmatch_hit *h = ARRAY_APPEND(m->hits->v, m->hits->nr,
						      m->hits->alloc);

		if (!h)
			m->err = -ENOMEM;
		else
			*h = (struct docmatch_hit){ m->node, id, m->pat_what[pat] };
	}
	if (*best < 0 || m->docs[id].level < m->docs[*best].level ||
	    (m->docs[id].level == m->docs[*best].level && id < *best))
		*best = id;
}

static void note(struct matcher *m, int32_t node, const struct what_cursor *c)
{
	m->node = node;
	what_cursor__entries(c, note_entry, m);
}

static bool passed_through(const struct matcher *m, int32_t target)
{
	int i;

	for (i = 0; i < m->nr_links; i++)
		if (m->links[i] == target)
			return true;
	return false;
}

static int seen_grow(struct seen_set *ss)
{
	size_t size = ss->size ? ss->size * 2 : 1024, i, j;
	struct seen *v = malloc(size * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < size; i++)
		v[i].dir = -1;
	for (i = 0; i < ss->size; i++) {
		if (ss->v[i].dir < 0)
			continue;
		for (j = ss->v[i].hash & (size - 1); v[j].dir >= 0;
		     j = (j + 1) & (size - 1))
			;
		v[j] = ss->v[i];
	}
	free(ss->v);
	ss->v = v;
	ss->size = size;
	return 0;
}

/*
 * Has directory @dir been walked with the patterns of @c alive, by a name
 * through @links links, before?
 * Records it if not.  Returns 1, 0, or -ENOMEM.
 */
static int seen_before(struct seen_set *ss, int32_t dir, int links,
		       const struct what_cursor *c)
{
	uint64_t hash = (what_cursor__hash(c) ^ (uint32_t)dir) *
			0x100000001b3ull;
	struct seen *e;
	size_t i;

	if (2 * (ss->nr + 1) > ss->size && seen_grow(ss))
		return -ENOMEM;
	for (i = hash & (ss->size - 1); ss->v[i].dir >= 0;
	     i = (i + 1) & (ss->size - 1)) {
		e = &ss->v[i];
		if (e->dir == dir && e->links == links && e->hash == hash &&
		    what_cursor__same(&e->cursor, c))
			return 1;
	}
	e = &ss->v[i];
	what_cursor__init(&e->cursor);
	if (what_cursor__copy(&e->cursor, c)) {
		what_cursor__release(&e->cursor);
		return -ENOMEM;
	}
	e->dir = dir;
	e->links = links;
	e->hash = hash;
	ss->nr++;
	return 0;
}

static void seen_free(struct seen_set *ss)
{
	size_t i;

	for (i = 0; i < ss->size; i++)
		if (ss->v[i].dir >= 0)
			what_cursor__release(&ss->v[i].cursor);
	free(ss->v);
}

/*
 * @node has been reached by a name whose cursor is m->cursor[depth]: note
 * its entries and go on below it, through a link into the link's target.
 */
static int visit(struct matcher *m, int32_t node, int depth)
{
	const struct what_cursor *c = &m->cursor[depth];
	int32_t dir = node, i;
	bool through_link = false;
	int err = 0;

	note(m, node, c);
	if (m->err)
		return m->err;
	if (m->t.v[node].kind == NODE_LINK) {
		dir = m->t.target[node];
		if (dir < 0 || m->nr_links == DOCMATCH_MAX_LINKS ||
		    passed_through(m, dir))
			return 0;
		note(m, dir, c);
		if (m->err)
			return m->err;
		err = seen_before(&m->seen, dir, m->nr_links, c);
		if (err)
			return err < 0 ? err : 0;
		m->links[m->nr_links++] = dir;
		through_link = true;
	}
	for (i = m->t.first[dir]; !err && i < m->t.first[dir + 1]; i++) {
		int32_t kid = m->t.child[i];
		const char *name = sysfs_basename(m->t.v[kid].path);

		if (depth + 1 == MAX_DEPTH)
			break;
		err = what_index__step(m->idx, c, name, strlen(name),
				       &m->cursor[depth + 1]);
		if (!err && !what_cursor__empty(&m->cursor[depth + 1]))
			err = visit(m, kid, depth + 1);
	}
	if (through_link)
		m->nr_links--;
	return err;
}

/* Step the cursor from the index's root over every component of @path. */
static int cursor_for_path(struct matcher *m, const char *path,
			   struct what_cursor *out)
{
	struct what_cursor tmp;
	const char *p, *end;
	int err;

	what_cursor__init(&tmp);
	err = what_index__root(m->idx, out);
	for (p = path; !err && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		if (end == p)
			continue;
		err = what_index__step(m->idx, out, p, end - p, &tmp);
		if (!err) {
			struct what_cursor swap = *out;

			*out = tmp;
			tmp = swap;
		}
	}
	what_cursor__release(&tmp);
	return err;
}

void docmatch_docs__free(struct docmatch_docs *dd)
{
	if (!dd)
		return;
	what_index__free(dd->idx);
	free(dd->pat_entry);
	free(dd->pat_what);
	free(dd);
}

/* Every What: line, numbered in order, under its number. */
struct docmatch_docs *docmatch_docs__new(const struct snapshot *docs)
{
	struct docmatch_docs *dd = calloc(1, sizeof(*dd));
	size_t i, j, nr = 0;
	uint32_t pat = 0;

	if (!dd)
		return NULL;
	for (i = 0; i < docs->docs.nr; i++)
		nr += docs->docs.v[i].nr_what;
	dd->docs = docs->docs.v;
	dd->idx = what_index__new();
	dd->pat_entry = malloc((nr + 1) * sizeof(*dd->pat_entry));
	dd->pat_what = malloc((nr + 1) * sizeof(*dd->pat_what));
	if (!dd->idx || !dd->pat_entry || !dd->pat_what)
		goto out_nomem;
	for (i = 0; i < docs->docs.nr; i++) {
		const struct doc_entry *d = &docs->docs.v[i];

		for (j = 0; j < d->nr_what; j++, pat++) {
			dd->pat_entry[pat] = i;
			dd->pat_what[pat] = j;
			/* the parser has warned about bad patterns already */
			if (what_index__add(dd->idx, d->what[j], pat, NULL) ==
			    -ENOMEM)
				goto out_nomem;
		}
	}
	return dd;

out_nomem:
	docmatch_docs__free(dd);
	errno = ENOMEM;
	return NULL;
}

static int hit_cmp(const void *pa, const void *pb)
{
	const struct docmatch_hit *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	return (a->what > b->what) - (a->what < b->what);
}

static void sort_hits(struct docmatch_hits *h)
{
	size_t i, nr = 0;

	if (!h->nr)
		return;
	qsort(h->v, h->nr, sizeof(*h->v), hit_cmp);
	for (i = 0; i < h->nr; i++)
		if (!nr || hit_cmp(&h->v[nr - 1], &h->v[i]))
			h->v[nr++] = h->v[i];
	h->nr = nr;
}

void docmatch_hits__release(struct docmatch_hits *hits)
{
	free(hits->v);
	hits->v = NULL;
	hits->nr = hits->alloc = 0;
}

int docmatch_docs__run(const struct docmatch_docs *dd,
		       const struct snapshot *tree, int32_t *entry,
		       struct docmatch_hits *hits)
{
	struct matcher *m = calloc(1, sizeof(*m));
	size_t i;
	int err;

	if (!m)
		return -ENOMEM;
	m->docs = dd->docs;
	m->idx = dd->idx;
	m->pat_entry = dd->pat_entry;
	m->pat_what = dd->pat_what;
	m->entry = entry;
	m->hits = hits;
	for (i = 0; i < tree->sysfs.nr; i++)
		entry[i] = -1;
	for (i = 0; i < MAX_DEPTH; i++)
		what_cursor__init(&m->cursor[i]);
	err = sysfs_tree__build(&m->t, tree);
	for (i = 0; !err && i < m->t.nr; i++) {
		if (m->t.parent[i] >= 0)
			continue;	/* a root: "/sys", "/proc/sys" */
		err = cursor_for_path(m, m->t.v[i].path, &m->cursor[0]);
		if (!err && !what_cursor__empty(&m->cursor[0]))
			err = visit(m, i, 0);
	}
	for (i = 0; i < MAX_DEPTH; i++)
		what_cursor__release(&m->cursor[i]);
	if (!err && hits)
		sort_hits(hits);
	seen_free(&m->seen);
	sysfs_tree__release(&m->t);
	free(m);
	return err;
}

int docmatch__run_hits(const struct snapshot *tree, const struct snapshot *docs,
		       int32_t *entry, struct docmatch_hits *hits)
{
	struct docmatch_docs *dd = docmatch_docs__new(docs);
	int err = dd ? docmatch_docs__run(dd, tree, entry, hits) : -ENOMEM;

	docmatch_docs__free(dd);
	return err;
}

int docmatch__run(const struct snapshot *tree, const struct snapshot *docs,
		  int32_t *entry)
{
	return docmatch__run_hits(tree, docs, entry, NULL);
}
