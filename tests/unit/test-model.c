// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for model.c: building, sorting, duplicate keys, name tables. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/print.h"
#include "model/model.h"

static char last_message[512];

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
}

static void add_node(struct snapshot *s, const char *path)
{
	struct sysfs_node *n = snapshot__add_sysfs_node(s);

	assert_non_null(n);
	n->path = strdup(path);
	n->kind = NODE_DIR;
}

static void add_syscall(struct snapshot *s, const char *abi, uint32_t nr)
{
	struct syscall *sc = snapshot__add_syscall(s);

	assert_non_null(sc);
	assert_true(sc->implemented);
	sc->abi = strdup(abi);
	sc->nr = nr;
}

static void test_free_null(void **state)
{
	snapshot__free(NULL);
}

static void test_new_has_nothing_collected(void **state)
{
	struct snapshot *s = snapshot__new();

	assert_non_null(s);
	assert_false(s->syscalls.collected);
	assert_false(s->types.collected);
	assert_false(s->sysfs.collected);
	assert_false(s->docs.collected);
	assert_false(s->coverage.computed);
	add_node(s, "/sys");
	assert_true(s->sysfs.collected);
	assert_false(s->docs.collected);
	snapshot__free(s);
}

static void test_sort(void **state)
{
	static const char *const paths[] = {
		"/sys/kernel", "/sys", "/sys/block", "/sys/block-x",
		"/sys/block/sda", "/proc/sys/vm", "/sys/\xff", "/sys/a b",
	};
	static const char *const sorted[] = {
		"/proc/sys/vm", "/sys", "/sys/a b", "/sys/block",
		"/sys/block-x", "/sys/block/sda", "/sys/kernel", "/sys/\xff",
	};
	struct snapshot *s = snapshot__new();
	size_t i;

	for (i = 0; i < 8; i++)
		add_node(s, paths[i]);
	for (i = 0; i < 1000; i++)
		add_syscall(s, i % 2 ? "x86_64" : "ia32", (i * 7919) % 1000);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	for (i = 0; i < 8; i++)
		assert_string_equal(s->sysfs.v[i].path, sorted[i]);
	for (i = 1; i < s->syscalls.nr; i++) {
		const struct syscall *a = &s->syscalls.v[i - 1];
		const struct syscall *b = &s->syscalls.v[i];
		int c = strcmp(a->abi, b->abi);

		assert_true(c < 0 || (c == 0 && a->nr < b->nr));
	}
	snapshot__free(s);
}

static void test_duplicates(void **state)
{
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t old = kabi_set_print(capture);

	add_syscall(s, "x86_64", 1);
	add_syscall(s, "ia32", 1);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	add_node(s, "/sys/a\nb");
	add_node(s, "/sys/b");
	add_node(s, "/sys/a\nb");
	assert_int_equal(snapshot__sort(s, "test"), -EEXIST);
	assert_string_equal(last_message,
			    "test: duplicate sysfs path \"/sys/a\\nb\"");
	add_syscall(s, "ia32", 1);
	assert_int_equal(snapshot__sort(s, "x"), -EEXIST);
	assert_string_equal(last_message, "x: duplicate syscall \"ia32\" number 1");
	kabi_set_print(old);
	snapshot__free(s);
}

static void test_records(void **state)
{
	struct snapshot *s = snapshot__new();
	struct type_def *t = snapshot__add_type(s);
	struct doc_entry *d;
	size_t i;

	t->name = strdup("struct big");
	for (i = 0; i < 100; i++) {
		struct type_member *m = type__add_member(t);

		assert_non_null(m);
		m->offset = i;
	}
	assert_int_equal(t->nr_members, 100);
	for (i = 0; i < 100; i++)
		assert_int_equal(t->members[i].offset, i);
	assert_non_null(type__add_enumerator(t));
	d = snapshot__add_doc(s);
	assert_int_equal(doc_entry__add_what(d, "/sys/a"), 0);
	assert_int_equal(doc_entry__add_what(d, "/sys/b"), 0);
	assert_int_equal(d->nr_what, 2);
	assert_string_equal(d->what[1], "/sys/b");
	snapshot__free(s);
}

static struct type_def *add_type(struct snapshot *s, const char *name,
				 enum type_kind kind, const char *target)
{
	struct type_def *t = snapshot__add_type(s);

	assert_non_null(t);
	t->name = strdup(name);
	t->kind = kind;
	t->target = target ? strdup(target) : NULL;
	return t;
}

