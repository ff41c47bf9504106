// SPDX-License-Identifier: GPL-2.0-only
/*
 * The diff: the change kinds, the syscall and documentation parts, and the
 * order of the result.  The sysfs and type parts are in diff-sysfs.c and
 * diff-types.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "parts.h"

static const struct {
	const char *name;
	enum change_class class;
	enum change_part part;
} kinds[CHANGE_KIND_COUNT] = {
	[CHANGE_NODE_REMOVED]		= { "node-removed", CLASS_REMOVED, PART_SYSFS },
	[CHANGE_NODE_ADDED]		= { "node-added", CLASS_ADDED, PART_SYSFS },
	[CHANGE_NODE_MOVED]		= { "node-moved", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_NODE_KIND_CHANGED]	= { "node-kind-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_MODE_LOST]		= { "mode-lost", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_MODE_GAINED]		= { "mode-gained", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_WORLD_WRITABLE]		= { "world-writable", CLASS_SECURITY, PART_SYSFS },
	[CHANGE_LINK_TARGET_CHANGED]	= { "link-target-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_VALUE_SHAPE_CHANGED]	= { "value-shape-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_VALUE_SHAPE_WIDENED]	= { "value-shape-widened", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_BECAME_UNREADABLE]	= { "became-unreadable", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_SYSCALL_REMOVED]	= { "syscall-removed", CLASS_REMOVED, PART_SYSCALLS },
	[CHANGE_SYSCALL_ADDED]		= { "syscall-added", CLASS_ADDED, PART_SYSCALLS },
	[CHANGE_SYSCALL_RENUMBERED]	= { "syscall-renumbered", CLASS_INCOMPATIBLE, PART_SYSCALLS },
	[CHANGE_SYSCALL_ARGS_CHANGED]	= { "syscall-args-changed", CLASS_INCOMPATIBLE, PART_SYSCALLS },
	[CHANGE_TYPE_REMOVED]		= { "type-removed", CLASS_REMOVED, PART_TYPES },
	[CHANGE_TYPE_ADDED]		= { "type-added", CLASS_ADDED, PART_TYPES },
	[CHANGE_TYPE_KIND_CHANGED]	= { "type-kind-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_TYPE_SIZE_CHANGED]	= { "type-size-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_TYPEDEF_CHANGED]	= { "typedef-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_REMOVED]		= { "member-removed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_ADDED]		= { "member-added", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_RENAMED]		= { "member-renamed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_RESERVED_USED]	= { "member-reserved-used", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_OFFSET_CHANGED]	= { "member-offset-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_SIZE_CHANGED]	= { "member-size-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_TYPE_CHANGED]	= { "member-type-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_REMOVED]	= { "enumerator-removed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_ADDED]	= { "enumerator-added", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_VALUE_CHANGED] = { "enumerator-value-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_LIMIT_CHANGED] = { "enumerator-limit-changed", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_DOC_DEMOTED]		= { "doc-demoted", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_REMOVED_EARLY]	= { "doc-removed-early", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_DROPPED]		= { "doc-dropped", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_OBSOLETED]		= { "doc-obsoleted", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_RETIRED]		= { "doc-retired", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_PROMOTED]		= { "doc-promoted", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_ADDED]		= { "doc-added", CLASS_ADDED, PART_DOCS },
};

static const char * const class_names[CLASS_COUNT] = {
	[CLASS_REMOVED]		= "removed",
	[CLASS_INCOMPATIBLE]	= "incompatible",
	[CLASS_COMPATIBLE]	= "compatible",
	[CLASS_ADDED]		= "added",
	[CLASS_SECURITY]	= "security",
	[CLASS_DEMOTED]		= "demoted",
};

const char *change_kind__name(enum change_kind kind)
{
	return kind < CHANGE_KIND_COUNT ? kinds[kind].name : NULL;
}

int change_kind__parse(const char *name, enum change_kind *out)
{
	int i;

	for (i = 0; i < CHANGE_KIND_COUNT; i++) {
		if (!strcmp(kinds[i].name, name)) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

enum change_class change_kind__class(enum change_kind kind)
{
	return kinds[kind].class;
}

enum change_part change_kind__part(enum change_kind kind)
{
	return kinds[kind].part;
}

const char *change_part__name(enum change_part part)
{
	static const char * const names[PART_COUNT] = {
		[PART_SYSFS] = "sysfs", [PART_SYSCALLS] = "syscalls",
		[PART_TYPES] = "types", [PART_DOCS] = "docs",
	};

	return part < PART_COUNT ? names[part] : NULL;
}

const char *change_class__name(enum change_class class)
{
	return class < CLASS_COUNT ? class_names[class] : NULL;
}

int change_class__parse(const char *name, enum change_class *out)
{
	unsigned int i;
	int err = name_table__parse(class_names, CLASS_COUNT, name, &i);

	if (!err)
		*out = i;
	return err;
}

static char *dup_or_null(const char *s, int *err)
{
	char *copy;

	if (!s)
		return NULL;
	copy = strdup(s);
	if (!copy)
		*err = -ENOMEM;
	return copy;
}

int diff_add(struct diff *d, enum change_kind kind, const char *subject,
	     const char *old, const char *new, int32_t old_ref, int32_t new_ref)
{
	struct change *c = ARRAY_APPEND(d->v, d->nr, d->alloc);
	int err = 0;

	if (!c)
		return -ENOMEM;
	c->kind = kind;
	c->old_ref = old_ref;
	c->new_ref = new_ref;
	c->subject = dup_or_null(subject, &err);
	c->old = dup_or_null(old, &err);
	c->new = dup_or_null(new, &err);
	return err;
}

/* Syscalls are known by (ABI, name): a number is what may change. */
static int syscall_key_cmp(const struct syscall *a, const struct syscall *b)
{
	int c = strcmp(a->abi, b->abi);

	return c ? c : strcmp(a->name, b->name);
}

