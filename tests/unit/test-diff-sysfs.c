// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for diff/sysfs.c's judging per pattern: an instance of a live
 * What: line, a line that lost every instance, undocumented removals of one
 * shape, and what the reports show of a group.
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

#include "diff/diff.h"
#include "notify/notify.h"
#include "policy/policy.h"
#include "report/report.h"

/* Nodes are "d PATH" (a directory), "f PATH" (a file), "l PATH TARGET". */
static void nodes(struct snapshot *s, const char *const *spec)
{
	for (; *spec; spec++) {
		struct sysfs_node *n = snapshot__add_sysfs_node(s);
		const char *path = *spec + 2, *space = strchr(path, ' ');

		assert_non_null(n);
		n->kind = **spec == 'd' ? NODE_DIR : **spec == 'l' ? NODE_LINK :
			  NODE_FILE;
		n->mode = n->kind == NODE_DIR ? 0755 : 0444;
		n->path = space ? strndup(path, space - path) : strdup(path);
		n->target = space ? strdup(space + 1) : NULL;
	}
}

/* An entry of @level with the What: lines @what (NULL-ended). */
static void doc(struct snapshot *s, enum abi_level level, unsigned int line,
		const char *const *what)
{
	struct doc_entry *d = snapshot__add_doc(s);

	assert_non_null(d);
	d->level = level;
	d->file = strdup("testing/sysfs-test");
	d->line = line;
	for (; *what; what++)
		assert_int_equal(doc_entry__add_what(d, *what), 0);
}

static const char *const slab_what[] = { "/sys/kernel/slab/<cache>/order", NULL };
static const char *const slot_what[] = {
	"/sys/bus/pci/slots/.../address", "/sys/bus/pci/slots/.../module", NULL,
};

/* OLD's docs: slab caches, PCI slots (two What: lines, one entry). */
static void docs(struct snapshot *s)
{
	doc(s, LEVEL_TESTING, 1, slab_what);
	doc(s, LEVEL_TESTING, 10, slot_what);
}

struct pair {
	struct snapshot *old, *new;
	struct diff d;
};

static void pair_run(struct pair *p, const char *const *old,
		     const char *const *new)
{
	p->old = snapshot__new();
	p->new = snapshot__new();
	assert_non_null(p->old);
	assert_non_null(p->new);
	nodes(p->old, old);
	nodes(p->new, new);
	docs(p->old);
	docs(p->new);
	assert_int_equal(snapshot__sort(p->old, "old"), 0);
	assert_int_equal(snapshot__sort(p->new, "new"), 0);
	memset(&p->d, 0, sizeof(p->d));
	assert_int_equal(diff__run(p->old, p->new, &p->d), 0);
}

static void pair_release(struct pair *p)
{
	diff__release(&p->d);
	snapshot__free(p->old);
	snapshot__free(p->new);
}

/* The change of @kind about @subject, or NULL. */
static const struct change *find(const struct diff *d, enum change_kind kind,
				 const char *subject)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (d->v[i].kind == kind && !strcmp(d->v[i].subject, subject))
			return &d->v[i];
	return NULL;
}

static size_t count(const struct diff *d, enum change_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < d->nr; i++)
		n += d->v[i].kind == kind;
	return n;
}

/* A cache merged away: its attribute is an instance of a live pattern. */
static void test_instance_removed(void **state)
{
	static const char *const old[] = {
		"d /sys", "d /sys/kernel", "d /sys/kernel/slab",
		"d /sys/kernel/slab/a", "f /sys/kernel/slab/a/order",
		"d /sys/kernel/slab/b", "f /sys/kernel/slab/b/order", NULL,
	};
	static const char *const new[] = {
		"d /sys", "d /sys/kernel", "d /sys/kernel/slab",
		"d /sys/kernel/slab/a", "f /sys/kernel/slab/a/order",
		"d /sys/kernel/slab/c", "f /sys/kernel/slab/c/order",
		"f /sys/kernel/slab/c/brand_new", NULL,
	};
	struct pair p;
	const struct change *c;

	(void)state;
	pair_run(&p, old, new);
	c = find(&p.d, CHANGE_INSTANCE_REMOVED, "/sys/kernel/slab/b/order");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 0);
	assert_int_equal(count(&p.d, CHANGE_INSTANCE_REMOVED), 1);
	/* the cache's directory is undocumented, and alone of its shape */
	c = find(&p.d, CHANGE_NODE_REMOVED, "/sys/kernel/slab/b");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 0);
	assert_int_equal(count(&p.d, CHANGE_NODE_REMOVED), 1);
	/* the mirror image: a new cache's attribute is an instance too */
	assert_non_null(find(&p.d, CHANGE_INSTANCE_ADDED,
			     "/sys/kernel/slab/c/order"));
	assert_non_null(find(&p.d, CHANGE_NODE_ADDED,
			     "/sys/kernel/slab/c/brand_new"));
	assert_non_null(find(&p.d, CHANGE_NODE_ADDED, "/sys/kernel/slab/c"));
	pair_release(&p);
}

