// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for collectors/dwarf/source-tree.c: declaring files made
 * relative to the top of the source tree, from the paths and build
 * directories real kernels' DWARF holds (Debian's 6.1 and 6.12 packages,
 * an O= build with an absolute tree, a build directory inside the tree),
 * and the top learnt from a unit of a fixture.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "collectors/dwarf/source-tree.h"

#define MINI	SRCDIR "/tests/fixtures/vmlinux/mini.elf"

/* @path of a unit compiled in @comp_dir, in the tree whose top is @top */
static void expect(const char *top, const char *comp_dir, const char *path,
		   const char *want)
{
	struct source_tree t = { .top = (char *)top };
	char *got;

	assert_int_equal(source_tree__path(&t, comp_dir, path, &got), 0);
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

/* The tree's path mapped to nothing: names relative to the top. */
static void test_debian(void **state)
{
	const char *build = "debian/build/build_amd64_none_amd64";

	expect("", build, "fs/read_write.c", "fs/read_write.c");
	expect("", build, "arch/x86/include/uapi/asm/stat.h",
	       "arch/x86/include/uapi/asm/stat.h");
	/* vdso32/vclock_gettime.c includes ../vclock_gettime.c */
	expect("", build, "arch/x86/entry/vdso/vdso32/../vclock_gettime.c",
	       "arch/x86/entry/vdso/vclock_gettime.c");
	/* generated, in the build directory */
	expect("", build, "./arch/x86/include/generated/asm/syscalls_64.h",
	       "arch/x86/include/generated/asm/syscalls_64.h");
	expect("", build, "debian/build/build_amd64_none_amd64/.vmlinux.export.c",
	       ".vmlinux.export.c");
	/* GCC's own, no file */
	expect("", build, "debian/build/build_amd64_none_amd64/<built-in>",
	       NULL);
	/* an assembler's unit that the prefix map missed */
	expect("", build,
	       "/build/reproducible-path/linux-6.1.192/arch/x86/lib/memcpy_64.S",
	       NULL);
}

/* O= with an absolute tree: kabidiff's fixture kernels. */
static void test_absolute_tree(void **state)
{
	const char *top = "/cache/kabi-linux", *build = "/cache/kabi-build";

	expect(top, build, "/cache/kabi-linux/fs/stat.c", "fs/stat.c");
	expect(top, build,
	       "/cache/kabi-linux/arch/x86/entry/vdso/../../../../lib/vdso/gettimeofday.c",
	       "lib/vdso/gettimeofday.c");
	expect(top, build, "./lib/crc32table.h", "lib/crc32table.h");
	expect(top, build, "/cache/kabi-build/include/generated/uapi/linux/version.h",
	       "include/generated/uapi/linux/version.h");
	/* a compiler's header */
	expect(top, build, "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h",
	       NULL);
	/* a sibling whose name starts with the top's is not inside it */
	expect(top, build, "/cache/kabi-linux-old/fs/stat.c", NULL);
	expect(top, build, "/cache/kabi-linux", NULL);
}

/* The build directory inside the tree: it goes first. */
static void test_build_inside(void **state)
{
	expect("/src/linux", "/src/linux/build",
	       "/src/linux/build/include/generated/autoconf.h",
	       "include/generated/autoconf.h");
	expect("/src/linux", "/src/linux/build//",
	       "/src/linux//include/linux/types.h", "include/linux/types.h");
	/* the tree spelt relative to the build directory */
	expect("..", "/src/linux/build", "../include/linux/types.h",
	       "include/linux/types.h");
	expect("..", "/src/linux/build", "../../other/x.h", NULL);
	expect("..", "/src/linux/build", "./include/generated/autoconf.h",
	       "include/generated/autoconf.h");
}

/* Without a known top, or a comp_dir, what is left of the rules. */
static void test_unknown(void **state)
{
	expect(NULL, "/work/tests/fixtures/vmlinux",
	       "/work/tests/fixtures/vmlinux/mini.c", "mini.c");
	expect(NULL, "/work/tests/fixtures/vmlinux", "/elsewhere/mini.c", NULL);
	expect(NULL, NULL, "include/linux/types.h", "include/linux/types.h");
	expect(NULL, NULL, "../include/linux/types.h", NULL);
	expect(NULL, NULL, "/x/../../", NULL);
	expect(NULL, NULL, "./", NULL);
}

/* mini.elf's one unit is "mini.c", compiled in the fixture's directory. */
static void test_find(void **state)
{
	struct source_tree t = { 0 };
	int fd = open(MINI, O_RDONLY);
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);

	assert_non_null(dw);
	assert_int_equal(source_tree__find(&t, dw, "init/main.c"), 0);
	assert_null(t.top);
	assert_int_equal(source_tree__find(&t, dw, "ini.c"), 0);
	assert_null(t.top);
	assert_int_equal(source_tree__find(&t, dw, "mini.c"), 0);
	assert_string_equal(t.top, "");
	source_tree__release(&t);
	assert_null(t.top);
	dwarf_end(dw);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),
		cmocka_unit_test(test_absolute_tree),
		cmocka_unit_test(test_build_inside),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_find),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
