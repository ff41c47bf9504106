// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for whom a report tells: notify__build() (notify/notify.c)
 * works it out once, with the findings, and the renderers (report/) print
 * what they are given, computing nothing of their own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "diff/diff.h"
#include "notify/notify.h"
#include "policy/policy.h"
#include "report/report.h"

/* Two sysfs files of one entry with a Contact:, removed; an undocumented one too. */
struct judged {
	struct snapshot *old, *new;
	struct diff d;
	struct judgement j;
};

static void add_file(struct snapshot *s, const char *path)
{
	struct sysfs_node *n = snapshot__add_sysfs_node(s);

	assert_non_null(n);
	n->path = strdup(path);
	n->kind = NODE_FILE;
	n->mode = 0444;
}

static void judge(struct judged *t)
{
	struct doc_entry *e;
	struct policy p;

	memset(t, 0, sizeof(*t));
	t->old = snapshot__new();
	t->new = snapshot__new();
	assert_non_null(t->old);
	assert_non_null(t->new);
	t->old->sysfs.collected = t->new->sysfs.collected = true;
	t->old->docs.collected = true;
	e = snapshot__add_doc(t->old);
	assert_non_null(e);
	e->level = LEVEL_STABLE;
	e->file = strdup("stable/sysfs-test");
	e->line = 1;
	e->contact = strdup("Doc Person <doc@contact.example>");
	assert_int_equal(doc_entry__add_what(e, "/sys/kernel/test/a"), 0);
	assert_int_equal(doc_entry__add_what(e, "/sys/kernel/test/b"), 0);
	add_file(t->old, "/sys/kernel/test/a");
	add_file(t->old, "/sys/kernel/test/b");
	add_file(t->old, "/sys/kernel/undocumented");
	assert_int_equal(snapshot__sort(t->old, "old"), 0);
	assert_int_equal(snapshot__sort(t->new, "new"), 0);
	assert_int_equal(diff__run(t->old, t->new, &t->d), 0);
	policy__init(&p);
	assert_int_equal(policy__judge(&p, NULL, t->old, t->new, &t->d, &t->j), 0);
	policy__release(&p);
	t->j.old_name = "old.json";
	t->j.new_name = "new.json";
	/* the entry's two breaks, then the undocumented one */
	assert_int_equal(t->j.nr, 3);
	assert_non_null(t->j.v[0].doc);
	assert_non_null(t->j.v[1].doc);
	assert_null(t->j.v[2].doc);
}

static void release(struct judged *t)
{
	judgement__release(&t->j);
	diff__release(&t->d);
	snapshot__free(t->old);
	snapshot__free(t->new);
}

/* The report of @j in @format (0 text, 1 json, 2 markdown, 3 --notify). */
static char *render(const struct judgement *j, const struct notify *n,
		    int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	if (format == 0)
		assert_int_equal(show_report_text(j, NULL, NULL, n, out, false), 0);
	else if (format == 1)
		assert_int_equal(show_report_json(j, NULL, n, out), 0);
	else if (format == 2)
		assert_int_equal(show_report_markdown(j, NULL, n, out), 0);
	else
		assert_int_equal(show_report_notify(j, n, out), 0);
	fclose(out);
	return buf;
}

/*
 * notify__build() gives each finding its notices, each recipient its
 * findings, and each notice the finding its mailbox was told about before.
 */
static void test_build_fills_the_report_data(void **state)
{
	struct notify n = { 0 };
	struct judged t;

	(void)state;
	judge(&t);
	assert_int_equal(notify__build(&n, &t.j, NULL), 0);
	assert_false(n.maintainers);
	assert_int_equal(n.nr_findings, 3);
	assert_int_equal(n.nobody, 1);
	assert_int_equal(n.nr, 1);
	assert_string_equal(n.v[0].address, "Doc Person <doc@contact.example>");
	assert_int_equal(n.v[0].nr_findings, 2);
	assert_int_equal(n.findings[0].nr, 1);
	assert_true(n.findings[0].v[0].contact);
	assert_null(n.findings[0].v[0].prev);
	assert_int_equal(n.findings[1].nr, 1);
	assert_ptr_equal(n.findings[1].v[0].prev, &t.j.v[0]);
	assert_int_equal(n.findings[2].nr, 0);
	assert_null(n.findings[0].declared_in);
	notify__release(&n);
	release(&t);
}

/* The address of notice @k of finding @i of the JSON report @root. */
static const char *json_address(json_t *root, size_t i, size_t k)
{
	json_t *f = json_array_get(json_object_get(root, "findings"), i);

	return json_string_value(json_object_get(json_array_get(json_object_get(f, "notify"), k),
						 "address"));
}

/*
 * Recipients no Contact:, list or MAINTAINERS would give: a renderer that
 * worked them out again would not print these.
 */
static void test_renderers_print_what_they_are_given(void **state)
{
	char one[] = "Given One <one@given.example>", one_again[] = "ONE@given.example";
	char two[] = "two@given.example", three[] = "three@given.example";
	char why[] = "given by the test", *whys[] = { why };
	struct notice first[2] = {
		{ .address = one, .why = why },
		{ .address = two, .why = why },
	};
	struct notice second[2] = {
		{ .address = one_again, .why = why },
		{ .address = three, .why = why },
	};
	struct finding_notices findings[3] = {
		{ .declared_in = "given/declared.c", .v = first, .nr = 2 },
		{ .v = second, .nr = 2 },
		{ 0 },
	};
	const struct finding *told[2];
	struct recipient to = {
		.address = one, .why = whys, .nr_why = 1,
		.findings = told, .nr_findings = 2,
	};
	struct notify n = {
		.v = &to, .nr = 1, .findings = findings, .nr_findings = 3,
		.nobody = 7, .maintainers = true,
	};
	struct judged t;
	json_t *root;
	char *text;

	(void)state;
	judge(&t);
	told[0] = second[0].prev = &t.j.v[0];
	told[1] = &t.j.v[1];

	/* the group's mailboxes once each, as first written */
	text = render(&t.j, &n, 0);
	assert_non_null(strstr(text, "\n  notify:  Given One <one@given.example>, two@given.example, three@given.example\n"));
	free(text);

	text = render(&t.j, &n, 1);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(root, "findings"), 0),
							      "declared_in")),
			    "given/declared.c");
	assert_string_equal(json_address(root, 0, 1), "two@given.example");
	assert_string_equal(json_address(root, 1, 0), "ONE@given.example");
	assert_null(json_address(root, 2, 0));
	json_decref(root);
	free(text);

	text = render(&t.j, &n, 2);
	assert_non_null(strstr(text, "\n| Given One \\<one@given.example\\> | 2 | given by the test |\n"));
	free(text);

	/* MAINTAINERS asked: no hint that it may name more */
	text = render(&t.j, &n, 3);
	assert_non_null(strstr(text, "\nTo: Given One <one@given.example>\n"));
	assert_non_null(strstr(text, "\nno one to tell about 7 findings: undocumented, or the entry names no Contact:\n"));
	free(text);
	release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_fills_the_report_data),
		cmocka_unit_test(test_renderers_print_what_they_are_given),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
