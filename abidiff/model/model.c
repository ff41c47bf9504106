// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stddef.h>
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
	[LEVEL_SYSCTL]		= "sysctl",
	[LEVEL_UNDOCUMENTED]	= "undocumented",
};

static const char *const doc_source_names[DOC_SOURCE_COUNT] = {
	[DOC_SOURCE_ABI]	= "abi",
	[DOC_SOURCE_SYSCTL]	= "sysctl",
};

static const char *const module_how_names[MODULE_HOW_COUNT] = {
	[MODULE_FOR_DEVICE]	= "device",
	[MODULE_FOR_DEPENDENCY]	= "dependency",
	[MODULE_FOR_REQUEST]	= "request",
	[MODULE_FOR_BOOT]	= "boot",
};

static const char *const census_kind_names[CENSUS_KIND_COUNT] = {
	[CENSUS_ATTRIBUTE]	= "attribute",
	[CENSUS_DEVICE]		= "device",
	[CENSUS_DRIVER]		= "driver",
	[CENSUS_BUS]		= "bus",
	[CENSUS_CLASS]		= "class",
	[CENSUS_KOBJ]		= "kobj",
	[CENSUS_MODULE]		= "module",
	[CENSUS_SENSOR]		= "sensor",
	[CENSUS_IIO]		= "iio",
	[CENSUS_BIN]		= "bin",
	[CENSUS_OTHER]		= "other",
	[CENSUS_HWMON]		= "hwmon",
	[CENSUS_PARAM]		= "param",
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
DEFINE_NAME_TABLE(doc_source, enum doc_source, doc_source_names,
		  DOC_SOURCE_COUNT)
DEFINE_NAME_TABLE(module_how, enum module_how, module_how_names, MODULE_HOW_COUNT)
DEFINE_NAME_TABLE(census_kind, enum census_kind, census_kind_names, CENSUS_KIND_COUNT)

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

struct vdso_symbol *snapshot__add_vdso_symbol(struct snapshot *s)
{
	return SNAPSHOT_ADD(vdso);
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

struct census_attr *snapshot__add_census_attr(struct snapshot *s)
{
	return SNAPSHOT_ADD(census);
}

int snapshot__add_census_module(struct snapshot *s, const char *name)
{
	char *copy = strdup(name);
	char **slot;

	if (!copy)
		return -ENOMEM;
	slot = ARRAY_APPEND_ITEM(s->census_modules, s->nr_census_modules);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	s->census.collected = true;
	return 0;
}

struct module_load *machine__add_module(struct machine *m)
{
	return ARRAY_APPEND_ITEM(m->modules, m->nr_modules);
}

int snapshot__add_syscall_abi(struct snapshot *s, const char *abi)
{
	return strings__append(&s->syscall_abis, &s->nr_syscall_abis, abi);
}

static int string_cmp(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

bool snapshot__has_syscall_abi(const struct snapshot *s, const char *abi)
{
	return s->nr_syscall_abis &&
	       bsearch(&abi, s->syscall_abis, s->nr_syscall_abis,
		       sizeof(*s->syscall_abis), string_cmp);
}

struct syscall_arg *syscall__add_arg(struct syscall *sc)
{
	return ARRAY_APPEND_ITEM(sc->args, sc->nr_args);
}

struct syscall_arg *vdso_symbol__add_arg(struct vdso_symbol *sym)
{
	return ARRAY_APPEND_ITEM(sym->args, sym->nr_args);
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
	return strings__append(&d->what, &d->nr_what, pattern);
}

const char *doc_entry__dir(const struct doc_entry *d)
{
	return d->source == DOC_SOURCE_SYSCTL ? "Documentation/" :
	       "Documentation/ABI/";
}

static void kernel_ident__clear(struct kernel_ident *k)
{
	free(k->release);
	free(k->version);
	free(k->build_date);
	free(k->arch);
	free(k->build_id);
	free(k->git);
	free(k->collected_by);
}

static void arg__clear(struct syscall_arg *arg)
{
	free(arg->name);
	free(arg->type);
	type_ref__release(&arg->type_ref);
}

static void syscall__clear(struct syscall *sc)
{
	size_t i;

	for (i = 0; i < sc->nr_args; i++)
		arg__clear(&sc->args[i]);
	free(sc->args);
	free(sc->abi);
	free(sc->name);
	free(sc->entry);
	free(sc->file);
}

static void vdso_symbol__clear(struct vdso_symbol *sym)
{
	size_t i;

	for (i = 0; i < sym->nr_args; i++)
		arg__clear(&sym->args[i]);
	arg__clear(&sym->ret);
	free(sym->args);
	free(sym->image);
	free(sym->name);
	free(sym->version);
}

static void type__clear(struct type_def *t)
{
	size_t i;

	for (i = 0; i < t->nr_members; i++) {
		free(t->members[i].name);
		free(t->members[i].type);
		type_ref__release(&t->members[i].type_ref);
	}
	for (i = 0; i < t->nr_enumerators; i++)
		free(t->enumerators[i].name);
	free(t->members);
	free(t->enumerators);
	free(t->name);
	free(t->target);
	free(t->file);
	type_ref__release(&t->target_ref);
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

void census_attr__clear(struct census_attr *a)
{
	free(a->module);
	free(a->file);
	free(a->symbol);
	free(a->name);
	free(a->type);
	free(a->group);
	free(a->path);
}

void snapshot__free(struct snapshot *s)
{
	size_t i;

	if (!s)
		return;
	kernel_ident__clear(&s->kernel);
	free(s->machine.profile);
	for (i = 0; i < s->machine.nr_modules; i++) {
		free(s->machine.modules[i].name);
		free(s->machine.modules[i].cause);
		free(s->machine.modules[i].error);
	}
	free(s->machine.modules);
	for (i = 0; i < s->nr_syscall_abis; i++)
		free(s->syscall_abis[i]);
	free(s->syscall_abis);
	for (i = 0; i < s->syscalls.nr; i++)
		syscall__clear(&s->syscalls.v[i]);
	for (i = 0; i < s->vdso.nr; i++)
		vdso_symbol__clear(&s->vdso.v[i]);
	for (i = 0; i < s->types.nr; i++)
		type__clear(&s->types.v[i]);
	for (i = 0; i < s->sysfs.nr; i++)
		sysfs_node__clear(&s->sysfs.v[i]);
	for (i = 0; i < s->docs.nr; i++)
		doc_entry__clear(&s->docs.v[i]);
	free(s->syscalls.v);
	free(s->vdso.v);
	free(s->types.v);
	free(s->sysfs.v);
	for (i = 0; i < s->census.nr; i++)
		census_attr__clear(&s->census.v[i]);
	for (i = 0; i < s->nr_census_modules; i++)
		free(s->census_modules[i]);
	free(s->docs.v);
	free(s->census.v);
	free(s->census_modules);
	free(s);
}

static int syscall_cmp(const void *pa, const void *pb)
{
	const struct syscall *a = pa, *b = pb;
	int c = strcmp_null(a->abi, b->abi);

	if (c)
		return c;
	return (a->nr > b->nr) - (a->nr < b->nr);
}

static int vdso_symbol_cmp(const void *pa, const void *pb)
{
	const struct vdso_symbol *a = pa, *b = pb;
	int c = strcmp_null(a->image, b->image);

	return c ? c : strcmp_null(a->name, b->name);
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

int census_attr__cmp(const void *pa, const void *pb)
{
	const struct census_attr *a = pa, *b = pb;
	int c = strcmp_null(a->module, b->module);

	if (!c)
		c = strcmp_null(a->file, b->file);
	if (!c)
		c = strcmp_null(a->symbol, b->symbol);
	return c ? c : strcmp_null(a->name, b->name);
}

/*
 * Sort @nr records of @size bytes with @cmp and return the index of the
 * first record equal to its predecessor, or @nr when all keys are unique.
 * A snapshot file is written in canonical order: records already in
 * strictly increasing order are left as they are, in one pass, where the
 * merge sort behind qsort() would take n log n comparisons to leave them.
 */
static size_t sort_unique(void *v, size_t nr, size_t size,
			  int (*cmp)(const void *, const void *))
{
	size_t i;

	if (!nr)
		return 0;
	for (i = 1; i < nr; i++)
		if (cmp((char *)v + (i - 1) * size, (char *)v + i * size) >= 0)
			break;
	if (i == nr)
		return nr;
	qsort(v, nr, size, cmp);
	for (i = 1; i < nr; i++)
		if (!cmp((char *)v + (i - 1) * size, (char *)v + i * size))
			return i;
	return nr;
}

#define SORT_UNIQUE(part, cmp) \
	sort_unique(s->part.v, s->part.nr, sizeof(*s->part.v), cmp)

bool type_name__is_vdso(const char *name)
{
	size_t n = strcspn(name, ": ");

	return !strncmp(name, "vdso", 4) && name[n] == ':';
}

const char *type_spelling__unqualified(const char *spelling)
{
	for (;;) {
		if (!strncmp(spelling, "const ", 6))
			spelling += 6;
		else if (!strncmp(spelling, "volatile ", 9))
			spelling += 9;
		else
			return spelling;
	}
}

/*
 * The index of the type named by the @len bytes at @name, or -1.  The
 * types are sorted by type_cmp(): an absent name comes first.
 */
static int32_t find_type(const struct snapshot *s, const char *name, size_t len)
{
	return array__find_name(s->types.v, s->types.nr, sizeof(*s->types.v),
				offsetof(struct type_def, name), name, len);
}

/*
 * The longest start of @spelling at a token boundary that names a type of
 * @s: its length, and its index in *@base (-1, and 0 returned, for none).
 */
static size_t base_of(const struct snapshot *s, const char *spelling,
		      int32_t *base)
{
	size_t n;

	for (n = strlen(spelling); n > 0; n--) {
		if (spelling[n] && !strchr(" *[(", spelling[n]))
			continue;
		*base = find_type(s, spelling, n);
		if (*base >= 0)
			return n;
	}
	*base = -1;
	return 0;
}

/*
 * The bytes of @decl that make a declarator: all but spaces, "const" and
 * "volatile".  Copied to @out when @out is not NULL; returns their count.
 */
static size_t declarator_copy(const char *decl, char *out)
{
	size_t len = 0;

	while (*decl) {
		if (!strncmp(decl, "const", 5)) {
			decl += 5;
		} else if (!strncmp(decl, "volatile", 8)) {
			decl += 8;
		} else {
			if (*decl != ' ' && out)
				out[len] = *decl;
			len += *decl++ != ' ';
		}
	}
	return len;
}

void type_ref__release(struct type_ref *ref)
{
	free(ref->declarator);
	ref->declarator = NULL;
	ref->base = -1;
}

int type_ref__parse(const struct snapshot *s, const char *spelling,
		    struct type_ref *ref)
{
	size_t len;

	ref->base = -1;
	ref->declarator = NULL;
	if (!spelling)
		return 0;
	spelling = type_spelling__unqualified(spelling);
	spelling += base_of(s, spelling, &ref->base);
	if (ref->base < 0)
		return 0;
	len = declarator_copy(spelling, NULL);
	if (!len)
		return 0;
	ref->declarator = malloc(len + 1);
	if (!ref->declarator) {
		ref->base = -1;
		return -ENOMEM;
	}
	declarator_copy(spelling, ref->declarator);
	ref->declarator[len] = '\0';
	return 0;
}

/* Put @inner in front of *@decl, which may be NULL: 0 or -ENOMEM. */
static int declarator_wrap(char **decl, const char *inner)
{
	size_t n = strlen(inner), m = *decl ? strlen(*decl) : 0;
	char *v;

	v = malloc(n + m + 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, inner, n);
	if (m)
		memcpy(v + n, *decl, m);
	v[n + m] = '\0';
	free(*decl);
	*decl = v;
	return 0;
}

int type_ref__resolve(const struct snapshot *s, const char *spelling,
		      const struct type_ref *ref, struct type_ref *out,
		      const char **text)
{
	int hops;

	out->base = -1;
	out->declarator = NULL;
	*text = type_spelling__unqualified(spelling);
	for (hops = 0; hops < MAX_TYPEDEF_HOPS; hops++) {
		const struct type_def *t;

		if (ref->base < 0 || (size_t)ref->base >= s->types.nr)
			return 0;
		t = &s->types.v[ref->base];
		if (ref->declarator &&
		    declarator_wrap(&out->declarator, ref->declarator)) {
			type_ref__release(out);
			return -ENOMEM;
		}
		*text = t->name;
		if (t->kind != TYPE_TYPEDEF || !t->target) {
			out->base = ref->base;
			return 0;
		}
		*text = type_spelling__unqualified(t->target);
		ref = &t->target_ref;
	}
	return 0;	/* a chain too long: the spelling reached is the rest */
}

/* Compute @ref from @spelling again, unless an error @err came before. */
static int ref_again(const struct snapshot *s, const char *spelling,
		     struct type_ref *ref, int err)
{
	type_ref__release(ref);
	return err ? err : type_ref__parse(s, spelling, ref);
}

/*
 * Every spelling's type_ref, from the types in their final order.  After
 * an error, @err or one of computing, the refs not computed are released:
 * none is left pointing where a type used to be.
 */
static int resolve_refs(struct snapshot *s, int err)
{
	size_t i, k;

	for (i = 0; i < s->types.nr; i++) {
		struct type_def *t = &s->types.v[i];

		err = ref_again(s, t->kind == TYPE_TYPEDEF ? t->target : NULL,
				&t->target_ref, err);
		for (k = 0; k < t->nr_members; k++)
			err = ref_again(s, t->members[k].type,
					&t->members[k].type_ref, err);
	}
	for (i = 0; i < s->syscalls.nr; i++) {
		struct syscall *sc = &s->syscalls.v[i];

		for (k = 0; k < sc->nr_args; k++)
			err = ref_again(s, sc->args[k].type,
					&sc->args[k].type_ref, err);
	}
	for (i = 0; i < s->vdso.nr; i++) {
		struct vdso_symbol *sym = &s->vdso.v[i];

		err = ref_again(s, sym->ret.type, &sym->ret.type_ref, err);
		for (k = 0; k < sym->nr_args; k++)
			err = ref_again(s, sym->args[k].type,
					&sym->args[k].type_ref, err);
	}
	return err;
}

/*
 * The syscall ABIs, once the records are in order: those of the records
 * when none are listed, else the list sorted and holding each record's.
 */
static int sort_syscall_abis(struct snapshot *s, const char *origin)
{
	const struct syscall *v = s->syscalls.v;
	char q[256];
	size_t i, dup;
	int err = 0;

	if (s->nr_syscall_abis && !s->syscalls.collected) {
		pr_err("%s: syscall_abis without a syscalls part", origin);
		return -EINVAL;
	}
	if (!s->nr_syscall_abis)
		for (i = 0; !err && i < s->syscalls.nr; i++)
			if (v[i].abi && (!i || strcmp_null(v[i - 1].abi, v[i].abi)))
				err = snapshot__add_syscall_abi(s, v[i].abi);
	if (err)
		return err;
	dup = sort_unique(s->syscall_abis, s->nr_syscall_abis,
			  sizeof(*s->syscall_abis), string_cmp);
	if (dup < s->nr_syscall_abis) {
		pr_err("%s: duplicate syscall ABI %s", origin,
		       quote_buf(q, sizeof(q), s->syscall_abis[dup]));
		return -EEXIST;
	}
	for (i = 0; i < s->syscalls.nr; i++) {
		if (v[i].abi && !snapshot__has_syscall_abi(s, v[i].abi)) {
			pr_err("%s: syscall %s number %u: syscall_abis does not list its ABI",
			       origin, quote_buf(q, sizeof(q), v[i].abi), v[i].nr);
			return -EINVAL;
		}
	}
	return 0;
}

int snapshot__sort(struct snapshot *s, const char *origin)
{
	char q[256], q_image[64];
	size_t dup;
	int err = -EEXIST;

	dup = SORT_UNIQUE(syscalls, syscall_cmp);
	if (dup < s->syscalls.nr) {
		pr_err("%s: duplicate syscall %s number %u", origin,
		       quote_buf(q, sizeof(q), s->syscalls.v[dup].abi),
		       s->syscalls.v[dup].nr);
		goto out;
	}
	err = sort_syscall_abis(s, origin);
	if (err)
		goto out;
	err = -EEXIST;
	dup = SORT_UNIQUE(vdso, vdso_symbol_cmp);
	if (dup < s->vdso.nr) {
		pr_err("%s: duplicate vDSO symbol %s in image %s", origin,
		       quote_buf(q, sizeof(q), s->vdso.v[dup].name),
		       quote_buf(q_image, sizeof(q_image), s->vdso.v[dup].image));
		goto out;
	}
	dup = SORT_UNIQUE(types, type_cmp);
	if (dup < s->types.nr) {
		pr_err("%s: duplicate type %s", origin,
		       quote_buf(q, sizeof(q), s->types.v[dup].name));
		goto out;
	}
	dup = SORT_UNIQUE(sysfs, sysfs_node_cmp);
	if (dup < s->sysfs.nr) {
		pr_err("%s: duplicate sysfs path %s", origin,
		       quote_buf(q, sizeof(q), s->sysfs.v[dup].path));
		goto out;
	}
	dup = SORT_UNIQUE(docs, doc_entry_cmp);
	if (dup < s->docs.nr) {
		pr_err("%s: duplicate doc entry %s line %u", origin,
		       quote_buf(q, sizeof(q), s->docs.v[dup].file),
		       s->docs.v[dup].line);
		goto out;
	}
	dup = SORT_UNIQUE(census, census_attr__cmp);
	if (dup < s->census.nr) {
		pr_err("%s: duplicate census attribute %s of %s", origin,
		       quote_buf(q, sizeof(q), s->census.v[dup].symbol),
		       quote_buf(q_image, sizeof(q_image), s->census.v[dup].module));
		goto out;
	}
	dup = sort_unique(s->census_modules, s->nr_census_modules,
			  sizeof(*s->census_modules), string_cmp);
	if (dup < s->nr_census_modules) {
		pr_err("%s: duplicate census module %s", origin,
		       quote_buf(q, sizeof(q), s->census_modules[dup]));
		goto out;
	}
	err = 0;
out:
	return resolve_refs(s, err);
}
