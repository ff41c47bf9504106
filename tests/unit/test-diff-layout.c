// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the layout rules of diff/types.c and diff/syscalls.c:
 * anonymous members compared flattened, extensible types grown at their
 * end, padding named "spare" given away, T[1] to T[], and a syscall
 * pointer that points to another type.  Each rule has its negative: what
 * it must still report.
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

#include "diff/parts.h"

static void type(struct snapshot *s, const char *name, enum type_kind kind,
		 uint64_t size, const char *target)
{
	struct type_def *t = snapshot__add_type(s);

	t->name = strdup(name);
	t->kind = kind;
	t->size = size;
	t->target = target ? strdup(target) : NULL;
}

/* Members are added to the type added last; a NULL @name is unnamed. */
static void member(struct snapshot *s, const char *name, const char *type,
		   uint64_t offset, uint64_t size)
{
	struct type_member *m = type__add_member(&s->types.v[s->types.nr - 1]);

	m->name = name ? strdup(name) : NULL;
	m->type = strdup(type);
	m->offset = offset;
	m->size = size;
}

/* A syscall "foo" of up to three arguments: "TYPE NAME" each. */
static void syscall(struct snapshot *s, const char *name, const char *type1,
		    const char *name1, const char *type2, const char *name2)
{
	struct syscall *sc = snapshot__add_syscall(s);
	const char *types[] = { type1, type2 }, *names[] = { name1, name2 };
	size_t i;

	sc->abi = strdup("x86_64");
	sc->name = strdup(name);
	sc->nr = 1;
	sc->implemented = true;
	sc->sources = SYSCALL_SRC_ALL;
	for (i = 0; i < 2 && types[i]; i++) {
		struct syscall_arg *arg = syscall__add_arg(sc);

		arg->type = strdup(types[i]);
		arg->name = strdup(names[i]);
	}
}

static struct snapshot *base_types(void)
{
	struct snapshot *s = snapshot__new();

	s->syscalls.collected = true;
	type(s, "char", TYPE_BASE, 1, NULL);
	type(s, "int", TYPE_BASE, 4, NULL);
	type(s, "long int", TYPE_BASE, 8, NULL);
	type(s, "unsigned int", TYPE_BASE, 4, NULL);
	type(s, "long unsigned int", TYPE_BASE, 8, NULL);
	type(s, "short unsigned int", TYPE_BASE, 2, NULL);
	type(s, "__u16", TYPE_TYPEDEF, 2, "short unsigned int");
	type(s, "__u32", TYPE_TYPEDEF, 4, "unsigned int");
	type(s, "__u64", TYPE_TYPEDEF, 8, "long unsigned int");
	type(s, "size_t", TYPE_TYPEDEF, 8, "long unsigned int");
	return s;
}

/*
 * Sort both, run the type and syscall parts, and compare what they found,
 * "KIND SUBJECT" a line in the order found, with @want.
 */
static void check(struct snapshot *a, struct snapshot *b, const char *want)
{
	struct diff d = { 0 };
	char got[4096] = "";
	size_t i, len = 0;

	assert_int_equal(snapshot__sort(a, "a"), 0);
	assert_int_equal(snapshot__sort(b, "b"), 0);
	assert_int_equal(diff_syscalls(a, b, &d), 0);
	assert_int_equal(diff_types(a, b, &d), 0);
	for (i = 0; i < d.nr; i++)
		len += snprintf(got + len, sizeof(got) - len, "%s %s\n",
				change_kind__name(d.v[i].kind), d.v[i].subject);
	assert_string_equal(got, want);
	diff__release(&d);
	snapshot__free(a);
	snapshot__free(b);
}

/* union attr { struct { __u32 prog_fd; __u32 target_fd; } link_create; } */
static struct snapshot *old_attr(void)
{
	struct snapshot *s = base_types();

	type(s, "union attr", TYPE_UNION, 8, NULL);
	member(s, "link_create", "struct (union attr.link_create)", 0, 8);
	type(s, "struct (union attr.link_create)", TYPE_STRUCT, 8, NULL);
	member(s, "prog_fd", "__u32", 0, 4);
	member(s, "target_fd", "__u32", 4, 4);
	return s;
}

/* ... prog_fd wrapped: union { @prog_type prog_fd; __u32 map_fd; }; */
static struct snapshot *new_attr(const char *prog_type, uint64_t prog_size)
{
	struct snapshot *s = base_types();

