// SPDX-License-Identifier: GPL-2.0-only
/*
 * The diff's driver: each part both snapshots collected is compared
 * (parts.h), and the changes are put in their fixed order.  The sysfs and
 * docs parts share which of OLD's entries documents each node.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "match/docmatch.h"
#include "diff.h"
#include "parts.h"

static int change_cmp(const void *pa, const void *pb)
{
	const struct change *a = pa, *b = pb;
	int c = (int)change_kind__part(a->kind) - (int)change_kind__part(b->kind);

	if (!c)
		c = strcmp(a->subject, b->subject);
	if (!c)
		c = (int)a->kind - (int)b->kind;
	if (!c)
		c = a->old_ref - b->old_ref;
	return c ? c : a->new_ref - b->new_ref;
}

/* One side's nodes against the compiled docs. */
struct side_match {
	const struct docmatch_docs *dd;
	const struct snapshot *tree;
	int32_t *entry;
	struct docmatch_hits *hits;
	int err;
};

static void *match_side(void *arg)
{
	struct side_match *sm = arg;

	sm->err = docmatch_docs__run(sm->dd, sm->tree, sm->entry, sm->hits);
	return NULL;
}

/*
 * Both sides' nodes against OLD's docs, compiled once, when there are
 * both.  The matching is most of the diff's time, and the two sides are
 * independent and only read the compiled docs: OLD's is matched in a
 * thread of its own while NEW's is, when a thread can be had.
 */
static int match_docs(const struct snapshot *old, const struct snapshot *new,
		      struct doc_matches *m)
{
	struct side_match a, b;
	struct docmatch_docs *dd;
	pthread_t thread;

	if (!old->sysfs.collected || !new->sysfs.collected ||
	    !old->docs.collected)
		return 0;
	m->old_entry = malloc((old->sysfs.nr + 1) * sizeof(*m->old_entry));
	m->new_entry = malloc((new->sysfs.nr + 1) * sizeof(*m->new_entry));
	dd = docmatch_docs__new(old);
	if (!m->old_entry || !m->new_entry || !dd) {
		docmatch_docs__free(dd);
		return -ENOMEM;
	}
	a = (struct side_match){ dd, old, m->old_entry, &m->old_hits };
	b = (struct side_match){ dd, new, m->new_entry, &m->new_hits };
	if (pthread_create(&thread, NULL, match_side, &a)) {
		match_side(&a);
		match_side(&b);
	} else {
		match_side(&b);
		pthread_join(thread, NULL);
	}
	docmatch_docs__free(dd);
	return a.err ?: b.err;
}

int diff__run(const struct snapshot *old, const struct snapshot *new,
	      struct diff *d)
{
	struct doc_matches m = { 0 };
	int err;

	d->compared[PART_SYSFS] = old->sysfs.collected && new->sysfs.collected;
	d->compared[PART_SYSCALLS] = old->syscalls.collected &&
				     new->syscalls.collected;
	d->compared[PART_VDSO] = old->vdso.collected && new->vdso.collected;
	d->compared[PART_TYPES] = old->types.collected && new->types.collected;
	d->compared[PART_DOCS] = old->docs.collected && new->docs.collected;
	d->compared[PART_CENSUS] = old->census.collected && new->census.collected;
	err = match_docs(old, new, &m);
	if (!err && d->compared[PART_SYSFS])
		err = diff_sysfs(old, new, &m, d);
	if (!err && d->compared[PART_SYSCALLS])
		err = diff_syscalls(old, new, d);
	if (!err && d->compared[PART_VDSO])
		err = diff_vdso(old, new, d);
	if (!err && d->compared[PART_TYPES])
		err = diff_types(old, new, d);
	if (!err && d->compared[PART_DOCS])
		err = diff_docs(old, new, &m, d);
	if (!err && d->compared[PART_CENSUS])
		err = diff_census(old, new, &d->old_census_entry, d);
	if (!err && d->nr)
		qsort(d->v, d->nr, sizeof(*d->v), change_cmp);
	if (!err && m.old_entry) {
		d->old_entry = m.old_entry;
		m.old_entry = NULL;
	}
	free(m.old_entry);
	free(m.new_entry);
	docmatch_hits__release(&m.old_hits);
	docmatch_hits__release(&m.new_hits);
	return err;
}
