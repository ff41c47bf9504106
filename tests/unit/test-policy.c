// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for policy/policy.c: the level a change is judged at (debugfs
 * is not ABI: a change under /sys/kernel/debug is judged unstable at most,
 * whatever level documents it), and how policy and waiver files are read.
 */
#include <errno.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/compiler.h"
#include "lib/print.h"
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


/* The file the tests load (a memfd's path) and the last message. */
static char path[64];
static char message[512];

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	vsnprintf(message, sizeof(message), fmt, ap);
}

/* Load @text as a policy file into @p, or as a waiver file into @w. */
static int load(const char *text, struct policy *p, struct waivers *w)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	int fd = memfd_create("test-policy", 0);
	int err;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), strlen(text));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	message[0] = '\0';
	if (p) {
		policy__init(p);
		err = policy__load(p, path);
	} else {
		memset(w, 0, sizeof(*w));
		err = waivers__load(w, path);
	}
	close(fd);
	kabi_set_print(old);
	return err;
}

/* The last message, "PATH:" taken off. */
static const char *said(void)
{
	size_t len = strlen(path);

	assert_memory_equal(message, path, len);
	assert_int_equal(message[len], ':');
	return message + len + 1;
}

/* @text is refused as a policy file with @want (after "PATH:"). */
static void policy_refused(const char *text, const char *want)
{
	struct policy p;

	assert_int_equal(load(text, &p, NULL), -EINVAL);
	assert_string_equal(said(), want);
	policy__release(&p);
}

static void waivers_refused(const char *text, const char *want)
{
	struct waivers w;

	assert_int_equal(load(text, NULL, &w), -EINVAL);
	assert_string_equal(said(), want);
	waivers__release(&w);
}

/*
 * A '#' starts a comment only where a field would: a reason keeps its
 * '#' to the end of the line, a quoted one ends at its quote and a
 * comment may follow it.  Trailing blanks and a CR are no part of it.
 */
static void test_reason_keeps_its_hash(void **state)
{
	struct waivers w;

	(void)state;
	assert_int_equal(load("# KIND SUBJECT REASON\n"
			      "\n"
			      "node-removed /sys/x see bug #123  \n"
			      "* \"/sys/y z\"  \"see bug #124\" # why\n"
			      "  # an indented comment\n"
			      "*\t/sys/w#1\tfixed in #7\r\n", NULL, &w), 0);
	assert_int_equal(w.nr, 3);
	assert_string_equal(w.v[0].pattern, "/sys/x");
	assert_string_equal(w.v[0].reason, "see bug #123");
	assert_int_equal(w.v[0].line, 3);
	assert_string_equal(w.v[1].pattern, "/sys/y z");
	assert_string_equal(w.v[1].reason, "see bug #124");
	assert_true(w.v[1].any_kind);
	assert_string_equal(w.v[2].pattern, "/sys/w#1");
	assert_string_equal(w.v[2].reason, "fixed in #7");
	waivers__release(&w);
	waivers_refused("node-removed /sys/x # a comment, no reason\n",
			"1: expected KIND SUBJECT REASON (a waiver needs a reason)");
}

/* Any field may be quoted, the last too, and the quotes are not kept. */
static void test_quotes_come_off_every_field(void **state)
{
	struct policy p;

	(void)state;
	assert_int_equal(load("\"removed\" stable \"note\" # was break\n"
			      "cap \"/sys/kabi\" \"testing\"\n", &p, NULL), 0);
	assert_int_equal(p.cell[CHANGE_NODE_REMOVED][LEVEL_STABLE], VERDICT_NOTE);
	assert_int_equal(p.cell[CHANGE_NODE_REMOVED][LEVEL_TESTING], VERDICT_BREAK);
	assert_int_equal(p.nr_caps, 1);
	assert_string_equal(p.caps[0].pattern, "/sys/kabi");
	assert_int_equal(p.caps[0].level, LEVEL_TESTING);
	policy__release(&p);
	policy_refused("removed stable \"note now\"\n",
		       "1: 'note now' is not a verdict (break, warn or note)");
	policy_refused("removed stable note # ok\nremoved stable note now\n",
		       "2: expected CHANGE LEVEL VERDICT or cap PATTERN LEVEL");
}

