// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for diff/types.c: spellings through typedefs, type graphs with
 * cycles compared side by side, and spellings of any length.
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

/* Spellings @sa in @a and @sb in @b resolved as the sort does, compared. */
static int equiv(const struct snapshot *a, const struct snapshot *b,
		 const char *sa, const char *sb)
{
	struct type_ref ra, rb;
	int same;

	assert_int_equal(type_ref__parse(a, sa, &ra), 0);
	assert_int_equal(type_ref__parse(b, sb, &rb), 0);
	same = types_ref_equiv(a, b, sa, &ra, sb, &rb);
	type_ref__release(&ra);
	type_ref__release(&rb);
	return same;
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
	assert_int_equal(snapshot__sort(b, "b"), 0);	/* the refs again */
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

/* A string of @n bytes: @head, then letters of a made-up name. */
static char *long_string(const char *head, size_t n)
{
	size_t i, len = strlen(head);
	char *s = malloc(n + 1);

	assert_non_null(s);
	assert_true(len <= n);
	memcpy(s, head, len);
	for (i = len; i < n; i++)
		s[i] = i % 8 == 7 ? '_' : 'a' + i % 26;
	s[n] = '\0';
	return s;
}

/* @head, then @n bytes of @long_part, then @tail: malloc()ed. */
static char *spell(const char *head, const char *long_part, const char *tail)
{
	char *s = NULL;

	assert_true(asprintf(&s, "%s%s%s", head, long_part, tail) > 0);
	return s;
}

/*
 * Two spellings of over 300 bytes that differ in their last 10 only: a
 * member whose structure is another one with a long name (generated by
 * macros, say), and a callback taking many arguments whose last one
 * changed.  Both are member-type-changed, and incompatible.
 */
static void test_long_spellings(void **state)
{
	char *name = long_string("struct kabi_", 300);
	char *args = NULL;
	char *old_struct = spell(name, "", "_v1_legacy");
	char *new_struct = spell(name, "", "_v2_extend");
	char *old_cb, *new_cb;
	struct snapshot *a = base_types(), *b = base_types();
	struct diff d = { 0 };
	size_t i, found = 0;

	for (i = 0; i < 11; i++) {
		char *next = spell(args ? args : "", "struct kabi_selftest_args *",
				   ", ");

		free(args);
		args = next;
	}
	old_cb = spell("long int (*)(", args, "__u32 *)");
	new_cb = spell("long int (*)(", args, "__u64 *)");
	assert_true(strlen(old_struct) > 300 && strlen(old_cb) > 300);
	assert_int_equal(strlen(old_struct), strlen(new_struct));
	assert_memory_equal(old_struct, new_struct, strlen(old_struct) - 10);
	assert_int_equal(strlen(old_cb), strlen(new_cb));
	assert_memory_equal(old_cb, new_cb, strlen(old_cb) - 10);

	type(a, "struct holder", TYPE_STRUCT, 16, NULL);
	member(a, "v", old_struct, 0, 4);
	member(a, "cb", old_cb, 8, 8);
	type(a, old_struct, TYPE_STRUCT, 4, NULL);
	member(a, "x", "int", 0, 4);
	type(b, "struct holder", TYPE_STRUCT, 16, NULL);
	member(b, "v", new_struct, 0, 4);
	member(b, "cb", new_cb, 8, 8);
	type(b, new_struct, TYPE_STRUCT, 4, NULL);
	member(b, "x", "unsigned int", 0, 4);
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(equiv(a, b, old_struct, new_struct), 0);
	assert_int_equal(equiv(a, b, old_cb, new_cb), 0);

	assert_int_equal(diff_types(a, b, &d), 0);
	for (i = 0; i < d.nr; i++) {
		if (strcmp(d.v[i].subject, "struct holder.v") &&
		    strcmp(d.v[i].subject, "struct holder.cb"))
			continue;
		assert_int_equal(d.v[i].kind, CHANGE_MEMBER_TYPE_CHANGED);
		assert_int_equal(change_kind__class(d.v[i].kind),
				 CLASS_INCOMPATIBLE);
		found++;
	}
	assert_int_equal(found, 2);
	diff__release(&d);
	snapshot__free(a);
	snapshot__free(b);
	free(name);
	free(args);
	free(old_struct);
	free(new_struct);
	free(old_cb);
	free(new_cb);
}

/*
 * A chain of typedefs, of long names, to a pointer to a pointer: looked
 * through to the end, each declarator inside the one seen before.
 */
static void test_typedef_chain(void **state)
{
	char *name = long_string("kabi_", 320);
	char *t1 = spell(name, "", "_level_one");
	char *t2 = spell(name, "", "_level_two");
	char *t2_ptr = spell(t2, "", " *");
	char *t1_arr = spell(t1, "", " [2]");
	struct snapshot *a = base_types(), *b = base_types();

	type(a, "u32_pp", TYPE_TYPEDEF, 8, "u32_ptr *");
	type(a, t1, TYPE_TYPEDEF, 8, t2_ptr);
	type(a, t2, TYPE_TYPEDEF, 8, "const u32_ptr");
	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);

	assert_int_equal(equiv(a, b, "u32_pp", "unsigned int **"), 1);
	assert_int_equal(equiv(a, b, "u32_pp [3]", "unsigned int **[3]"), 1);
	assert_int_equal(equiv(a, b, "const u32_pp *", "u32_ptr **"), 1);
	assert_int_equal(equiv(a, b, "u32_pp", "unsigned int *"), 0);
	/* t1 [2]: t2 * [2]: u32_ptr * [2]: __u32 ** [2]: unsigned int **[2] */
	assert_int_equal(equiv(a, b, t1_arr, "unsigned int **[2]"), 1);
	assert_int_equal(equiv(a, b, t1_arr, "__u32 **[2]"), 1);
	assert_int_equal(equiv(a, b, t1_arr, "unsigned int *[2]"), 0);
	assert_int_equal(equiv(a, b, t1_arr, "unsigned int **[3]"), 0);
	assert_int_equal(equiv(a, b, t1_arr, "int **[2]"), 0);
	assert_int_equal(equiv(a, a, t1, t2_ptr), 1);
	snapshot__free(a);
	snapshot__free(b);
	free(name);
	free(t1);
	free(t2);
	free(t2_ptr);
	free(t1_arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typedefs),
		cmocka_unit_test(test_self_cycle),
		cmocka_unit_test(test_mutual_cycle),
		cmocka_unit_test(test_member_renamed_type),
		cmocka_unit_test(test_long_spellings),
		cmocka_unit_test(test_typedef_chain),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
