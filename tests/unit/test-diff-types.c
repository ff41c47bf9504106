// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for diff/types.c: spellings through typedefs, and type graphs
 * with cycles compared side by side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff/parts.h"

static struct type_def *type(struct snapshot *s, const char *name,
			     enum type_kind kind, uint64_t size,
			     const char *target)
{
	struct type_def *t = snapshot__add_type(s);

	t->name = strdup(name);
	t->kind = kind;
	t->size = size;
	t->target = target ? strdup(target) : NULL;
	return t;
}

/* Members are added to the type added last (the array may move). */
static void member(struct snapshot *s, const char *name, const char *type,
		   uint64_t offset, uint64_t size)
{
	struct type_member *m = type__add_member(&s->types.v[s->types.nr - 1]);

	m->name = strdup(name);
	m->type = strdup(type);
	m->offset = offset;
	m->size = size;
}

static struct snapshot *base_types(void)
{
	struct snapshot *s = snapshot__new();

	type(s, "int", TYPE_BASE, 4, NULL);
	type(s, "long int", TYPE_BASE, 8, NULL);
	type(s, "unsigned int", TYPE_BASE, 4, NULL);
	type(s, "__u32", TYPE_TYPEDEF, 4, "unsigned int");
	type(s, "u32_ptr", TYPE_TYPEDEF, 8, "__u32 *");
	return s;
}

static int equiv(const struct snapshot *a, const struct snapshot *b,
		 const char *sa, const char *sb)
{
	return types_spelling_equiv(a, b, sa, sb);
}

static void test_typedefs(void **state)
{
	struct snapshot *a = base_types(), *b = base_types();

	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(equiv(a, b, "__u32", "unsigned int"), 1);
	assert_int_equal(equiv(a, b, "const __u32 *", "unsigned int *"), 1);
	assert_int_equal(equiv(a, b, "u32_ptr *", "unsigned int **"), 1);
	assert_int_equal(equiv(a, b, "__u32 [4]", "unsigned int [4]"), 1);
	assert_int_equal(equiv(a, b, "__u32 *", "unsigned int"), 0);
	assert_int_equal(equiv(a, b, "__u32 [4]", "unsigned int [2]"), 0);
	assert_int_equal(equiv(a, b, "__u32", "int"), 0);
	assert_int_equal(equiv(a, b, "struct nowhere *", "struct elsewhere *"), 0);
	snapshot__free(a);
	snapshot__free(b);
}

/* A list node that points to its own type, under two names. */
static void test_self_cycle(void **state)
{
	struct snapshot *a = base_types(), *b = base_types();
	size_t i;

	type(a, "struct list_a", TYPE_STRUCT, 16, NULL);
	member(a, "next", "struct list_a *", 0, 8);
	member(a, "v", "int", 8, 4);
	type(b, "struct list_b", TYPE_STRUCT, 16, NULL);
	member(b, "next", "struct list_b *", 0, 8);
	member(b, "v", "__u32", 8, 4);
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	/* int and __u32 differ: the cycle must not hide it */
	assert_int_equal(equiv(a, b, "struct list_a", "struct list_b"), 0);
	for (i = 0; strcmp(b->types.v[i].name, "struct list_b"); i++)
		;
	free(b->types.v[i].members[1].type);
	b->types.v[i].members[1].type = strdup("int");
	assert_int_equal(equiv(a, b, "struct list_a", "struct list_b"), 1);
	assert_int_equal(equiv(a, b, "struct list_a *", "struct list_b *"), 1);
	snapshot__free(a);
	snapshot__free(b);
}

/* Two types that point to each other; the difference is one hop away. */
static void test_mutual_cycle(void **state)
{
	struct snapshot *a = base_types(), *b = base_types();

	type(a, "struct ping_a", TYPE_STRUCT, 8, NULL);
	member(a, "pong", "struct pong_a *", 0, 8);
	type(a, "struct pong_a", TYPE_STRUCT, 16, NULL);
	member(a, "ping", "struct ping_a *", 0, 8);
	member(a, "x", "int", 8, 4);
	type(b, "struct ping_b", TYPE_STRUCT, 8, NULL);
	member(b, "pong", "struct pong_b *", 0, 8);
	type(b, "struct pong_b", TYPE_STRUCT, 16, NULL);
	member(b, "ping", "struct ping_b *", 0, 8);
	member(b, "x", "long int", 8, 8);
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(equiv(a, b, "struct ping_a", "struct ping_b"), 0);
	snapshot__free(a);
	snapshot__free(b);
}

/* A member whose type changed name but not layout is no change. */
static void test_member_renamed_type(void **state)
{
	struct snapshot *a = base_types(), *b = base_types();
	struct diff d = { 0 };

	type(a, "struct holder", TYPE_STRUCT, 16, NULL);
	member(a, "list", "struct list_a", 0, 16);
	type(a, "struct list_a", TYPE_STRUCT, 16, NULL);
	member(a, "next", "struct list_a *", 0, 8);
	type(b, "struct holder", TYPE_STRUCT, 16, NULL);
	member(b, "list", "struct list_b", 0, 16);
	type(b, "struct list_b", TYPE_STRUCT, 16, NULL);
	member(b, "next", "struct list_b *", 0, 8);
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(diff_types(a, b, &d), 0);
	assert_int_equal(d.nr, 2);
	assert_int_equal(d.v[0].kind, CHANGE_TYPE_REMOVED);
	assert_string_equal(d.v[0].subject, "struct list_a");
	assert_int_equal(d.v[1].kind, CHANGE_TYPE_ADDED);
	assert_string_equal(d.v[1].subject, "struct list_b");
	diff__release(&d);
	snapshot__free(a);
	snapshot__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typedefs),
		cmocka_unit_test(test_self_cycle),
		cmocka_unit_test(test_mutual_cycle),
		cmocka_unit_test(test_member_renamed_type),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