static void test_text_after_a_quote_is_refused(void **state)
{
	(void)state;
	policy_refused("\n\"removed\"stable note\n",
		       "2: text right after the closing quote of \"removed\"");
	waivers_refused("* /sys/x \"a\"b\n",
			"1: text right after the closing quote of \"a\"");
	waivers_refused("* /sys/x \"a\" b\n",
			"1: expected KIND SUBJECT REASON (text follows the quoted reason)");
	waivers_refused("* \"/sys/x why\n", "1: a quoted field does not end");
}

static void test_empty_reason_is_refused(void **state)
{
	(void)state;
	waivers_refused("* /sys/x \"\"\n", "1: a waiver needs a reason");
	waivers_refused("* /sys/x ok\n* /sys/y \" \t \"\n",
			"2: a waiver needs a reason");
}

/*
 * The reason 'kabidiff waivers' writes is for a person to replace: left
 * as it is, quoted or not, the file is refused.  A reason that only
 * begins like it is a reason.
 */
static void test_placeholder_reason_is_refused(void **state)
{
	struct waivers w;

	(void)state;
	waivers_refused("* /sys/x ok\n"
			"node-removed /sys/y \"" WAIVER_REASON_PLACEHOLDER "\"  # kabidiff waivers\n",
			"2: the reason is still the placeholder; say why this change is accepted");
	waivers_refused("* /sys/x " WAIVER_REASON_PLACEHOLDER " \r\n",
			"1: the reason is still the placeholder; say why this change is accepted");
	assert_int_equal(load("* /sys/x " WAIVER_REASON_PLACEHOLDER ": bug #3\n",
			      NULL, &w), 0);
	assert_string_equal(w.v[0].reason,
			    WAIVER_REASON_PLACEHOLDER ": bug #3");
	waivers__release(&w);
}

/*
 * A subject written as a waiver's field: read back by waivers__load(), it
 * is a pattern that matches that subject and not the subjects its
 * metacharacters would, a grouped finding's pattern or shape included.
 */
static void test_subject_written_matches_itself(void **state)
{
	static const struct {
		const char *subject, *field, *other;
	} t[] = {
		{ "/sys/kabi/x", "/sys/kabi/x", "/sys/kabi/y" },
		{ "/sys/kernel/slab/*", "/sys/kernel/slab/\\*", "/sys/kernel/slab/a" },
		{ "/sys/bus/pci/slots/<N>/module", "/sys/bus/pci/slots/<N>/module",
		  "/sys/bus/pci/slots/1/module" },
		{ "/sys/a[0-9]?", "/sys/a\\[0-9]\\?", "/sys/a1b" },
		{ "/sys/a\\b", "/sys/a\\\\b", "/sys/ab" },
		{ "struct kabi stat", "\"struct kabi stat\"", "struct kabi_stat" },
		{ "enum e.*", "\"enum e.\\*\"", "enum e.A" },
		{ "/sys/a#b\"c", "/sys/a#b\"c", NULL },
		{ "#x", "\"#x\"", NULL },
		{ "#x\"y", "\\#x\"y", NULL },
		{ "\"x", "\\\"x", "x" },
		{ "/sys/caf\xe9\tx", "\"/sys/caf\xe9\tx\"", NULL },
	};
	struct waivers w;
	const char *why;
	char text[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		char *field = waiver__format_subject(t[i].subject, &why);

		assert_non_null(field);
		assert_null(why);
		assert_string_equal(field, t[i].field);
		snprintf(text, sizeof(text), "node-removed %s \"ok\"\n", field);
		free(field);
		assert_int_equal(load(text, NULL, &w), 0);
		assert_int_equal(fnmatch(w.v[0].pattern, t[i].subject, 0), 0);
		if (t[i].other)
			assert_int_not_equal(fnmatch(w.v[0].pattern,
						     t[i].other, 0), 0);
		waivers__release(&w);
	}
}

