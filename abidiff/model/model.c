// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/print.h"
#include "model.h"

static const char *const type_kind_names[TYPE_KIND_COUNT] = {
	[TYPE_STRUCT]	= "struct",
	[TYPE_UNION]	= "union",
	[TYPE_ENUM]	= "enum",
	[TYPE_TYPEDEF]	= "typedef",
	[TYPE_BASE]	= "base",
};

static const char *const node_kind_names[NODE_KIND_COUNT] = {
	[NODE_DIR]	= "dir",
	[NODE_FILE]	= "file",
	[NODE_LINK]	= "link",
	[NODE_OTHER]	= "other",
};

static const char *const value_shape_names[SHAPE_COUNT] = {
	[SHAPE_UINT]		= "uint",
	[SHAPE_INT]		= "int",
	[SHAPE_HEX]		= "hex",
	[SHAPE_WORD]		= "word",
	[SHAPE_CHOICE]		= "choice",
	[SHAPE_LIST]		= "list",
	[SHAPE_TEXT]		= "text",
	[SHAPE_EMPTY]		= "empty",
	[SHAPE_BINARY]		= "binary",
	[SHAPE_UNREADABLE]	= "unreadable",
};

static const char *const abi_level_names[LEVEL_COUNT] = {
	[LEVEL_STABLE]		= "stable",
	[LEVEL_TESTING]		= "testing",
	[LEVEL_UNSTABLE]	= "unstable",
	[LEVEL_OBSOLETE]	= "obsolete",
	[LEVEL_PRIVATE]		= "private",
	[LEVEL_REMOVED]		= "removed",
	[LEVEL_UNDOCUMENTED]	= "undocumented",
};

static const char *name_of(const char *const *names, unsigned int count,
			   unsigned int value)
{
	return value < count ? names[value] : NULL;
}

int name_table__parse(const char *const *names, unsigned int count,
		      const char *name, unsigned int *out)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		if (names[i] && !strcmp(names[i], name)) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

#define DEFINE_NAME_TABLE(prefix, type, names, count)			\
const char *prefix##__name(type value)					\
{									\
	return name_of(names, count, value);				\
}									\
int prefix##__parse(const char *name, type *out)			\
{									\
	unsigned int v;							\
	int err = name_table__parse(names, count, name, &v);			\
									\
	if (!err)							\
		*out = v;						\
	return err;							\
}

DEFINE_NAME_TABLE(type_kind, enum type_kind, type_kind_names, TYPE_KIND_COUNT)
DEFINE_NAME_TABLE(node_kind, enum node_kind, node_kind_names, NODE_KIND_COUNT)
DEFINE_NAME_TABLE(value_shape, enum value_shape, value_shape_names, SHAPE_COUNT)
DEFINE_NAME_TABLE(abi_level, enum abi_level, abi_level_names, LEVEL_COUNT)

struct snapshot *snapshot__new(void)
{
	return calloc(1, sizeof(struct snapshot));
}

#define SNAPSHOT_ADD(part)				\
	({						\
		s->part.collected = true;		\
		ARRAY_APPEND(s->part.v, s->part.nr, s->part.alloc); \
	})

struct syscall *snapshot__add_syscall(struct snapshot *s)
{
	struct syscall *sc = SNAPSHOT_ADD(syscalls);

	if (sc)
		sc->implemented = true;
	return sc;
}

struct type_def *snapshot__add_type(struct snapshot *s)
{
	return SNAPSHOT_ADD(types);
}

struct sysfs_node *snapshot__add_sysfs_node(struct snapshot *s)
{
	return SNAPSHOT_ADD(sysfs);
}

struct doc_entry *snapshot__add_doc(struct snapshot *s)
{
	return SNAPSHOT_ADD(docs);
}

struct syscall_arg *syscall__add_arg(struct syscall *sc)
{
	return ARRAY_APPEND_ITEM(sc->args, sc->nr_args);
}

struct type_member *type__add_member(struct type_def *t)
{
	return ARRAY_APPEND_ITEM(t->members, t->nr_members);
}

struct enumerator *type__add_enumerator(struct type_def *t)
{
	return ARRAY_APPEND_ITEM(t->enumerators, t->nr_enumerators);
}

int doc_entry__add_what(struct doc_entry *d, const char *pattern)
{
	char *copy = strdup(pattern);
	char **slot;

	if (!copy)
		return -ENOMEM;
	slot = ARRAY_APPEND_ITEM(d->what, d->nr_what);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	return 0;
}

static void kernel_ident__clear(struct kernel_ident *k)
{
	free(k->release);
	free(k->version);
	free(k->arch);
	free(k->build_id);
	free(k->git);
	free(k->collected_by);
}