static int syscall_index_cmp(const void *pa, const void *pb, void *base)
{
	const struct syscall *v = base;

	return syscall_key_cmp(&v[*(const int32_t *)pa], &v[*(const int32_t *)pb]);
}

/* The implemented syscalls of @s in (ABI, name) order; NULL (ENOMEM). */
static int32_t *index_syscalls(const struct snapshot *s, size_t *nr)
{
	int32_t *idx = malloc((s->syscalls.nr + 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	*nr = 0;
	for (i = 0; i < s->syscalls.nr; i++)
		if (s->syscalls.v[i].implemented)
			idx[(*nr)++] = i;
	qsort_r(idx, *nr, sizeof(*idx), syscall_index_cmp, s->syscalls.v);
	return idx;
}

static bool args_known(const struct syscall *sc)
{
	return sc->sources & (SYSCALL_SRC_DWARF | SYSCALL_SRC_FTRACE);
}

/* "(unsigned int fd, char * buf)", malloc()ed; NULL (ENOMEM). */
static char *describe_args(const struct syscall *sc)
{
	char *s = strdup("("), *next;
	size_t i;

	for (i = 0; s && i < sc->nr_args; i++) {
		next = xasprintf("%s%s%s %s", s, i ? ", " : "",
				 sc->args[i].type, sc->args[i].name);
		free(s);
		s = next;
	}
	next = s ? xasprintf("%s)", s) : NULL;
	free(s);
	return next;
}

static int args_equiv(const struct snapshot *old, const struct snapshot *new,
		      const struct syscall *a, const struct syscall *b)
{
	size_t i;
	int same = a->nr_args == b->nr_args;

	for (i = 0; same > 0 && i < a->nr_args; i++)
		same = types_spelling_equiv(old, new, a->args[i].type,
					    b->args[i].type);
	return same;
}

static int compare_syscall(const struct snapshot *old, const struct snapshot *new,
			   int32_t i, int32_t j, struct diff *d)
{
	const struct syscall *a = &old->syscalls.v[i], *b = &new->syscalls.v[j];
	char *subject = xasprintf("%s/%s", a->abi, a->name);
	char *was = NULL, *now = NULL;
	int err = subject ? 0 : -ENOMEM, same = 1;

	if (!err && a->nr != b->nr) {
		was = xasprintf("nr %u", a->nr);
		now = xasprintf("nr %u", b->nr);
		err = was && now ? diff_add(d, CHANGE_SYSCALL_RENUMBERED, subject,
					    was, now, i, j) : -ENOMEM;
		free(was);
		free(now);
	}
	if (!err && args_known(a) && args_known(b))
		same = args_equiv(old, new, a, b);
	if (!err && same < 0)
		err = same;
	if (!err && !same) {
		was = describe_args(a);
		now = describe_args(b);
		err = was && now ? diff_add(d, CHANGE_SYSCALL_ARGS_CHANGED, subject,
					    was, now, i, j) : -ENOMEM;
		free(was);
		free(now);
	}
	free(subject);
	return err;
}

/* One syscall present on one side only. */
static int syscall_alone(const struct snapshot *s, int32_t i, bool removed,
			 struct diff *d)
{
	const struct syscall *sc = &s->syscalls.v[i];
	char *subject = xasprintf("%s/%s", sc->abi, sc->name);
	char *what = xasprintf("nr %u", sc->nr);
	int err = -ENOMEM;

	if (subject && what)
		err = removed ?
		      diff_add(d, CHANGE_SYSCALL_REMOVED, subject, what, NULL, i, -1) :
		      diff_add(d, CHANGE_SYSCALL_ADDED, subject, NULL, what, -1, i);
	free(subject);
	free(what);
	return err;
}

/* A merge of both sides in (ABI, name) order. */
static int diff_syscalls(const struct snapshot *old, const struct snapshot *new,
			 struct diff *d)
{
	size_t nr_a, nr_b, i = 0, j = 0;
	int32_t *a = index_syscalls(old, &nr_a);
	int32_t *b = index_syscalls(new, &nr_b);
	int err = a && b ? 0 : -ENOMEM;

	while (!err && (i < nr_a || j < nr_b)) {
		int c = i == nr_a ? 1 : j == nr_b ? -1 :
			syscall_key_cmp(&old->syscalls.v[a[i]],
					&new->syscalls.v[b[j]]);

		if (c < 0)
			err = syscall_alone(old, a[i++], true, d);
		else if (c > 0)
			err = syscall_alone(new, b[j++], false, d);
		else
			err = compare_syscall(old, new, a[i++], b[j++], d);
	}
	free(a);
	free(b);
	return err;
}

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

static int diff_docs(const struct snapshot *old, const struct snapshot *new,
		     struct diff *d)
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

int diff__run(const struct snapshot *old, const struct snapshot *new,
	      struct diff *d)
{
	int err = 0;

	d->compared[PART_SYSFS] = old->sysfs.collected && new->sysfs.collected;
	d->compared[PART_SYSCALLS] = old->syscalls.collected &&
				     new->syscalls.collected;
	d->compared[PART_TYPES] = old->types.collected && new->types.collected;
	d->compared[PART_DOCS] = old->docs.collected && new->docs.collected;
	if (d->compared[PART_SYSFS])
		err = diff_sysfs(old, new, d);
	if (!err && d->compared[PART_SYSCALLS])
		err = diff_syscalls(old, new, d);
	if (!err && d->compared[PART_TYPES])
		err = diff_types(old, new, d);
	if (!err && d->compared[PART_DOCS])
		err = diff_docs(old, new, d);
	if (!err && d->nr)
		qsort(d->v, d->nr, sizeof(*d->v), change_cmp);
	return err;
}

void diff__release(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].subject);
		free(d->v[i].old);
		free(d->v[i].new);
	}
	free(d->v);
	d->v = NULL;
	d->nr = d->alloc = 0;
}
