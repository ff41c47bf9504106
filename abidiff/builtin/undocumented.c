// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff undocumented (--docs DIR | --docs-git REPO@REV) [--level] [--json]
 *                       (--sysfs-dir DIR | SNAPSHOT)
 *
 * Which sysfs attributes no Documentation/ABI entry documents, and the
 * coverage per top-level directory; or, with --level, the level of each
 * documented one and, per level, the entries the tree and the snapshot's
 * census observe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/collect-options.h"
#include "cli/observed.h"
#include "cli/options.h"
#include "cli/output.h"
#include "collectors/sysfs/sysfs-dir.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "match/docmatch.h"
#include "match/observed.h"
#include "model/jstr.h"
#include "model/snapshot-json.h"
#include "pipeline/collect.h"

static const char undocumented_usage[] =
	"Usage: kabidiff undocumented (--docs DIR | --docs-git REPO@REV)\n"
	"                             [--level] [--json] [-o FILE]\n"
	"                             (--sysfs-dir DIR | SNAPSHOT)\n\n"
	"List the sysfs and /proc/sys files that no Documentation/ABI entry or\n"
	"sysctl document of the kernel tree DIR documents, through their real\n"
	"path or any alias path through links, then the coverage per\n"
	"top-level directory.\n\n"
	"  --docs DIR        a kernel tree or its Documentation/ABI\n"
	"  --docs-git REPO@REV  or the Documentation/ABI of revision REV of the\n"
	"                    git repository REPO, read without a checkout\n"
	"  --sysfs-dir DIR   walk DIR (a live /sys or a copy) as /sys\n"
	"  SNAPSHOT          or take the sysfs part of a snapshot\n"
	"  --level           list each documented attribute with its level and\n"
	"                    entry instead, then the entries observed per level:\n"
	"                    by the tree, by SNAPSHOT's census, both, neither\n"
	"  -j, --json        print JSON\n"
	OUTPUT_HELP;

/* One line of the coverage table. */
struct dir_coverage {
	const char *path;	/* borrowed; only len bytes */
	size_t len;
	size_t nodes;
	size_t documented;
};

struct undocumented {
	const struct snapshot *tree;
	const struct snapshot *docs;
	int32_t *entry;		/* per node: documenting entry or -1 */
	struct dir_coverage *dirs;
	size_t nr_dirs;
	struct dir_coverage total;
	struct doc_observed observed;	/* --level only */
};

/* What the listing and the coverage count: attributes, as get_abi.pl does. */
static bool is_attribute(const struct sysfs_node *n)
{
	return n->kind == NODE_FILE;
}

/* "/sys/class/net/eth0/mtu" -> "/sys/class" */
static size_t top_dir_len(const char *path)
{
	const char *p = path;
	int slashes = 0;

	if (!strncmp(path, "/proc/sys/", 10))
		slashes = -1;
	for (; *p; p++)
		if (*p == '/' && ++slashes == 3)
			break;
	return p - path;
}

static int count_coverage(struct undocumented *u)
{
	const struct snapshot *t = u->tree;
	size_t i;

	u->dirs = calloc(t->sysfs.nr + 1, sizeof(*u->dirs));
	if (!u->dirs)
		return -ENOMEM;
	for (i = 0; i < t->sysfs.nr; i++) {
		const char *path = t->sysfs.v[i].path;
		size_t len = top_dir_len(path);
		struct dir_coverage *d = u->nr_dirs ? &u->dirs[u->nr_dirs - 1] : NULL;

		if (!is_attribute(&t->sysfs.v[i]))
			continue;
		/* sorted by path, so a directory's attributes are one run */
		if (!d || d->len != len || memcmp(d->path, path, len)) {
			d = &u->dirs[u->nr_dirs++];
			d->path = path;
			d->len = len;
		}
		d->nodes++;
		d->documented += u->entry[i] >= 0;
		u->total.nodes++;
		u->total.documented += u->entry[i] >= 0;
	}
	return 0;
}

static double percent(const struct dir_coverage *d)
{
	return d->nodes ? 100.0 * d->documented / d->nodes : 0.0;
}

static void show_coverage_row(const struct dir_coverage *d, const char *name)
{
	printf("%8zu %10zu %6.1f  ", d->nodes, d->documented, percent(d));
	fputs_quoted(name, stdout);
	putchar('\n');
}

