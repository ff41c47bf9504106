// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module set of a machine profile.
 *
 * A modules tree has no modules.dep or modules.alias before depmod runs
 * (Debian's packages ship none), but every module's .modinfo has its
 * alias= and depends= lines, and modules.order names every module the
 * build made.  So the set is built from those: each wanted module is found
 * through modules.order (a packaged one compressed, with .xz, .zst or
 * .gz added), its .modinfo read with libkmod (which decompresses it), and
 * its depends= followed until the set is closed.  libkmod gets an empty
 * list of configuration files: the host's /etc/modprobe.d is not the
 * guest's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libkmod.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "modules.h"

/* What the build's own suffix ".ko" may have after it in a package. */
static const char *const compressions[] = { "", ".xz", ".zst", ".gz" };

struct tree {
	const char *dir;
	char *order;		/* modules.order, cut into lines */
	char **lines;		/* its entries: "kernel/drivers/net/virtio_net.ko" */
	size_t nr_lines;
	char *builtin;		/* modules.builtin, or NULL */
	char **builtin_lines;
	size_t nr_builtin_lines;
	struct kmod_ctx *kmod;
};

/* "virtio_net" of "kernel/drivers/net/virtio-net.ko", into @buf. */
static const char *module_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	char *p;

	snprintf(buf, size, "%s", base ? base + 1 : path);
	p = strstr(buf, ".ko");
	if (p)
		*p = '\0';
	for (p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
	return buf;
}

/* The line of modules.order (or modules.builtin) naming module @name. */
static const char *find_line(char *const *lines, size_t nr, const char *name)
{
	char buf[256];
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(module_name(lines[i], buf, sizeof(buf)), name))
			return lines[i];
	return NULL;
}

/* Cut @text into its non-empty lines, in place. */
static int split_lines(char *text, char ***lines, size_t *nr)
{
	char *line;

	while ((line = strsep(&text, "\n"))) {
		char **slot;

		if (!*line)
			continue;
		slot = ARRAY_APPEND_ITEM(*lines, *nr);
		if (!slot)
			return -ENOMEM;
		*slot = line;
	}
	return 0;
}

static int open_tree(struct tree *t, const char *dir)
{
	static const char *const no_config[] = { NULL };
	char path[4096];
	size_t len;
	int err;

	t->dir = dir;
	snprintf(path, sizeof(path), "%s/modules.order", dir);
	err = read_file_or_report(path, SMALL_FILE_MAX, &t->order, &len);
	if (err)
		return err;
	err = split_lines(t->order, &t->lines, &t->nr_lines);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/modules.builtin", dir);
	if (!read_file(path, SMALL_FILE_MAX, &t->builtin, &len))
		err = split_lines(t->builtin, &t->builtin_lines,
				  &t->nr_builtin_lines);
	if (err)
		return err;
	t->kmod = kmod_new(dir, no_config);
	if (!t->kmod) {
		pr_err("%s: libkmod could not start", dir);
		return -ENOMEM;
	}
	kmod_set_log_fn(t->kmod, NULL, NULL);
	return 0;
}

static void close_tree(struct tree *t)
{
	free(t->order);
	free(t->lines);
	free(t->builtin);
	free(t->builtin_lines);
	kmod_unref(t->kmod);
}

/* The file of the modules.order entry @line, as packaged; NULL if none. */
static char *module_file(const struct tree *t, const char *line)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(compressions); i++) {
		char *path = xasprintf("%s/%s%s", t->dir, line, compressions[i]);

		if (!path || !access(path, R_OK))
			return path;
		free(path);
	}
	errno = ENOENT;
	return NULL;
}

/* The names of @list, "a,b-c", into @m's depends. */
static int add_depends(struct kmodule *m, const char *list)
{
	char *copy = strdup(list), *rest = copy, *dep, buf[256];
	int err = copy ? 0 : -ENOMEM;

	while (!err && (dep = strsep(&rest, ",")))
		if (*dep)
			err = strings__append(&m->depends, &m->nr_depends,
					      module_name(dep, buf, sizeof(buf)));
	free(copy);
	return err;
}

