// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for observed.c: the doc entries each source observes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match/observed.h"

static void node(struct snapshot *s, const char *path, enum node_kind kind)
{
	struct sysfs_node *n = snapshot__add_sysfs_node(s);

	n->path = strdup(path);
	n->kind = kind;
}

static void attr(struct snapshot *s, const char *name, const char *path)
{
	struct census_attr *a = snapshot__add_census_attr(s);

	a->module = strdup("vmlinux");
	a->symbol = strdup(name);
	a->name = strdup(name);
	a->kind = CENSUS_KOBJ;
	a->path = path ? strdup(path) : NULL;
}

static void doc(struct snapshot *s, enum abi_level level, const char *what)
{
	struct doc_entry *d = snapshot__add_doc(s);

	d->level = level;
	d->file = strdup("sysfs-test");
	d->line = s->docs.nr;
	assert_int_equal(doc_entry__add_what(d, what), 0);
}

static void assert_counts(const struct observed_counts *c, size_t entries,
			  size_t live, size_t census, size_t both, size_t neither)
{
	assert_int_equal(c->entries, entries);
	assert_int_equal(c->by[OBSERVED_LIVE], live);
	assert_int_equal(c->by[OBSERVED_CENSUS], census);
	assert_int_equal(c->by[OBSERVED_BOTH], both);
	assert_int_equal(c->by[OBSERVED_NEITHER], neither);
}

/*
 * Entries 0 (stable) to 4 (obsolete); the joins made: a file and an
 * attribute for 0, two attributes for 1, a file for 2, nothing for 3, a
 * directory only for 4.
 */
static struct snapshot *docs(void)
{
	struct snapshot *d = snapshot__new();

	doc(d, LEVEL_STABLE, "/sys/kernel/a");
	doc(d, LEVEL_STABLE, "/sys/kernel/b");
	doc(d, LEVEL_TESTING, "/sys/kernel/c");
	doc(d, LEVEL_TESTING, "/sys/kernel/d");
	doc(d, LEVEL_OBSOLETE, "/sys/kernel/e");
	return d;
}

static struct snapshot *tree(void)
{
	struct snapshot *t = snapshot__new();

	node(t, "/sys/kernel/a", NODE_FILE);
	node(t, "/sys/kernel/c", NODE_FILE);
	node(t, "/sys/kernel/e", NODE_DIR);
	node(t, "/sys/kernel/x", NODE_FILE);
	attr(t, "a", NULL);
	attr(t, "b", NULL);
	attr(t, "b", NULL);
	attr(t, "y", NULL);
	return t;
}

static const int32_t node_entry[] = { 0, 2, 4, -1 };
static const int32_t attr_entry[] = { 0, 1, 1, -1 };

static void test_count(void **state)
{
	struct snapshot *d = docs(), *t = tree();
	struct doc_observed o;

	(void)state;
	assert_int_equal(doc_observed__count(&o, d, t, node_entry, attr_entry), 0);
	assert_true(o.live && o.census);
	assert_counts(&o.level[LEVEL_STABLE], 2, 0, 1, 1, 0);
	assert_counts(&o.level[LEVEL_TESTING], 2, 1, 0, 0, 1);
	/* a directory is no attribute: the census could not see it either */
	assert_counts(&o.level[LEVEL_OBSOLETE], 1, 0, 0, 0, 1);
	assert_counts(&o.level[LEVEL_REMOVED], 0, 0, 0, 0, 0);
	assert_counts(&o.total, 5, 1, 1, 1, 2);
	assert_int_equal(doc_observed__seen(&o.total), 3);
	assert_int_equal(doc_observed__seen(&o.level[LEVEL_STABLE]), 2);
	assert_true(doc_observed__known(&o, OBSERVED_BOTH));
	snapshot__free(t);
	snapshot__free(d);
}