static void show_undocumented_text(const struct undocumented *u)
{
	const struct snapshot *t = u->tree;
	size_t i;

	for (i = 0; i < t->sysfs.nr; i++) {
		if (!is_attribute(&t->sysfs.v[i]) || u->entry[i] >= 0)
			continue;
		fputs_quoted(t->sysfs.v[i].path, stdout);
		putchar('\n');
	}
	printf("\n%8s %10s %6s  %s\n", "nodes", "documented", "%", "directory");
	for (i = 0; i < u->nr_dirs; i++) {
		char *name = strndup(u->dirs[i].path, u->dirs[i].len);

		show_coverage_row(&u->dirs[i], name ? name : "?");
		free(name);
	}
	show_coverage_row(&u->total, "total");
}

static void show_levels_text(const struct undocumented *u)
{
	const struct snapshot *t = u->tree;
	size_t i;

	for (i = 0; i < t->sysfs.nr; i++) {
		const struct doc_entry *d;

		if (!is_attribute(&t->sysfs.v[i]) || u->entry[i] < 0)
			continue;
		d = &u->docs->docs.v[u->entry[i]];
		printf("%-9s ", abi_level__name(d->level));
		fputs_quoted(t->sysfs.v[i].path, stdout);
		printf("  %s%s#%u\n", doc_entry__dir(d), d->file, d->line);
	}
	putchar('\n');
	show_observed_text(&u->observed);
}

/* One coverage row; the total (@name NULL) names no directory. */
static json_t *coverage_json(const struct dir_coverage *d, const char *name)
{
	if (!name)
		return json_pack("{s:I, s:I}", "nodes", (json_int_t)d->nodes,
				 "documented", (json_int_t)d->documented);
	return json_pack("{s:o, s:I, s:I}", "directory", jstr__new(name),
			 "nodes", (json_int_t)d->nodes,
			 "documented", (json_int_t)d->documented);
}

/* The keys of the counts of --level's "observed", as printed. */
static const struct {
	enum observed_by by;
	const char *key;
} observed_keys[] = {
	{ OBSERVED_LIVE, "live_only" },
	{ OBSERVED_CENSUS, "census_only" },
	{ OBSERVED_BOTH, "both" },
	{ OBSERVED_NEITHER, "neither" },
};

/* One level's counts (@level NULL: the total), null where not known. */
static json_t *observed_row_json(const struct doc_observed *o,
				 const struct observed_counts *c,
				 const char *level)
{
	json_t *row = json_object();
	size_t i;
	int err = !row ||
		  (level && json_object_set_new(row, "level", json_string(level))) ||
		  json_object_set_new(row, "entries", json_integer(c->entries));

	for (i = 0; !err && i < ARRAY_SIZE(observed_keys); i++) {
		enum observed_by by = observed_keys[i].by;

		err = json_object_set_new(row, observed_keys[i].key,
					  doc_observed__known(o, by) ?
					  json_integer(c->by[by]) : json_null());
	}
	if (!err)
		return row;
	json_decref(row);
	return NULL;
}

/* The sources there were, a row per level with entries, the total. */
static json_t *observed_json(const struct doc_observed *o)
{
	json_t *levels = json_array();
	size_t i;
	int err = !levels;

	for (i = 0; !err && i < LEVEL_COUNT; i++)
		if (o->level[i].entries)
			err = json_array_append_new(levels,
						    observed_row_json(o, &o->level[i],
								      abi_level__name(i)));
	if (!err)
		return json_pack("{s:b, s:b, s:o, s:o}", "live", o->live,
				 "census", o->census, "levels", levels,
				 "total", observed_row_json(o, &o->total, NULL));
	json_decref(levels);
	return NULL;
}

/*
 * The JSON form of both views: nodes with their entry, then coverage;
 * with --level, the entries observed.
 */
static json_t *build_json(const struct undocumented *u, bool levels)
{
	const struct snapshot *t = u->tree;
	json_t *nodes = json_array(), *cov = json_array(), *root;
	size_t i;
	int err = !nodes || !cov;

	for (i = 0; !err && i < t->sysfs.nr; i++) {
		const struct doc_entry *d;
		json_t *n;

		if (!is_attribute(&t->sysfs.v[i]) || (u->entry[i] >= 0) != levels)
			continue;
		if (!levels) {
			err = json_array_append_new(nodes, jstr__new(t->sysfs.v[i].path));
			continue;
		}
		d = &u->docs->docs.v[u->entry[i]];
		n = json_pack("{s:o, s:s, s:o, s:i}",
			      "path", jstr__new(t->sysfs.v[i].path),
			      "level", abi_level__name(d->level),
			      "file", jstr__new(d->file), "line", d->line);
		err = json_array_append_new(nodes, n);
	}
	for (i = 0; !err && i < u->nr_dirs; i++) {
		char *name = strndup(u->dirs[i].path, u->dirs[i].len);

		err = !name || json_array_append_new(cov, coverage_json(&u->dirs[i], name));
		free(name);
	}
	if (err) {
		json_decref(nodes);
		json_decref(cov);
		return NULL;
	}
	root = json_pack("{s:o, s:o, s:o}",
			 levels ? "documented" : "undocumented", nodes,
			 "coverage", cov, "total", coverage_json(&u->total, NULL));
	if (root && levels &&
	    json_object_set_new(root, "observed", observed_json(&u->observed))) {
		json_decref(root);
		return NULL;
	}
	return root;
}