	type(s, "union attr", TYPE_UNION, 8, NULL);
	member(s, "link_create", "struct (union attr.link_create)", 0, 8);
	type(s, "struct (union attr.link_create)", TYPE_STRUCT, 8, NULL);
	member(s, NULL, "union (union attr.link_create.{prog_fd})", 0, 4);
	member(s, "target_fd", "__u32", 4, 4);
	type(s, "union (union attr.link_create.{prog_fd})", TYPE_UNION, 4, NULL);
	member(s, "prog_fd", prog_type, 0, prog_size);
	member(s, "map_fd", "__u32", 0, 4);
	return s;
}

static void test_anonymous_flattened(void **state)
{
	/* the same member at the same place: only map_fd is new */
	check(old_attr(), new_attr("__u32", 4),
	      "member-added union attr.link_create.map_fd\n");
	/* a real change inside the anonymous union, on the named path */
	check(old_attr(), new_attr("__u16", 2),
	      "member-type-changed union attr.link_create.prog_fd\n"
	      "member-added union attr.link_create.map_fd\n");
}

/* Snapshots of older collectors named anonymous types by ordinal. */
static void test_anonymous_by_ordinal(void **state)
{
	struct snapshot *a = base_types(), *b = base_types();

	type(a, "struct s", TYPE_STRUCT, 8, NULL);
	member(a, "x", "__u32", 0, 4);
	member(a, NULL, "union (struct s member 1)", 4, 4);
	type(a, "union (struct s member 1)", TYPE_UNION, 4, NULL);
	member(a, "y", "__u32", 0, 4);
	type(b, "struct s", TYPE_STRUCT, 8, NULL);
	member(b, NULL, "union (struct s member 0)", 0, 4);
	member(b, "y", "__u32", 4, 4);
	type(b, "union (struct s member 0)", TYPE_UNION, 4, NULL);
	member(b, "x", "__u32", 0, 4);
	check(a, b, "");
}

/* struct args { __u32 a; __u32 @b_type b; [__u64 c;] } */
static struct snapshot *args(bool grown, const char *b_type, uint64_t b_size,
			     bool with_size)
{
	struct snapshot *s = base_types();

	type(s, "struct args", TYPE_STRUCT, grown ? 16 : 8, NULL);
	member(s, "a", "__u32", 0, 4);
	member(s, "b", b_type, 4, b_size);
	if (grown)
		member(s, "c", "__u64", 8, 8);
	if (with_size)
		syscall(s, "foo", "struct args *", "uargs", "size_t", "size");
	else
		syscall(s, "foo", "struct args *", "uargs", "int", "flags");
	return s;
}

static void test_type_extended(void **state)
{
	check(args(false, "__u32", 4, true), args(true, "__u32", 4, true),
	      "type-extended struct args\n"
	      "member-added struct args.c\n");
	/* an old member changed: still a break */
	check(args(false, "__u32", 4, true), args(true, "__u16", 2, true),
	      "type-size-changed struct args\n"
	      "member-type-changed struct args.b\n"
	      "member-added struct args.c\n");
	/* not passed with its size: growing is a size change */
	check(args(false, "__u32", 4, false), args(true, "__u32", 4, false),
	      "type-size-changed struct args\n"
	      "member-added struct args.c\n");
}

/*
 * args() of a kernel that declares its types in @header and foo in
 * @source (NULL: the snapshot does not know).
 */
static struct snapshot *args_in(const char *header, const char *source)
{
	struct snapshot *s = args(false, "__u32", 4, true);
	size_t i;

	for (i = 0; i < s->types.nr; i++)
		s->types.v[i].file = header ? strdup(header) : NULL;
	s->syscalls.v[0].file = source ? strdup(source) : NULL;
	return s;
}

/*
 * Where a type or a syscall is declared is not ABI: types moved to another
 * header and a syscall to another file, or a snapshot that does not know
 * where they are, are no change.
 */
static void test_file_ignored(void **state)
{
	check(args_in("include/uapi/linux/a.h", "fs/a.c"),
	      args_in("include/uapi/asm-generic/b.h", "kernel/b.c"), "");
	check(args_in(NULL, NULL), args_in("include/uapi/linux/a.h", "fs/a.c"),
	      "");
	check(args_in("include/uapi/linux/a.h", "fs/a.c"), args_in(NULL, NULL),
	      "");
}

/* struct attr { __u32 type; __u32 @second; [__u64 config;] } */
static struct snapshot *attr(bool grown, const char *second)
{
	struct snapshot *s = base_types();

	type(s, "struct attr", TYPE_STRUCT, grown ? 16 : 8, NULL);
	member(s, "type", "__u32", 0, 4);
	member(s, second, "__u32", 4, 4);
	if (grown)
		member(s, "config", "__u64", 8, 8);
	syscall(s, "bar", "struct attr *", "uattr", "int", "flags");
	return s;
}