/* A source that is not there: what it would split is not known. */
static void test_missing_source(void **state)
{
	struct snapshot *d = docs(), *t = tree();
	struct doc_observed o;

	(void)state;
	assert_int_equal(doc_observed__count(&o, d, t, NULL, attr_entry), 0);
	assert_true(!o.live && o.census);
	assert_counts(&o.total, 5, 0, 2, 0, 3);
	assert_false(doc_observed__known(&o, OBSERVED_LIVE));
	assert_false(doc_observed__known(&o, OBSERVED_BOTH));
	assert_true(doc_observed__known(&o, OBSERVED_CENSUS));
	assert_true(doc_observed__known(&o, OBSERVED_NEITHER));

	assert_int_equal(doc_observed__count(&o, d, t, node_entry, NULL), 0);
	assert_counts(&o.total, 5, 2, 0, 0, 3);
	assert_true(doc_observed__known(&o, OBSERVED_LIVE));
	assert_false(doc_observed__known(&o, OBSERVED_CENSUS));

	assert_int_equal(doc_observed__count(&o, d, t, NULL, NULL), 0);
	assert_false(doc_observed__known(&o, OBSERVED_NEITHER));
	snapshot__free(t);
	snapshot__free(d);
}

/* doc_observed__run() makes the joins of the parts a snapshot has. */
static void test_run(void **state)
{
	struct snapshot *d = snapshot__new(), *t = snapshot__new();
	struct doc_observed o;

	(void)state;
	doc(d, LEVEL_STABLE, "/sys/kernel/foo");
	doc(d, LEVEL_TESTING, "/sys/kernel/bar");
	doc(d, LEVEL_TESTING, "/sys/kernel/baz");
	doc(d, LEVEL_REMOVED, "/sys/kernel/gone");
	node(t, "/sys", NODE_DIR);
	node(t, "/sys/kernel", NODE_DIR);
	node(t, "/sys/kernel/baz", NODE_FILE);
	node(t, "/sys/kernel/foo", NODE_FILE);
	attr(t, "bar", "/sys/kernel/bar");
	attr(t, "baz", "/sys/kernel/baz");

	assert_int_equal(doc_observed__run(&o, d, t, NULL), 0);
	assert_counts(&o.level[LEVEL_STABLE], 1, 1, 0, 0, 0);
	assert_counts(&o.level[LEVEL_TESTING], 2, 0, 1, 1, 0);
	assert_counts(&o.level[LEVEL_REMOVED], 1, 0, 0, 0, 1);

	/* the caller's node entries are taken as they are */
	assert_int_equal(doc_observed__run(&o, d, t, (const int32_t[]){
		-1, -1, -1, 3 }), 0);
	assert_counts(&o.level[LEVEL_STABLE], 1, 0, 0, 0, 1);
	assert_counts(&o.level[LEVEL_TESTING], 2, 0, 2, 0, 0);
	assert_counts(&o.level[LEVEL_REMOVED], 1, 1, 0, 0, 0);

	/* a sysctl is never a census attribute's, whatever the name */
	doc(d, LEVEL_SYSCTL, "/proc/sys/kernel/bootloader_version");
	d->docs.v[d->docs.nr - 1].source = DOC_SOURCE_SYSCTL;
	attr(t, "bootloader_version", NULL);
	/* a word of the attribute's file that the entry's file has too */
	t->census.v[t->census.nr - 1].file = strdup("drivers/test/bootloader.c");
	assert_int_equal(doc_observed__run(&o, d, t, NULL), 0);
	assert_counts(&o.level[LEVEL_SYSCTL], 1, 0, 0, 0, 1);

	/* a docs-only snapshot: no source */
	assert_int_equal(doc_observed__run(&o, d, d, NULL), 0);
	assert_true(!o.live && !o.census);
	assert_counts(&o.total, 5, 0, 0, 0, 5);
	snapshot__free(t);
	snapshot__free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_missing_source),
		cmocka_unit_test(test_run),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