/* Copy .modinfo's alias= and depends= of @m->path into @m. */
static int read_modinfo(const struct tree *t, struct kmodule *m)
{
	struct kmod_module *mod = NULL;
	struct kmod_list *info = NULL, *e;
	int err = kmod_module_new_from_path(t->kmod, m->path, &mod);

	if (!err)
		err = kmod_module_get_info(mod, &info) < 0 ? -EINVAL : 0;
	if (err) {
		pr_err("%s: cannot read its .modinfo with libkmod", m->path);
		kmod_module_unref(mod);
		return -EINVAL;
	}
	kmod_list_foreach(e, info) {
		const char *key = kmod_module_info_get_key(e);
		const char *value = kmod_module_info_get_value(e);

		if (!strcmp(key, "alias") && value)
			err = strings__append(&m->aliases, &m->nr_aliases, value);
		else if (!strcmp(key, "depends") && value)
			err = add_depends(m, value);
		if (err)
			break;
	}
	kmod_module_info_free_list(info);
	kmod_module_unref(mod);
	return err;
}

static bool in_set(const struct module_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->v[i].name, name))
			return true;
	return false;
}

/* Add module @name of the tree, wanted by @by (NULL: by the profile). */
static int add_module(struct module_set *set, const struct tree *t,
		      const char *name, const char *by)
{
	const char *line = find_line(t->lines, t->nr_lines, name);
	const char *suffix;
	struct kmodule *m;

	if (!line && by) {
		pr_err("%s: module %s, which %s depends on, is not in modules.order",
		       t->dir, name, by);
		return -ENOENT;
	}
	if (!line) {
		if (!find_line(t->builtin_lines, t->nr_builtin_lines, name))
			pr_warn("%s: no module %s, nor is it built in: the devices it drives stay unbound",
				t->dir, name);
		return 0;
	}
	m = ARRAY_APPEND(set->v, set->nr, set->alloc);
	if (!m)
		return -ENOMEM;
	m->name = strdup(name);
	m->path = module_file(t, line);
	if (!m->name)
		return -ENOMEM;
	if (!m->path) {
		pr_err("%s/%s: %s", t->dir, line, strerror(errno));
		return -errno;
	}
	suffix = strstr(m->path + strlen(t->dir), ".ko");
	m->file = xasprintf("modules/%s%s", name, suffix);
	return m->file ? read_modinfo(t, m) : -ENOMEM;
}

static int kmodule_cmp(const void *pa, const void *pb)
{
	const struct kmodule *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

int module_set__build(struct module_set *set, const char *dir,
		      const char *const *wanted, const struct boot_load *boots)
{
	const struct boot_load *b;
	struct tree t = { 0 };
	size_t i, k;
	int err = open_tree(&t, dir);

	for (; !err && *wanted; wanted++)
		if (!in_set(set, *wanted))
			err = add_module(set, &t, *wanted, NULL);
	for (b = boots; !err && b && b->module; b++)
		if (!in_set(set, b->module))
			err = add_module(set, &t, b->module, NULL);
	set->boots = boots;
	/* the set grows as it is walked: every dependency gets its turn */
	for (i = 0; !err && i < set->nr; i++)
		for (k = 0; !err && k < set->v[i].nr_depends; k++)
			if (!in_set(set, set->v[i].depends[k]))
				err = add_module(set, &t, set->v[i].depends[k],
						 set->v[i].name);
	if (!err)
		qsort(set->v, set->nr, sizeof(*set->v), kmodule_cmp);
	if (err == -ENOMEM)
		pr_err("%s: out of memory", dir);
	close_tree(&t);
	return err;
}

void module_set__release(struct module_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++) {
		free(set->v[i].name);
		free(set->v[i].path);
		free(set->v[i].file);
		strings__free(set->v[i].aliases, set->v[i].nr_aliases);
		strings__free(set->v[i].depends, set->v[i].nr_depends);
	}
	free(set->v);
	memset(set, 0, sizeof(*set));
}

char *module_set__table(const struct module_set *set)
{
	const struct boot_load *b;
	char *text = NULL;
	size_t len, i, k;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; i < set->nr; i++) {
		const struct kmodule *m = &set->v[i];

		fprintf(f, "module %s %s ", m->name, m->file);
		for (k = 0; k < m->nr_depends; k++)
			fprintf(f, "%s%s", k ? "," : "", m->depends[k]);
		fputs(m->nr_depends ? "\n" : "-\n", f);
		for (k = 0; k < m->nr_aliases; k++)
			fprintf(f, "alias %s %s\n", m->aliases[k], m->name);
	}
	for (b = set->boots; b && b->module; b++)
		if (in_set(set, b->module))
			fprintf(f, "boot %s %s\n", b->module, b->params ?: "-");
	if (ferror(f) | fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
