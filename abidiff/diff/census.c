// SPDX-License-Identifier: GPL-2.0-only
/*
 * The census part: the attributes OLD's code defines that NEW's does not,
 * or that lost a permission bit.
 *
 * An attribute is itself in NEW when NEW has one of the same module, group
 * and name, a module parameter one of the same path (whatever defines it:
 * a hwmon driver converted from SENSOR_DEVICE_ATTR tables to
 * hwmon_device_register_with_info() keeps its names, decoded from its
 * hwmon_chip_info), or one at the same path
 * (from a driver into the core code of its bus), or one of vmlinux's of
 * the same group and name (a driver's attribute that the core now makes
 * for every device).  Its mode is compared only when no is_visible decides
 * it on either side.
 *
 * A module gone is one change, not one per attribute; one whose source
 * files vmlinux has now is built in, not gone.  Removals are judged
 * by the entry OLD's docs join them to (census_join__run()); those that
 * join none come one change per module and group, naming them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "match/census-join.h"
#include "parts.h"

#define PERMISSION_BITS	0666

struct census_side {
	const struct snapshot *s;
	uint32_t *by_key;	/* indices, by (module, group, name) */
	uint32_t *by_path;	/* indices of those with a path, by path */
	size_t nr_paths;
};

static int key_cmp(const struct census_attr *a, const struct census_attr *b)
{
	int c = strcmp(a->module, b->module);

	/*
	 * A parameter "direct" is no file "direct" (speakup's synths), and
	 * vmlinux's parameters of one name are many ("zswap.enabled"): a
	 * parameter is its path.
	 */
	if (!c)
		c = (a->kind == CENSUS_PARAM) - (b->kind == CENSUS_PARAM);
	if (!c && a->kind == CENSUS_PARAM)
		return strcmp_null(a->path, b->path);
	if (!c)
		c = strcmp_null(a->group, b->group);
	return c ? c : strcmp(a->name, b->name);
}

static int by_key_cmp(const void *pa, const void *pb, void *base)
{
	const struct census_attr *v = base;
	int c = key_cmp(&v[*(const uint32_t *)pa], &v[*(const uint32_t *)pb]);

	return c ? c : (*(const uint32_t *)pa > *(const uint32_t *)pb) -
		       (*(const uint32_t *)pa < *(const uint32_t *)pb);
}

static int by_path_cmp(const void *pa, const void *pb, void *base)
{
	const struct census_attr *v = base;

	return strcmp(v[*(const uint32_t *)pa].path, v[*(const uint32_t *)pb].path);
}

static int index_side(struct census_side *cs, const struct snapshot *s)
{
	size_t i;

	cs->s = s;
	cs->by_key = malloc((s->census.nr + 1) * sizeof(*cs->by_key));
	cs->by_path = malloc((s->census.nr + 1) * sizeof(*cs->by_path));
	if (!cs->by_key || !cs->by_path)
		return -ENOMEM;
	for (i = 0; i < s->census.nr; i++) {
		cs->by_key[i] = i;
		if (s->census.v[i].path)
			cs->by_path[cs->nr_paths++] = i;
	}
	qsort_r(cs->by_key, s->census.nr, sizeof(*cs->by_key), by_key_cmp,
		s->census.v);
	qsort_r(cs->by_path, cs->nr_paths, sizeof(*cs->by_path), by_path_cmp,
		s->census.v);
	return 0;
}

static void release_side(struct census_side *cs)
{
	free(cs->by_key);
	free(cs->by_path);
}

/* The first attribute of @cs with @a's key, else -1. */
static long find_key(const struct census_side *cs, const struct census_attr *a)
{
	size_t lo = 0, hi = cs->s->census.nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&cs->s->census.v[cs->by_key[mid]], a) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cs->s->census.nr && !key_cmp(&cs->s->census.v[cs->by_key[lo]], a))
		return cs->by_key[lo];
	return -1;
}