/* What a field cannot hold: said why, nothing written. */
static void test_subject_the_syntax_cannot_hold(void **state)
{
	static const struct {
		const char *subject, *why;
	} t[] = {
		{ "/sys/say \"hi\"", "it holds a '\"' and a blank" },
		{ "/sys/a\nb", "it holds a line break" },
		{ "", "it is empty" },
	};
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		errno = 0;
		assert_null(waiver__format_subject(t[i].subject, &why));
		assert_int_equal(errno, EINVAL);
		assert_string_equal(why, t[i].why);
	}
}

/*
 * A waiver of the kind and pattern of an earlier one could never match:
 * refused, not reported stale after the diff.  Another kind, or "*"
 * besides a kind, is another waiver.
 */
static void test_same_waiver_twice_is_refused(void **state)
{
	struct waivers w;

	(void)state;
	assert_int_equal(load("node-removed /sys/x one\n"
			      "mode-lost /sys/x two\n"
			      "* /sys/x three\n"
			      "node-removed /sys/x/y four\n", NULL, &w), 0);
	assert_int_equal(w.nr, 4);
	waivers__release(&w);
	waivers_refused("node-removed /sys/x one\n"
			"* /sys/x two\n"
			"node-removed \"/sys/x\" another reason\n",
			"3: the same waiver as line 1");
	waivers_refused("* /sys/* one\nnode-removed /sys/* two\n* /sys/* three\n",
			"3: the same waiver as line 1");
}

/* Patterns fnmatch(3) reads as they are written, for both files. */
static void test_valid_patterns(void **state)
{
	static const char * const good[] = {
		"/sys/x", "/sys/[ab]", "[]]", "[!]a]", "[^]]", "[[:alpha:]]",
		"[[:alpha]", "a\\[", "[\\]]", "*", "\\\\", "[[.].]]",
	};
	struct waivers w;
	struct policy p;
	char text[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(text, sizeof(text), "* %s ok\n", good[i]);
		assert_int_equal(load(text, NULL, &w), 0);
		assert_string_equal(w.v[0].pattern, good[i]);
		waivers__release(&w);
		snprintf(text, sizeof(text), "cap %s testing\n", good[i]);
		assert_int_equal(load(text, &p, NULL), 0);
		assert_string_equal(p.caps[0].pattern, good[i]);
		policy__release(&p);
	}
}

/* An unclosed '[', a lone '\\' at the end, nothing: refused in both. */
static void test_invalid_patterns_are_refused(void **state)
{
	(void)state;
	waivers_refused("* /sys/[ab why\n",
			"1: '/sys/[ab' is not a valid pattern (unclosed '[')");
	waivers_refused("* /sys/x\\ why\n",
			"1: '/sys/x\\' is not a valid pattern (a '\\' at its end)");
	waivers_refused("* \"\" why\n", "1: '' is not a valid pattern (empty)");
	waivers_refused("* a[] why\n", "1: 'a[]' is not a valid pattern (unclosed '[')");
	waivers_refused("* [[:alpha:] why\n",
			"1: '[[:alpha:]' is not a valid pattern (unclosed '[')");
	waivers_refused("* [a\\] why\n",
			"1: '[a\\]' is not a valid pattern (unclosed '[')");
	policy_refused("cap /sys/[ab testing\n",
		       "1: '/sys/[ab' is not a valid pattern (unclosed '[')");
	policy_refused("# x\ncap /sys/x\\ none\n",
		       "2: '/sys/x\\' is not a valid pattern (a '\\' at its end)");
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debugfs_is_unstable_at_most),
		cmocka_unit_test(test_outside_debugfs_keeps_its_level),
		cmocka_unit_test(test_reason_keeps_its_hash),
		cmocka_unit_test(test_quotes_come_off_every_field),
		cmocka_unit_test(test_text_after_a_quote_is_refused),
		cmocka_unit_test(test_empty_reason_is_refused),
		cmocka_unit_test(test_placeholder_reason_is_refused),
		cmocka_unit_test(test_subject_written_matches_itself),
		cmocka_unit_test(test_subject_the_syntax_cannot_hold),
		cmocka_unit_test(test_same_waiver_twice_is_refused),
		cmocka_unit_test(test_valid_patterns),
		cmocka_unit_test(test_invalid_patterns_are_refused),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
