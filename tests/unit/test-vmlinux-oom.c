// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vmlinux collector out of memory: collecting mini.elf (and a syscall
 * table), and compat-switch.elf with its syscall_32.tbl and syscall_64.tbl,
 * with the Nth allocation failing, for every N until none fails, must
 * return -ENOMEM and report "PATH: out of memory", one error line and no
 * other, never a snapshot with a part quietly missing.
 *
 * The failures are injected at link time: the Makefile links this test
 * with -Wl,--wrap for the allocation functions, so the calls the objects
 * make go to the __wrap_ functions here.  Allocations inside libelf and
 * libdw are theirs and not counted.  Under ASan the same run also finds
 * what a failure path leaks.
 *
 * The same for syscall_switch__decode() on a switch of switch.elf: each
 * failure returns -ENOMEM, reports nothing (its caller says it) and leaves
 * the map empty.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "collectors/vmlinux/kimage.h"
#include "collectors/vmlinux/syscall-switch.h"
#include "collectors/vmlinux/vmlinux.h"
#include "lib/print.h"
#include "model/model.h"

#define MINI	SRCDIR "/tests/fixtures/vmlinux/mini.elf"
#define COMPAT	SRCDIR "/tests/fixtures/vmlinux/compat-switch.elf"
#define SWITCH	SRCDIR "/tests/fixtures/vmlinux/switch.elf"

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_reallocarray(void *p, size_t nmemb, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_reallocarray(void *p, size_t nmemb, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static unsigned long allocations, fail_at;	/* 0: none fails */

/* true when this allocation is the one to fail */
static int fail_now(void)
{
	if (!fail_at || ++allocations != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t size)
{
	return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	return fail_now() ? NULL : __real_calloc(nmemb, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fail_now() ? NULL : __real_realloc(p, size);
}

void *__wrap_reallocarray(void *p, size_t nmemb, size_t size)
{
	return fail_now() ? NULL : __real_reallocarray(p, nmemb, size);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

static char errors[4096];
static unsigned int nr_errors;

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(errors);

	if (level != KABI_ERROR)
		return;
	nr_errors++;
	vsnprintf(errors + used, sizeof(errors) - used, fmt, ap);
	used = strlen(errors);
	snprintf(errors + used, sizeof(errors) - used, "\n");
}

static char tbl_dir[] = "/tmp/kabidiff-test-oom.XXXXXX";

/*
 * Collect @vmlinux with allocation @n failing.  Returns whether it came to
 * that, with what vmlinux__collect() returned in *@err; a run that did not
 * is checked for what mini.elf, or compat-switch.elf, holds.
 */
static bool collect_failing_at(const char *vmlinux, unsigned long n,
			       const char *syscalls_dir, int *err)
{
	struct vmlinux_stats st = { 0 };
	struct snapshot *s = snapshot__new();
	bool mini = !strcmp(vmlinux, MINI), failed;

	assert_non_null(s);
	errors[0] = '\0';
	nr_errors = 0;
	allocations = 0;
	fail_at = n;
	*err = vmlinux__collect(vmlinux, syscalls_dir, syscalls_dir, s, &st);
	fail_at = 0;
	failed = allocations >= n;
	if (!failed) {
		assert_int_equal(*err, 0);
		assert_int_equal(nr_errors, 0);
		assert_int_equal(s->nr_syscall_abis, 3);
		/* x86_64 0-4, ia32 0-8, x32 0-513 */
		assert_int_equal(s->syscalls.nr, mini ? 5 : 5 + 9 + 514);
		assert_string_equal(s->syscalls.v[0].name, "read");
		if (mini)
			assert_string_equal(s->syscalls.v[1].name,
					    syscalls_dir ? "stat" : "newstat");
		else
			assert_string_equal(s->syscalls.v[s->syscalls.nr - 1].name,
					    "rt_sigreturn");
		assert_non_null(s->kernel.arch);
		assert_non_null(s->kernel.build_id);
		assert_non_null(s->kernel.release);
		assert_true(!mini || s->types.nr > 0);
	}
	snapshot__free(s);
	return failed;
}

static void every_allocation_fails(const char *vmlinux, const char *syscalls_dir)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	char want[256];
	unsigned long n;
	int err;

	snprintf(want, sizeof(want), "%s: out of memory\n", vmlinux);
	for (n = 1; collect_failing_at(vmlinux, n, syscalls_dir, &err); n++) {
		if (err == -ENOMEM && nr_errors == 1 && !strcmp(errors, want))
			continue;
		kabi_set_print(old);
		fail_msg("allocation %lu failing: returned %d, reported:\n%s",
			 n, err, errors);
	}
	kabi_set_print(old);
	/* the collector allocates: the runs above did test something */
	assert_true(n > 20);
	print_message("# %lu allocations, each failed once\n", n - 1);
}

static void test_vmlinux_oom(void **state)
{
	every_allocation_fails(MINI, NULL);
}

static void test_vmlinux_oom_with_table(void **state)
{
	every_allocation_fails(MINI, tbl_dir);
}

/* three ABIs, tables and switches, named and checked by their rows */
static void test_vmlinux_oom_compat(void **state)
{
	every_allocation_fails(COMPAT, tbl_dir);
}

/* the x32-like jump tables: forks, table reads, names for 518 numbers */
static void test_switch_oom(void **state)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	struct switch_map map;
	struct kimage k;
	unsigned long n;
	int err;

	assert_int_equal(kimage__open(&k, SWITCH), 0);
	for (n = 1;; n++) {
		errors[0] = '\0';
		nr_errors = 0;
		allocations = 0;
		fail_at = n;
		err = syscall_switch__decode(&k, "table_x32_sys_call", "__x64_", &map);
		fail_at = 0;
		if (allocations < n)
			break;
		if (err != -ENOMEM || nr_errors || map.nr || map.v || map.def.name) {
			kabi_set_print(old);
			fail_msg("allocation %lu failing: returned %d, reported:\n%s",
				 n, err, errors);
		}
	}
	kabi_set_print(old);
	assert_int_equal(err, 0);
	assert_int_equal(map.nr, 518);
	switch_map__release(&map);
	kimage__close(&k);
	assert_true(n > 20);
	print_message("# %lu allocations, each failed once\n", n - 1);
}

/* @tbl_dir/@name holds @lines */
static int write_tbl(const char *name, const char *lines)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tbl_dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(lines, f);
	return fclose(f);
}

/* Rows that name mini.elf's syscalls and check compat-switch.elf's. */
static int set_up(void **state)
{
	static const char tbl64[] =
		"# comment\n"
		"0\tcommon\tread\t\tsys_read\n"
		"1\t64\tstat\t\tsys_newstat\n"
		"2\tcommon\tgetpid\t\tsys_getpid\n"
		"4\tcommon\ttimer_create\tsys_timer_create\n"
		"512\tx32\tioctl\t\tcompat_sys_ioctl\n"
		"513\tx32\trt_sigreturn\tcompat_sys_x32_rt_sigreturn\n";
	static const char tbl32[] =
		"0\ti386\tread\t\tsys_read\n"
		"1\ti386\tioctl\t\tsys_ioctl\t\tcompat_sys_ioctl\n"
		"2\ti386\tfcntl\t\tsys_fcntl\t\tcompat_sys_fcntl64\n"
		"4\ti386\tfcntl64\t\tsys_fcntl64\t\tcompat_sys_fcntl64\n"
		"5\ti386\tpread64\t\tsys_ia32_pread64\n"
		"6\ti386\tlookup_dcookie\tsys_lookup_dcookie\tcompat_sys_lookup_dcookie\n"
		"7\ti386\ttimer_create\tsys_timer_create\tcompat_sys_timer_create\n"
		"8\ti386\tgetpid\t\tsys_getpid\n";

	if (!mkdtemp(tbl_dir))
		return -1;
	return write_tbl("syscall_64.tbl", tbl64) ||
	       write_tbl("syscall_32.tbl", tbl32);
}

static int tear_down(void **state)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/syscall_64.tbl", tbl_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/syscall_32.tbl", tbl_dir);
	unlink(path);
	return rmdir(tbl_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmlinux_oom),
		cmocka_unit_test(test_vmlinux_oom_with_table),
		cmocka_unit_test(test_vmlinux_oom_compat),
		cmocka_unit_test(test_switch_oom),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, set_up, tear_down);
}