static bool has_path(const struct census_side *cs, const char *path)
{
	size_t lo = 0, hi = cs->nr_paths;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(cs->s->census.v[cs->by_path[mid]].path, path);

		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_module(const struct snapshot *s, const char *module)
{
	return bsearch(&module, s->census_modules, s->nr_census_modules,
		       sizeof(*s->census_modules), name_cmp) != NULL;
}

/* What counterpart() found of an attribute that is at its path in NEW. */
#define AT_PATH		(-2)

/*
 * @a's attribute in NEW, as the top of the file says: its index, AT_PATH
 * when only an attribute of another module or group has its path (whose
 * mode is not comparable), or -1: none.
 */
static long counterpart(const struct census_side *new, const struct census_attr *a)
{
	struct census_attr core = *a;
	long j = find_key(new, a);

	if (j < 0 && a->path && has_path(new, a->path))
		return AT_PATH;
	if (j >= 0)
		return j;
	core.module = (char *)"vmlinux";
	return find_key(new, &core);
}

/* The path of @a where the code gives it, else "it87: in0_alarm". */
static int subject_of(const struct census_attr *a, char **out)
{
	if (a->path)
		return (*out = strdup(a->path)) ? 0 : -ENOMEM;
	if (asprintf(out, "%s: %s%s%s", a->module, a->group ? a->group : "",
		     a->group ? "/" : "", a->name) < 0)
		return -ENOMEM;
	return 0;
}

static int describe(const struct census_attr *a, char *buf, size_t size)
{
	return snprintf(buf, size, "%s %04o (%s %s)", census_kind__name(a->kind),
			a->mode, a->file ? a->file : a->module, a->symbol);
}

struct census_diff {
	const struct snapshot *old;
	struct census_side new;
	const int32_t *entry;	/* OLD's joins, or NULL */
	struct diff *d;
	/* undocumented removals of one module and group, named together */
	const char **names;
	size_t nr_names;
	long first;
};

static const struct doc_entry *doc_of(const struct census_diff *cd, size_t i)
{
	return cd->entry && cd->entry[i] >= 0 ? &cd->old->docs.v[cd->entry[i]] : NULL;
}

/* The length of the folder of a parameter's path ("/sys/module/kvm/parameters"), else 0. */
static int param_folder(const struct census_attr *a)
{
	const char *slash;

	if (a->kind != CENSUS_PARAM || !a->path)
		return 0;
	slash = strrchr(a->path, '/');
	return slash ? slash - a->path : 0;
}

/* Whether the removals of @a and @b are named together: one module and group or folder. */
static bool named_together(const struct census_attr *a, const struct census_attr *b)
{
	int n = param_folder(a);

	return !strcmp(a->module, b->module) && !strcmp_null(a->group, b->group) &&
	       n == param_folder(b) && !strncmp(a->path ? a->path : "",
						b->path ? b->path : "", n);
}

static int flush_undocumented(struct census_diff *cd)
{
	const struct census_attr *a;
	char *subject, desc[64];
	int err, folder;

	if (!cd->nr_names)
		return 0;
	a = &cd->old->census.v[cd->first];
	folder = param_folder(a);
	/*
	 * "/sys/module/kvm/parameters/", "it87: ", or in a group
	 * "it87: GROUP/", and a star: the instances fill it
	 */
	if (folder)
		err = asprintf(&subject, "%.*s/*", folder, a->path);
	else
		err = asprintf(&subject, "%s: %s%s*", a->module,
			       a->group ? a->group : "", a->group ? "/" : "");
	if (err < 0)
		return -ENOMEM;
	snprintf(desc, sizeof(desc), "%zu attribute%s", cd->nr_names,
		 cd->nr_names == 1 ? "" : "s");
	err = diff_add_instances(cd->d, CHANGE_ATTR_REMOVED, subject, desc, NULL,
				 cd->first, -1, cd->names, cd->nr_names);
	free(subject);
	cd->nr_names = 0;
	return err;
}

static int removed(struct census_diff *cd, size_t i)
{
	const struct census_attr *a = &cd->old->census.v[i];
	char *subject, desc[512];
	const char **name;
	int err;

	if (!doc_of(cd, i)) {
		if (cd->nr_names) {
			const struct census_attr *f = &cd->old->census.v[cd->first];

			if (!named_together(f, a)) {
				err = flush_undocumented(cd);
				if (err)
					return err;
			}
		}
		if (!cd->nr_names)
			cd->first = i;
		name = ARRAY_APPEND_ITEM(cd->names, cd->nr_names);
		if (!name)
			return -ENOMEM;
		*name = a->name;
		return 0;
	}
	err = subject_of(a, &subject);
	if (err)
		return err;
	describe(a, desc, sizeof(desc));
	err = diff_add(cd->d, CHANGE_ATTR_REMOVED, subject, desc, NULL, i, -1);
	free(subject);
	return err;
}

static int mode_lost(struct census_diff *cd, size_t i, long j)
{
	const struct census_attr *a = &cd->old->census.v[i];
	const struct census_attr *b = &cd->new.s->census.v[j];
	char *subject, was[8], now[8];
	int err;

	if (a->mode_at_run_time || b->mode_at_run_time ||
	    !(a->mode & ~b->mode & PERMISSION_BITS))
		return 0;
	err = subject_of(a, &subject);
	if (err)
		return err;
	snprintf(was, sizeof(was), "%04o", a->mode);
	snprintf(now, sizeof(now), "%04o", b->mode);
	err = diff_add(cd->d, CHANGE_ATTR_MODE_LOST, subject, was, now, i, j);
	free(subject);
	return err;
}

/* One change for the module of OLD's attributes @from to @to, judged by the most stable. */
static int module_removed(struct census_diff *cd, const uint32_t *by_key,
			  size_t from, size_t to)
{
	size_t k, best = by_key[from];
	char desc[64];

	for (k = from; k < to; k++) {
		const struct doc_entry *d = doc_of(cd, by_key[k]), *b = doc_of(cd, best);

		if (d && (!b || d->level < b->level))
			best = by_key[k];
	}
	snprintf(desc, sizeof(desc), "%zu attribute%s", to - from,
		 to - from == 1 ? "" : "s");
	return diff_add(cd->d, CHANGE_MODULE_REMOVED, cd->old->census.v[best].module,
			desc, NULL, best, -1);
}

/* Whether NEW's vmlinux defines attributes in the source file @file. */
static bool in_vmlinux(const struct snapshot *new, const char *file)
{
	size_t i;

	for (i = 0; file && i < new->census.nr; i++)
		if (!strcmp(new->census.v[i].module, "vmlinux") &&
		    !strcmp_null(new->census.v[i].file, file))
			return true;
	return false;
}

/*
 * Whether a module NEW lacks, of OLD's attributes @from to @to, is gone:
 * not when vmlinux defines attributes in one of its source files, for it
 * is built in now (virtio in 6.12), and its attributes are compared one
 * by one.
 */
static bool module_gone(struct census_diff *cd, const uint32_t *by_key,
			size_t from, size_t to)
{
	size_t k;

	for (k = from; k < to; k++)
		if (in_vmlinux(cd->new.s, cd->old->census.v[by_key[k]].file))
			return false;
	return true;
}

/* OLD's attributes @from to @to, of one module, against NEW's. */
static int compare_attributes(struct census_diff *cd, const struct census_side *old,
			      size_t from, size_t to)
{
	const struct census_attr *v = cd->old->census.v;
	size_t i, end;
	int err = 0;

	for (i = from; !err && i < to; i = end) {
		const struct census_attr *a = &v[old->by_key[i]];
		long j;

		/* the same attribute in several units: one */
		for (end = i + 1; end < to && !key_cmp(&v[old->by_key[end]], a); end++)
			;
		j = counterpart(&cd->new, a);
		if (j == -1)
			err = removed(cd, old->by_key[i]);
		else if (j >= 0)
			err = mode_lost(cd, old->by_key[i], j);
	}
	return err;
}

static int compare(struct census_diff *cd, const struct census_side *old)
{
	const struct census_attr *v = cd->old->census.v;
	size_t i, end, nr = cd->old->census.nr;
	int err = 0;

	for (i = 0; !err && i < nr; i = end) {
		const char *module = v[old->by_key[i]].module;

		for (end = i; end < nr && !strcmp(v[old->by_key[end]].module, module); end++)
			;
		if (!has_module(cd->new.s, module) && module_gone(cd, old->by_key, i, end))
			err = module_removed(cd, old->by_key, i, end);
		else
			err = compare_attributes(cd, old, i, end);
	}
	return err ? err : flush_undocumented(cd);
}

int diff_census(const struct snapshot *old, const struct snapshot *new,
		int32_t **old_entry, struct diff *d)
{
	struct census_diff cd = { .old = old, .d = d };
	struct census_side o = { 0 };
	int32_t *entry = NULL;
	int err = 0;

	if (old->docs.collected) {
		entry = malloc((old->census.nr + 1) * sizeof(*entry));
		err = entry ? census_join__run(old, old, entry) : -ENOMEM;
	}
	cd.entry = entry;
	if (!err)
		err = index_side(&o, old);
	if (!err)
		err = index_side(&cd.new, new);
	if (!err)
		err = compare(&cd, &o);
	release_side(&o);
	release_side(&cd.new);
	free(cd.names);
	if (!err) {
		*old_entry = entry;
		entry = NULL;
	}
	free(entry);
	return err;
}
