// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vdso collector on the images of tests/fixtures/vdso (vdso.c and
 * vsyscall.S say what each holds): the symbols and their versions, two of
 * them in vdso32; the prototypes, a weak alias's that of its function and
 * none for a function in assembly; the types under the image's prefix,
 * in the image's own sizes; and a second file of one image refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "collectors/vdso/vdso.h"
#include "lib/print.h"
#include "model/model.h"

#define FIXTURE(name)	SRCDIR "/tests/fixtures/vdso/" name

static char errors[1024];

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(errors);

	if (level <= KABI_WARN)
		vsnprintf(errors + used, sizeof(errors) - used, fmt, ap);
}

/* @path collected into a new snapshot, sorted */
static struct snapshot *collect(const char *path)
{
	struct snapshot *s = snapshot__new();

	assert_non_null(s);
	assert_int_equal(vdso__collect(path, s), 0);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	return s;
}

static const struct vdso_symbol *find_symbol(const struct snapshot *s,
					     const char *name)
{
	size_t i;

	for (i = 0; i < s->vdso.nr; i++)
		if (!strcmp(s->vdso.v[i].name, name))
			return &s->vdso.v[i];
	fail_msg("no symbol %s", name);
	return NULL;
}

static const struct type_def *find_type(const struct snapshot *s,
					const char *name)
{
	size_t i;

	for (i = 0; i < s->types.nr; i++)
		if (!strcmp(s->types.v[i].name, name))
			return &s->types.v[i];
	fail_msg("no type %s", name);
	return NULL;
}

/* vdso32: LINUX_2.6 for the clock functions, LINUX_2.5 for the entry */
static void test_two_versions(void **state)
{
	struct snapshot *s = collect(FIXTURE("vdso32.so"));
	const struct vdso_symbol *vsyscall = find_symbol(s, "__kernel_vsyscall");
	const struct vdso_symbol *gettime = find_symbol(s, "__vdso_clock_gettime");
	size_t i;

	assert_int_equal(s->vdso.nr, 6);
	for (i = 0; i < s->vdso.nr; i++)
		assert_string_equal(s->vdso.v[i].image, "vdso32");
	assert_string_equal(vsyscall->version, "LINUX_2.5");
	assert_null(vsyscall->ret.type);	/* gas's subprogram is none */
	assert_int_equal(vsyscall->nr_args, 0);
	assert_string_equal(gettime->version, "LINUX_2.6");
	assert_string_equal(gettime->ret.type, "vdso32:int");
	assert_int_equal(gettime->nr_args, 2);
	assert_string_equal(gettime->args[0].name, "clock");
	assert_string_equal(gettime->args[0].type, "vdso32:__kernel_clockid_t");
	assert_string_equal(gettime->args[1].type,
			    "vdso32:struct __kernel_timespec *");
	assert_int_equal(find_type(s, "vdso32:struct __kernel_old_timeval")->size, 8);
	assert_int_equal(find_type(s, "vdso32:long int")->size, 4);
	snapshot__free(s);
}

/* The weak alias clock_gettime has the prototype of __vdso_clock_gettime. */
static void test_alias(void **state)
{
	struct snapshot *s = collect(FIXTURE("vdso64.so"));
	const struct vdso_symbol *alias = find_symbol(s, "clock_gettime");
	const struct vdso_symbol *fn = find_symbol(s, "__vdso_clock_gettime");

	assert_string_equal(alias->version, "LINUX_2.6");
	assert_string_equal(alias->ret.type, fn->ret.type);
	assert_int_equal(alias->nr_args, fn->nr_args);
	assert_string_equal(alias->args[1].type, "vdso64:struct __kernel_timespec *");
	assert_int_equal(find_type(s, "vdso64:struct __kernel_old_timeval")->size, 16);
	snapshot__free(s);
}

/* x32: a 32-bit x86_64 ELF, its longs 4 bytes */
static void test_x32(void **state)
{
	struct snapshot *s = collect(FIXTURE("vdsox32.so"));

	assert_string_equal(s->vdso.v[0].image, "vdsox32");
	assert_int_equal(find_type(s, "vdsox32:struct __kernel_old_timeval")->size, 8);
	assert_int_equal(find_type(s, "vdsox32:struct __kernel_timespec")->size, 16);
	snapshot__free(s);
}

/* The images of two kernels' types never share a name. */
static void test_images_apart(void **state)
{
	struct snapshot *s = snapshot__new();

	assert_int_equal(vdso__collect(FIXTURE("vdso64.so"), s), 0);
	assert_int_equal(vdso__collect(FIXTURE("vdso32.so"), s), 0);
	assert_int_equal(vdso__collect(FIXTURE("vdsox32.so"), s), 0);
	assert_int_equal(snapshot__sort(s, "test"), 0);
	assert_int_equal(s->vdso.nr, 7 + 6 + 7);
	assert_int_equal(find_type(s, "vdso64:struct timezone")->size, 8);
	assert_int_equal(find_type(s, "vdso32:struct timezone")->size, 8);
	snapshot__free(s);
}

static void test_second_image(void **state)
{
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t old = kabi_set_print(capture);

	errors[0] = '\0';
	assert_int_equal(vdso__collect(FIXTURE("vdso64.so"), s), 0);
	assert_int_equal(vdso__collect(FIXTURE("vdso64-new.so"), s), -EEXIST);
	kabi_set_print(old);
	assert_string_equal(errors, FIXTURE("vdso64-new.so")
			    ": a second vdso64 image: give one file of each image");
	snapshot__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_versions),
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_x32),
		cmocka_unit_test(test_images_apart),
		cmocka_unit_test(test_second_image),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