static const char *ref_base(const struct snapshot *s, const struct type_ref *r)
{
	return r->base < 0 ? NULL : s->types.v[r->base].name;
}

static const struct type_def *get_type(const struct snapshot *s,
				       const char *name)
{
	size_t i;

	for (i = 0; i < s->types.nr; i++)
		if (s->types.v[i].name && !strcmp(s->types.v[i].name, name))
			return &s->types.v[i];
	fail_msg("no type %s", name);
	return NULL;
}

/* Parse @spelling in @s: its base's name (NULL for none), its declarator. */
static void check_parse(const struct snapshot *s, const char *spelling,
			const char *base, const char *declarator)
{
	struct type_ref r;

	assert_int_equal(type_ref__parse(s, spelling, &r), 0);
	if (base)
		assert_string_equal(ref_base(s, &r), base);
	else
		assert_null(ref_base(s, &r));
	if (declarator)
		assert_string_equal(r.declarator, declarator);
	else
		assert_null(r.declarator);
	type_ref__release(&r);
	assert_int_equal(r.base, -1);
}

static void test_type_refs(void **state)
{
	struct snapshot *s = snapshot__new();
	struct syscall *sc = snapshot__add_syscall(s);
	const struct type_def *t;
	struct type_ref r, out;
	const char *text;
	char *long_name, *spelling = NULL;
	size_t i;

	sc->abi = strdup("x86_64");
	add_type(s, "int", TYPE_BASE, NULL);
	add_type(s, "unsigned int", TYPE_BASE, NULL);
	add_type(s, "struct foo", TYPE_STRUCT, NULL);
	type__add_member(&s->types.v[s->types.nr - 1])->type =
		strdup("struct foo *");
	add_type(s, "foo_t", TYPE_TYPEDEF, "struct foo *");
	add_type(s, "foo_pp", TYPE_TYPEDEF, "const foo_t *");
	add_type(s, "lost_t", TYPE_TYPEDEF, "struct lost *");
	syscall__add_arg(sc)->type = strdup("foo_t [4]");
	snapshot__add_type(s)->kind = TYPE_BASE;	/* with no name: first */
	assert_int_equal(snapshot__sort(s, "test"), 0);

	check_parse(s, "int", "int", NULL);
	check_parse(s, "unsigned int *", "unsigned int", "*");
	check_parse(s, "const volatile struct foo * const [2]", "struct foo",
		    "*[2]");
	check_parse(s, "int (*)(const int *, unsigned int)", "int",
		    "(*)(int*,unsignedint)");
	check_parse(s, "struct foo_bar *", NULL, NULL);
	check_parse(s, "struct nowhere", NULL, NULL);
	check_parse(s, NULL, NULL, NULL);

	/* computed by the sort, and again by the next one */
	t = get_type(s, "struct foo");
	assert_string_equal(ref_base(s, &t->members[0].type_ref), "struct foo");
	assert_string_equal(t->members[0].type_ref.declarator, "*");
	t = get_type(s, "foo_t");
	assert_string_equal(ref_base(s, &t->target_ref), "struct foo");
	assert_string_equal(ref_base(s, &s->syscalls.v[0].args[0].type_ref),
			    "foo_t");
	assert_string_equal(s->syscalls.v[0].args[0].type_ref.declarator, "[4]");
	assert_int_equal(get_type(s, "int")->target_ref.base, -1);
	add_type(s, "char", TYPE_BASE, NULL);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	assert_string_equal(ref_base(s, &get_type(s, "foo_t")->target_ref),
			    "struct foo");

	/* typedefs looked through, the outer declarator outside */
	assert_int_equal(type_ref__parse(s, "foo_pp *", &r), 0);
	assert_string_equal(r.declarator, "*");
	assert_int_equal(type_ref__resolve(s, "foo_pp *", &r, &out, &text), 0);
	assert_string_equal(ref_base(s, &out), "struct foo");
	assert_string_equal(text, "struct foo");
	assert_string_equal(out.declarator, "***");
	type_ref__release(&out);
	type_ref__release(&r);
	/* ending on a spelling that names no type: that is the rest */
	assert_int_equal(type_ref__parse(s, "lost_t [2]", &r), 0);
	assert_int_equal(type_ref__resolve(s, "lost_t [2]", &r, &out, &text), 0);
	assert_int_equal(out.base, -1);
	assert_string_equal(text, "struct lost *");
	assert_string_equal(out.declarator, "[2]");
	type_ref__release(&out);
	type_ref__release(&r);

	/* no length is too long */
	long_name = malloc(400);
	memcpy(long_name, "struct ", 7);
	for (i = 7; i < 399; i++)
		long_name[i] = 'a' + i % 26;
	long_name[399] = '\0';
	add_type(s, long_name, TYPE_STRUCT, NULL);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	assert_true(asprintf(&spelling, "const %s *[%0300d]", long_name, 7) > 0);
	assert_int_equal(type_ref__parse(s, spelling, &r), 0);
	assert_string_equal(ref_base(s, &r), long_name);
	assert_int_equal(strlen(r.declarator), 303);
	type_ref__release(&r);
	free(spelling);
	free(long_name);
	snapshot__free(s);
}