static int show_json(const struct undocumented *u, bool levels)
{
	json_t *root = build_json(u, levels);
	int err = !root || json_dumpf(root, stdout, JSON_INDENT(2)) ||
		  putchar('\n') == EOF;

	json_decref(root);
	return err ? -EIO : 0;
}

/* The tree to check: a walked directory or a snapshot's sysfs part. */
static struct snapshot *load_tree(const char *sysfs_dir, const char *file)
{
	struct snapshot *s;

	if (file)
		s = snapshot__load(file);
	else
		s = snapshot__new();
	if (!s)
		return NULL;
	if (sysfs_dir && (sysfs_dir__collect(sysfs_dir, "/sys", false, s) ||
			  snapshot__sort(s, sysfs_dir))) {
		snapshot__free(s);
		return NULL;
	}
	if (!s->sysfs.collected) {
		pr_err("%s: the snapshot has no sysfs part", file);
		snapshot__free(s);
		return NULL;
	}
	return s;
}

/* The documentation: a directory, or REPO@REV when @repo is set. */
struct docs_source {
	const char *dir;
	const char *spec;
	char *repo;
	const char *rev;
};

static int run(const struct docs_source *ds, const char *sysfs_dir,
	       const char *file, bool levels)
{
	struct undocumented u = { 0 };
	struct snapshot *docs, *tree = NULL;
	int err;

	kabi_print_upto(KABI_ERROR);
	docs = load_docs_snapshot(ds->dir, ds->repo, ds->rev,
				  ds->repo ? ds->spec : ds->dir);
	err = docs ? 0 : -EINVAL;
	if (!err) {
		tree = load_tree(sysfs_dir, file);
		err = tree ? 0 : -EINVAL;
	}
	u.tree = tree;
	u.docs = docs;
	if (!err) {
		u.entry = calloc(tree->sysfs.nr + 1, sizeof(*u.entry));
		err = u.entry ? docmatch__run(tree, docs, u.entry) : -ENOMEM;
	}
	if (!err)
		err = count_coverage(&u);
	if (!err && levels)
		err = doc_observed__run(&u.observed, docs, tree, u.entry);
	if (!err && json_output)
		err = show_json(&u, levels);
	else if (!err && levels)
		show_levels_text(&u);
	else if (!err)
		show_undocumented_text(&u);
	if (err == -ENOMEM)
		pr_err("out of memory");
	free(u.entry);
	free(u.dirs);
	snapshot__free(tree);
	snapshot__free(docs);
	return err ? EXIT_TROUBLE : EXIT_OK;
}

int do_undocumented(int argc, char **argv)
{
	struct docs_source ds = { 0 };
	const char *sysfs_dir = NULL;
	bool levels = false;
	const struct cli_option options[] = {
		OPT_STRING(0, "docs", &ds.dir),
		OPT_STRING(0, "docs-git", &ds.spec),
		OPT_STRING(0, "sysfs-dir", &sysfs_dir),
		OPT_BOOL(0, "level", &levels),
		OPT_JSON(),
		OPT_OUTPUT(),
		OPT_END(),
	};
	int first, ret;

	first = parse_options("undocumented", argc, argv, options,
			      undocumented_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (!ds.dir == !ds.spec)
		return usage_error("undocumented",
				   "undocumented needs either --docs DIR or --docs-git REPO@REV");
	if (!!sysfs_dir + (argc - first) != 1)
		return usage_error("undocumented",
				   "undocumented needs either --sysfs-dir DIR or one SNAPSHOT");
	if (ds.spec &&
	    parse_repo_rev("undocumented", ds.spec, &ds.repo, &ds.rev))
		return EXIT_TROUBLE;
	ret = run(&ds, sysfs_dir, sysfs_dir ? NULL : argv[first], levels);
	free(ds.repo);
	return ret;
}