static const char *const slots_old[] = {
	"d /sys", "d /sys/bus", "d /sys/bus/pci", "d /sys/bus/pci/slots",
	"d /sys/bus/pci/slots/1", "f /sys/bus/pci/slots/1/address",
	"l /sys/bus/pci/slots/1/module ../../../../module/pciehp",
	"d /sys/bus/pci/slots/2", "f /sys/bus/pci/slots/2/address",
	"l /sys/bus/pci/slots/2/module ../../../../module/pciehp",
	"d /sys/bus/pci/slots/3", "f /sys/bus/pci/slots/3/address",
	"l /sys/bus/pci/slots/3/module ../../../../module/acpiphp",
	"d /sys/bus/pci/slots/4", "f /sys/bus/pci/slots/4/address",
	"l /sys/bus/pci/slots/4/module ../../../../module/acpiphp",
	"d /sys/bus/pci/slots/5", "f /sys/bus/pci/slots/5/address",
	"l /sys/bus/pci/slots/5/module ../../../../module/acpiphp",
	"d /sys/module", NULL,
};

static const char *const slots_new[] = {
	"d /sys", "d /sys/bus", "d /sys/bus/pci", "d /sys/bus/pci/slots",
	"d /sys/bus/pci/slots/1", "f /sys/bus/pci/slots/1/address",
	"d /sys/bus/pci/slots/2", "f /sys/bus/pci/slots/2/address",
	"d /sys/bus/pci/slots/3", "f /sys/bus/pci/slots/3/address",
	"d /sys/bus/pci/slots/4", "f /sys/bus/pci/slots/4/address",
	"d /sys/bus/pci/slots/5", "f /sys/bus/pci/slots/5/address",
	"d /sys/module", NULL,
};

/*
 * Every slot lost its module link while keeping its address: the entry
 * documents both, but .../module lost every instance.  One removal.
 */
static void test_pattern_removed(void **state)
{
	struct pair p;
	const struct change *c;

	(void)state;
	pair_run(&p, slots_old, slots_new);
	assert_int_equal(p.d.nr, 1);
	c = find(&p.d, CHANGE_NODE_REMOVED, "/sys/bus/pci/slots/.../module");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 5);
	assert_string_equal(c->instances[0], "/sys/bus/pci/slots/1/module");
	assert_string_equal(c->instances[4], "/sys/bus/pci/slots/5/module");
	assert_string_equal(p.old->sysfs.v[c->old_ref].path,
			    "/sys/bus/pci/slots/1/module");
	/* the links pointed to two modules: the first, and "..." */
	assert_string_equal(c->old,
			    "link -> ../../../../module/pciehp, ...");
	assert_null(c->new);
	pair_release(&p);
}

/*
 * Undocumented removals: device numbers under a kept directory are one
 * finding per shape; plain files removed from a kept directory are not
 * instances of anything and stay one finding each.
 */
static void test_undocumented_shapes(void **state)
{
	static const char *const old[] = {
		"d /sys", "d /sys/dev", "d /sys/dev/char",
		"l /sys/dev/char/10:1 ../../devices/a",
		"l /sys/dev/char/10:2 ../../devices/b",
		"l /sys/dev/char/4:1 ../../devices/c",
		"d /sys/devices", "d /sys/devices/a", "d /sys/devices/b",
		"d /sys/devices/c", "d /sys/kernel", "d /sys/kernel/foo",
		"f /sys/kernel/foo/a", "f /sys/kernel/foo/b",
		"f /sys/kernel/foo/c", "d /sys/kernel/only",
		"d /sys/kernel/only/7", "f /sys/kernel/only/7/x",
		"d /sys/kernel/only/8", "f /sys/kernel/only/8/x", NULL,
	};
	static const char *const new[] = {
		"d /sys", "d /sys/dev", "d /sys/dev/char",
		"l /sys/dev/char/4:1 ../../devices/c",
		"d /sys/devices", "d /sys/devices/a", "d /sys/devices/b",
		"d /sys/devices/c", "d /sys/kernel", "d /sys/kernel/foo",
		"f /sys/kernel/foo/c", "d /sys/kernel/only", NULL,
	};
	struct pair p;
	const struct change *c;

	(void)state;
	pair_run(&p, old, new);
	c = find(&p.d, CHANGE_NODE_REMOVED, "/sys/dev/char/*");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 2);
	assert_string_equal(c->instances[0], "/sys/dev/char/10:1");
	assert_string_equal(c->instances[1], "/sys/dev/char/10:2");
	/* numbered directories of a directory that kept nothing */
	c = find(&p.d, CHANGE_NODE_REMOVED, "/sys/kernel/only/*");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 2);
	c = find(&p.d, CHANGE_NODE_REMOVED, "/sys/kernel/only/*/x");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 2);
	assert_string_equal(c->instances[1], "/sys/kernel/only/8/x");
	/* files are no instances: one each */
	assert_non_null(find(&p.d, CHANGE_NODE_REMOVED, "/sys/kernel/foo/a"));
	assert_non_null(find(&p.d, CHANGE_NODE_REMOVED, "/sys/kernel/foo/b"));
	assert_int_equal(count(&p.d, CHANGE_NODE_REMOVED), 5);
	pair_release(&p);
}