static void test_own_size_member(void **state)
{
	check(attr(false, "size"), attr(true, "size"),
	      "type-extended struct attr\n"
	      "member-added struct attr.config\n");
	check(attr(false, "flags"), attr(true, "flags"),
	      "type-size-changed struct attr\n"
	      "member-added struct attr.config\n");
}

/* struct sx { __u64 a; __u64 @pad[3]; } or { a; __u64 b; __u64 @pad[2]; } */
static struct snapshot *sx(bool used, const char *pad)
{
	struct snapshot *s = base_types();

	type(s, "struct sx", TYPE_STRUCT, 32, NULL);
	member(s, "a", "__u64", 0, 8);
	if (used) {
		member(s, "b", "__u64", 8, 8);
		member(s, pad, "__u64[2]", 16, 16);
	} else {
		member(s, pad, "__u64[3]", 8, 24);
	}
	return s;
}

static void test_spare_shrinks(void **state)
{
	check(sx(false, "__spare3"), sx(true, "__spare3"),
	      "member-reserved-used struct sx.b\n");
	check(sx(false, "spare_1"), sx(true, "spare_1"),
	      "member-reserved-used struct sx.b\n");
	/* not named like padding: its space was not free */
	check(sx(false, "payload"), sx(true, "payload"),
	      "member-type-changed struct sx.payload\n"
	      "member-added struct sx.b\n");
}

/* struct dirent { __u64 ino; @name_type name; } */
static struct snapshot *dirent(const char *name_type, uint64_t size)
{
	struct snapshot *s = base_types();

	type(s, "struct dirent", TYPE_STRUCT, 16, NULL);
	member(s, "ino", "__u64", 0, 8);
	member(s, "name", name_type, 8, size);
	return s;
}

static void test_flexible_array(void **state)
{
	check(dirent("char[1]", 1), dirent("char[]", 0), "");
	check(dirent("char[0]", 0), dirent("char[]", 0), "");
	/* four bytes the caller could count on are gone */
	check(dirent("char[4]", 4), dirent("char[]", 0),
	      "member-type-changed struct dirent.name\n");
	/* another element type */
	check(dirent("char[1]", 1), dirent("__u32[]", 0),
	      "member-type-changed struct dirent.name\n");
}

static struct snapshot *one_arg(const char *type)
{
	struct snapshot *s = base_types();

	syscall(s, "foo", "int", "dfd", type, "p");
	return s;
}

static void test_pointee_changed(void **state)
{
	check(one_arg("int *"), one_arg("void *"),
	      "syscall-arg-pointee-changed x86_64/foo\n");
	check(one_arg("int *"), one_arg("unsigned int *"),
	      "syscall-arg-pointee-changed x86_64/foo\n");
	check(one_arg("__u32 *"), one_arg("unsigned int *"), "");
	/* the kernel would write eight bytes into the caller's four */
	check(one_arg("int *"), one_arg("long int *"),
	      "syscall-args-changed x86_64/foo\n");
	/* not a pointer any more */
	check(one_arg("int *"), one_arg("long int"),
	      "syscall-args-changed x86_64/foo\n");
	check(one_arg("int"), one_arg("long int"),
	      "syscall-args-changed x86_64/foo\n");
}

/* ia32's foo(@type p), which its programs pass in @abi_size bytes */
static struct snapshot *ia32_arg(const char *type, uint32_t abi_size)
{
	struct snapshot *s = one_arg(type);
	struct syscall *sc = &s->syscalls.v[0];

	free(sc->abi);
	sc->abi = strdup("ia32");
	sc->args[1].abi_size = abi_size;
	return s;
}

/*
 * The size a 32-bit program passes is the ABI: the same spelling passed
 * in 8 bytes where it was 4 is a change, whatever the x86_64 DWARF says.
 */
static void test_abi_size_changed(void **state)
{
	check(ia32_arg("size_t", 4), ia32_arg("size_t", 4), "");
	check(ia32_arg("size_t", 4), ia32_arg("size_t", 8),
	      "syscall-args-changed ia32/foo\n");
	check(ia32_arg("int *", 4), ia32_arg("void *", 4),
	      "syscall-arg-pointee-changed ia32/foo\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anonymous_flattened),
		cmocka_unit_test(test_anonymous_by_ordinal),
		cmocka_unit_test(test_type_extended),
		cmocka_unit_test(test_file_ignored),
		cmocka_unit_test(test_own_size_member),
		cmocka_unit_test(test_spare_shrinks),
		cmocka_unit_test(test_flexible_array),
		cmocka_unit_test(test_pointee_changed),
		cmocka_unit_test(test_abi_size_changed),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
