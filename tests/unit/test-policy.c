// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for policy/policy.c: the level a change is judged at.
 * debugfs is not ABI: a change under /sys/kernel/debug is judged
 * unstable at most, whatever level documents it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/policy.h"

/* A diff of two snapshots, judged by the default policy. */
struct judged {
	struct snapshot *old, *new;
	struct diff d;
	struct judgement j;
};

/*
 * OLD documents @what at @level and has the file @path; NEW has neither
 * (its docs not collected, so only the node's removal is a change).
 */
static void judge_removal(const char *what, enum abi_level level,
			  const char *path, struct judged *t)
{
	struct sysfs_node *n;
	struct doc_entry *e;
	struct policy p;

	memset(t, 0, sizeof(*t));
	t->old = snapshot__new();
	t->new = snapshot__new();
	t->old->sysfs.collected = t->new->sysfs.collected = true;
	t->old->docs.collected = true;
	e = snapshot__add_doc(t->old);
	e->level = level;
	e->file = strdup("stable/sysfs-test");
	e->line = 1;
	assert_int_equal(doc_entry__add_what(e, what), 0);
	n = snapshot__add_sysfs_node(t->old);
	n->path = strdup(path);
	n->kind = NODE_FILE;
	n->mode = 0444;
	assert_int_equal(snapshot__sort(t->old, "old"), 0);
	assert_int_equal(snapshot__sort(t->new, "new"), 0);
	assert_int_equal(diff__run(t->old, t->new, &t->d), 0);
	assert_int_equal(t->d.nr, 1);
	assert_int_equal(t->d.v[0].kind, CHANGE_NODE_REMOVED);
	policy__init(&p);
	assert_int_equal(policy__judge(&p, NULL, t->old, t->new, &t->d, &t->j), 0);
	policy__release(&p);
	assert_int_equal(t->j.nr, 1);
}

static void release(struct judged *t)
{
	judgement__release(&t->j);
	diff__release(&t->d);
	snapshot__free(t->old);
	snapshot__free(t->new);
}

static void test_debugfs_is_unstable_at_most(void **state)
{
	struct judged t;

	(void)state;
	judge_removal("/sys/kernel/debug/kabi/value", LEVEL_STABLE,
		      "/sys/kernel/debug/kabi/value", &t);
	assert_int_equal(t.j.v[0].level, LEVEL_UNSTABLE);
	assert_int_equal(t.j.v[0].verdict, VERDICT_NOTE);
	assert_non_null(t.j.v[0].cap);
	release(&t);
}

/* The cap is debugfs's alone: the same removal elsewhere breaks. */
static void test_outside_debugfs_keeps_its_level(void **state)
{
	struct judged t;

	(void)state;
	judge_removal("/sys/kernel/kabi/value", LEVEL_STABLE,
		      "/sys/kernel/kabi/value", &t);
	assert_int_equal(t.j.v[0].level, LEVEL_STABLE);
	assert_int_equal(t.j.v[0].verdict, VERDICT_BREAK);
	assert_null(t.j.v[0].cap);
	release(&t);
	/* nor is "/sys/kernel/debugfoo" under debugfs */
	judge_removal("/sys/kernel/debugfoo", LEVEL_TESTING,
		      "/sys/kernel/debugfoo", &t);
	assert_int_equal(t.j.v[0].level, LEVEL_TESTING);
	assert_int_equal(t.j.v[0].verdict, VERDICT_BREAK);
	release(&t);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debugfs_is_unstable_at_most),
		cmocka_unit_test(test_outside_debugfs_keeps_its_level),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