/* A report of @p by the default policy, in @format, as a string. */
static char *render(struct pair *p, int format, struct judgement *j)
{
	struct notify n = { 0 };
	struct policy pol;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	policy__init(&pol);
	memset(j, 0, sizeof(*j));
	assert_int_equal(policy__judge(&pol, NULL, p->old, p->new, &p->d, j), 0);
	j->old_name = "old.json";
	j->new_name = "new.json";
	assert_int_equal(notify__build(&n, j, NULL), 0);
	if (format == 0)
		assert_int_equal(show_report_text(j, NULL, NULL, &n, out, false), 0);
	else if (format == 1)
		assert_int_equal(show_report_json(j, NULL, &n, out), 0);
	else
		assert_int_equal(show_report_markdown(j, NULL, &n, out), 0);
	fclose(out);
	notify__release(&n);
	judgement__release(j);
	return buf;
}

/* The lost pattern is one break, and each report names its instances. */
static void test_report_lists_instances(void **state)
{
	struct judgement j;
	struct pair p;
	char *text;

	(void)state;
	pair_run(&p, slots_old, slots_new);
	text = render(&p, 0, &j);
	assert_string_equal(text,
		"kabidiff: old.json -> new.json; compared: sysfs, docs\n"
		"  old:   from old.json\n"
		"  new:   from new.json\n"
		"  rules: policy default, waivers none\n"
		"== break ==\n"
		"-- testing --\n"
		"  doc:     Documentation/ABI/testing/sysfs-test#10\n"
		"    node-removed  /sys/bus/pci/slots/.../module\n"
		"      link -> ../../../../module/pciehp, ... -> (absent)\n"
		"      5 instances: /sys/bus/pci/slots/1/module, "
		"/sys/bus/pci/slots/2/module, /sys/bus/pci/slots/3/module "
		"(+2 more)\n"
		"\n1 break, 0 warn, 0 note, 0 waived\n");
	free(text);
	text = render(&p, 1, &j);
	assert_non_null(strstr(text,
		"\"instances\": [\n"
		"        \"/sys/bus/pci/slots/1/module\",\n"
		"        \"/sys/bus/pci/slots/2/module\",\n"
		"        \"/sys/bus/pci/slots/3/module\",\n"
		"        \"/sys/bus/pci/slots/4/module\",\n"
		"        \"/sys/bus/pci/slots/5/module\"\n"
		"      ]"));
	free(text);
	text = render(&p, 2, &j);
	assert_non_null(strstr(text,
		"| testing | node-removed | /sys/bus/pci/slots/.../module "
		"(5 instances: /sys/bus/pci/slots/1/module, "
		"/sys/bus/pci/slots/2/module, /sys/bus/pci/slots/3/module, "
		"+2 more) |"));
	free(text);
	pair_release(&p);
}

/* Without docs in OLD, nothing is an instance of a pattern. */
static void test_no_docs(void **state)
{
	struct snapshot *old = snapshot__new(), *new = snapshot__new();
	struct diff d = { 0 };
	const struct change *c;

	(void)state;
	nodes(old, slots_old);
	nodes(new, slots_new);
	assert_int_equal(snapshot__sort(old, "old"), 0);
	assert_int_equal(snapshot__sort(new, "new"), 0);
	assert_int_equal(diff__run(old, new, &d), 0);
	/* each module link is alone of its shape, its own slot's */
	assert_int_equal(count(&d, CHANGE_NODE_REMOVED), 5);
	assert_int_equal(count(&d, CHANGE_INSTANCE_REMOVED), 0);
	c = find(&d, CHANGE_NODE_REMOVED, "/sys/bus/pci/slots/3/module");
	assert_non_null(c);
	assert_int_equal(c->nr_instances, 0);
	diff__release(&d);
	snapshot__free(old);
	snapshot__free(new);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instance_removed),
		cmocka_unit_test(test_pattern_removed),
		cmocka_unit_test(test_undocumented_shapes),
		cmocka_unit_test(test_report_lists_instances),
		cmocka_unit_test(test_no_docs),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