static void syscall__clear(struct syscall *sc)
{
	size_t i;

	for (i = 0; i < sc->nr_args; i++) {
		free(sc->args[i].name);
		free(sc->args[i].type);
	}
	free(sc->args);
	free(sc->abi);
	free(sc->name);
	free(sc->entry);
}

static void type__clear(struct type_def *t)
{
	size_t i;

	for (i = 0; i < t->nr_members; i++) {
		free(t->members[i].name);
		free(t->members[i].type);
	}
	for (i = 0; i < t->nr_enumerators; i++)
		free(t->enumerators[i].name);
	free(t->members);
	free(t->enumerators);
	free(t->name);
	free(t->target);
}

static void sysfs_node__clear(struct sysfs_node *n)
{
	free(n->path);
	free(n->target);
	free(n->value.raw);
	free(n->value.error);
}

static void doc_entry__clear(struct doc_entry *d)
{
	size_t i;

	for (i = 0; i < d->nr_what; i++)
		free(d->what[i]);
	free(d->what);
	free(d->file);
	free(d->date);
	free(d->kernel_version);
	free(d->contact);
	free(d->users);
	free(d->description);
}

void snapshot__free(struct snapshot *s)
{
	size_t i;

	if (!s)
		return;
	kernel_ident__clear(&s->kernel);
	for (i = 0; i < s->syscalls.nr; i++)
		syscall__clear(&s->syscalls.v[i]);
	for (i = 0; i < s->types.nr; i++)
		type__clear(&s->types.v[i]);
	for (i = 0; i < s->sysfs.nr; i++)
		sysfs_node__clear(&s->sysfs.v[i]);
	for (i = 0; i < s->docs.nr; i++)
		doc_entry__clear(&s->docs.v[i]);
	free(s->syscalls.v);
	free(s->types.v);
	free(s->sysfs.v);
	free(s->docs.v);
	free(s);
}

/* Compare possibly absent strings; an absent string sorts first. */
static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

static int syscall_cmp(const void *pa, const void *pb)
{
	const struct syscall *a = pa, *b = pb;
	int c = strcmp_null(a->abi, b->abi);

	if (c)
		return c;
	return (a->nr > b->nr) - (a->nr < b->nr);
}

static int type_cmp(const void *pa, const void *pb)
{
	const struct type_def *a = pa, *b = pb;

	return strcmp_null(a->name, b->name);
}

static int sysfs_node_cmp(const void *pa, const void *pb)
{
	const struct sysfs_node *a = pa, *b = pb;

	return strcmp_null(a->path, b->path);
}

static int doc_entry_cmp(const void *pa, const void *pb)
{
	const struct doc_entry *a = pa, *b = pb;
	int c = strcmp_null(a->file, b->file);

	if (c)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

/*
 * Sort @nr records of @size bytes with @cmp and return the index of the
 * first record equal to its predecessor, or @nr when all keys are unique.
 */
static size_t sort_unique(void *v, size_t nr, size_t size,
			  int (*cmp)(const void *, const void *))
{
	size_t i;

	if (!nr)
		return 0;
	qsort(v, nr, size, cmp);
	for (i = 1; i < nr; i++)
		if (!cmp((char *)v + (i - 1) * size, (char *)v + i * size))
			return i;
	return nr;
}

#define SORT_UNIQUE(part, cmp) \
	sort_unique(s->part.v, s->part.nr, sizeof(*s->part.v), cmp)

int snapshot__sort(struct snapshot *s, const char *origin)
{
	char q[256];
	size_t dup;

	dup = SORT_UNIQUE(syscalls, syscall_cmp);
	if (dup < s->syscalls.nr) {
		pr_err("%s: duplicate syscall %s number %u", origin,
		       quote_buf(q, sizeof(q), s->syscalls.v[dup].abi),
		       s->syscalls.v[dup].nr);
		return -EEXIST;
	}
	dup = SORT_UNIQUE(types, type_cmp);
	if (dup < s->types.nr) {
		pr_err("%s: duplicate type %s", origin,
		       quote_buf(q, sizeof(q), s->types.v[dup].name));
		return -EEXIST;
	}
	dup = SORT_UNIQUE(sysfs, sysfs_node_cmp);
	if (dup < s->sysfs.nr) {
		pr_err("%s: duplicate sysfs path %s", origin,
		       quote_buf(q, sizeof(q), s->sysfs.v[dup].path));
		return -EEXIST;
	}
	dup = SORT_UNIQUE(docs, doc_entry_cmp);
	if (dup < s->docs.nr) {
		pr_err("%s: duplicate doc entry %s line %u", origin,
		       quote_buf(q, sizeof(q), s->docs.v[dup].file),
		       s->docs.v[dup].line);
		return -EEXIST;
	}
	return 0;
}