static void test_names(void **state)
{
	enum abi_level level;
	enum value_shape shape;
	enum node_kind kind;
	enum type_kind tk;
	unsigned int i;

	for (i = 0; i < LEVEL_COUNT; i++) {
		assert_int_equal(abi_level__parse(abi_level__name(i), &level), 0);
		assert_int_equal(level, i);
	}
	for (i = SHAPE_NONE + 1; i < SHAPE_COUNT; i++) {
		assert_int_equal(value_shape__parse(value_shape__name(i), &shape), 0);
		assert_int_equal(shape, i);
	}
	assert_null(value_shape__name(SHAPE_NONE));
	assert_null(value_shape__name(SHAPE_COUNT));
	for (i = 0; i < NODE_KIND_COUNT; i++) {
		assert_int_equal(node_kind__parse(node_kind__name(i), &kind), 0);
		assert_int_equal(kind, i);
	}
	for (i = 0; i < TYPE_KIND_COUNT; i++) {
		assert_int_equal(type_kind__parse(type_kind__name(i), &tk), 0);
		assert_int_equal(tk, i);
	}
	assert_int_equal(abi_level__parse("Stable", &level), -EINVAL);
	assert_int_equal(node_kind__parse("", &kind), -EINVAL);
}

/* A date is exactly "YYYY-MM-DD", of a day that exists. */
static void test_date_parse(void **state)
{
	static const char *const refused[] = {
		"2025-02-29", "2025-13-01", "2025-00-10", "2025-04-31",
		"0000-01-01", "2025-1-02", "2025-01-02 ", "20250102",
		"2025/01/02", "", "2025-01-0x",
	};
	unsigned int i;
	int months = -1;

	assert_int_equal(date__parse("2025-01-02", &months), 0);
	assert_int_equal(months, 2025 * 12);
	assert_int_equal(date__parse("2024-02-29", &months), 0);
	assert_int_equal(months, 2024 * 12 + 1);
	assert_int_equal(date__parse("2000-02-29", NULL), 0);
	assert_int_equal(date__parse("9999-12-31", &months), 0);
	assert_int_equal(months, 9999 * 12 + 11);
	assert_int_equal(date__parse("1900-02-29", NULL), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		assert_int_equal(date__parse(refused[i], NULL), -EINVAL);
}

/* The build dates of the UTS_VERSION strings that distributions write. */
static void test_build_date_from_version(void **state)
{
	static const char *const found[][2] = {
		{ "#1 SMP PREEMPT_DYNAMIC Debian 6.1.123-1 (2025-01-02)",
		  "2025-01-02" },
		{ "#1 SMP PREEMPT_DYNAMIC Thu Jan  2 12:00:00 UTC 2025",
		  "2025-01-02" },
		{ "#97-Ubuntu SMP PREEMPT_DYNAMIC Mon Dec 15 10:01:01 UTC 2025",
		  "2025-12-15" },
		{ "#1 SMP PREEMPT_DYNAMIC Sat, 18 Jan 2025 02:26:57 +0000",
		  "2025-01-18" },
		/* a date in a version number is not one */
		{ "#1 SMP Debian 2024-01-01a (2025-03-04)", "2025-03-04" },
	};
	static const char *const none[] = {
		"#1 SMP PREEMPT_DYNAMIC Mini 6.1.0-1", "", "#1 SMP Jan",
		"#1 SMP Feb 30 2025", "#1 SMP 12025-01-02", "#1 Jan 2 25",
	};
	char date[BUILD_DATE_SIZE];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(found); i++) {
		assert_int_equal(build_date__from_version(found[i][0], date), 0);
		assert_string_equal(date, found[i][1]);
	}
	for (i = 0; i < ARRAY_SIZE(none); i++)
		assert_int_equal(build_date__from_version(none[i], date),
				 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_null),
		cmocka_unit_test(test_new_has_nothing_collected),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_type_refs),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_date_parse),
		cmocka_unit_test(test_build_date_from_version),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
