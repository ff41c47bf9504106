// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vmlinux collector's three syscall ABIs, on the compat-*.elf fixtures
 * of tests/fixtures/vmlinux (their source, compat.c, says what each holds):
 * the tables of older kernels, the switches of newer ones beside a table
 * they must agree with, the ABI names and the checks of syscall_32.tbl
 * and syscall_64.tbl, a kernel without ia32 or x32 (mini.elf), and the
 * signatures of each ABI (compat-args.elf).  Each disagreement is one
 * error naming both sides.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "collectors/vmlinux/vmlinux.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "model/model.h"

#define FIXTURE(name)	SRCDIR "/tests/fixtures/vmlinux/" name

static char errors[2048];
static unsigned int nr_messages;

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(errors);

	if (level > KABI_WARN)
		return;
	nr_messages++;
	vsnprintf(errors + used, sizeof(errors) - used, fmt, ap);
}

static char dir[] = "/tmp/kabidiff-test-compat.XXXXXX";

/* @dir/@name holds @text */
static void write_tbl(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The .tbl files and the generated headers, of the tests that wrote them. */
static void remove_tbls(void)
{
	static const char *const names[] = {
		"syscall_32.tbl", "syscall_64.tbl",
		"syscalls_32.h", "syscalls_64.h", "syscalls_x32.h",
	};
	char path[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
}

static const char tbl32[] =
	"# <number> <abi> <name> <entry point> <compat entry point>\n"
	"0\ti386\tread\t\tsys_read\n"
	"1\ti386\tioctl\t\tsys_ioctl\t\tcompat_sys_ioctl\n"
	"2\ti386\tfcntl\t\tsys_fcntl\t\tcompat_sys_fcntl64\n"
	"3\ti386\tbreak\n"
	"4\ti386\tfcntl64\t\tsys_fcntl64\t\tcompat_sys_fcntl64\n"
	"5\ti386\tpread64\t\tsys_ia32_pread64\n"
	"6\ti386\tlookup_dcookie\tsys_lookup_dcookie\tcompat_sys_lookup_dcookie\n"
	"7\ti386\ttimer_create\tsys_timer_create\tcompat_sys_timer_create\n"
	"8\ti386\tgetpid\t\tsys_getpid\t\t-\t\tnoreturn\n";

static const char tbl64[] =
	"0\tcommon\tread\t\tsys_read\n"
	"1\t64\tioctl\t\tsys_ioctl\n"
	"2\tcommon\tgetpid\t\tsys_getpid\n"
	"4\tcommon\ttimer_create\tsys_timer_create\n"
	"512\tx32\tioctl\t\tcompat_sys_ioctl\n"
	"513\tx32\trt_sigreturn\tcompat_sys_x32_rt_sigreturn\n";

/* @vmlinux collected (with the .tbl files of @dir when @tbl), sorted */
static struct snapshot *collect(const char *vmlinux, bool tbl, int *err)
{
	struct vmlinux_stats st = { 0 };
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t old = kabi_set_print(capture);

	assert_non_null(s);
	errors[0] = '\0';
	nr_messages = 0;
	*err = vmlinux__collect(vmlinux, tbl ? dir : NULL, tbl ? dir : NULL, s, &st);
	if (!*err)
		*err = snapshot__sort(s, "compat");
	kabi_set_print(old);
	return s;
}

static struct snapshot *collect_quietly(const char *vmlinux, bool tbl)
{
	int err;
	struct snapshot *s = collect(vmlinux, tbl, &err);

	if (err || nr_messages)
		fail_msg("collecting %s: %d, said: %s", vmlinux, err, errors);
	return s;
}

/* The record of (@abi, @nr). */
static const struct syscall *find(const struct snapshot *s, const char *abi,
				  uint32_t nr)
{
	size_t i;

	for (i = 0; i < s->syscalls.nr; i++)
		if (!strcmp(s->syscalls.v[i].abi, abi) && s->syscalls.v[i].nr == nr)
			return &s->syscalls.v[i];
	fail_msg("no %s syscall %u", abi, nr);
	return NULL;
}

static size_t count(const struct snapshot *s, const char *abi)
{
	size_t i, n = 0;

	for (i = 0; i < s->syscalls.nr; i++)
		n += !strcmp(s->syscalls.v[i].abi, abi);
	return n;
}

struct want {
	uint32_t nr;
	const char *name, *entry;
	bool implemented;
};

static void expect(const struct snapshot *s, const char *abi,
		   const struct want *w, size_t n, unsigned int sources)
{
	const struct syscall *sc;
	size_t i;

	for (i = 0; i < n; i++) {
		sc = find(s, abi, w[i].nr);
		if (strcmp(sc->name, w[i].name) || strcmp(sc->entry, w[i].entry) ||
		    sc->implemented != w[i].implemented || sc->sources != sources)
			fail_msg("%s %u: %s %s %s %#x, not %s %s %s %#x", abi,
				 w[i].nr, sc->name, sc->entry,
				 sc->implemented ? "implemented" : "not implemented",
				 sc->sources, w[i].name, w[i].entry,
				 w[i].implemented ? "implemented" : "not implemented",
				 sources);
		assert_int_equal(sc->nr_args, 0);
	}
}

/* Without the .tbl: named after the entry points. */
static const struct want ia32[] = {
	{ 0, "read", "__ia32_sys_read", true },
	{ 1, "ioctl", "__ia32_compat_sys_ioctl", true },
	{ 2, "fcntl64", "__ia32_compat_sys_fcntl64", true },
	{ 3, "ni_syscall", "__ia32_sys_ni_syscall", false },
	{ 4, "fcntl64", "__ia32_compat_sys_fcntl64", true },
	{ 5, "pread64", "__ia32_sys_ia32_pread64", true },
	{ 6, "lookup_dcookie", "__ia32_compat_sys_lookup_dcookie", false },
	{ 7, "timer_create", "__ia32_compat_sys_timer_create", false },
	{ 8, "getpid", "__ia32_sys_getpid", true },
};

static const struct want x32[] = {
	{ 0, "read", "__x64_sys_read", true },
	{ 1, "ni_syscall", "__x64_sys_ni_syscall", false },
	{ 2, "getpid", "__x64_sys_getpid", true },
	{ 4, "timer_create", "__x64_sys_timer_create", false },
	{ 512, "ioctl", "__x64_compat_sys_ioctl", true },
	{ 513, "rt_sigreturn", "__x64_compat_sys_x32_rt_sigreturn", true },
};

static const struct want x86_64[] = {
	{ 0, "read", "__x64_sys_read", true },
	{ 1, "ioctl", "__x64_sys_ioctl", true },
	{ 2, "getpid", "__x64_sys_getpid", true },
	{ 3, "ni_syscall", "__x64_sys_ni_syscall", false },
	{ 4, "timer_create", "__x64_sys_timer_create", false },
};

static void expect_abis_listed(const struct snapshot *s)
{
	assert_int_equal(s->nr_syscall_abis, 3);
	assert_string_equal(s->syscall_abis[0], "ia32");
	assert_string_equal(s->syscall_abis[1], "x32");
	assert_string_equal(s->syscall_abis[2], "x86_64");
}

/* Before the 2024 change: three tables. */
static void test_tables(void **state)
{
	struct snapshot *s = collect_quietly(FIXTURE("compat-table.elf"), false);

	expect_abis_listed(s);
	assert_int_equal(count(s, "ia32"), 9);
	assert_int_equal(count(s, "x32"), 514);
	assert_int_equal(count(s, "x86_64"), 5);
	expect(s, "ia32", ia32, ARRAY_SIZE(ia32), SYSCALL_SRC_TABLE);
	expect(s, "x32", x32, ARRAY_SIZE(x32), SYSCALL_SRC_TABLE);
	expect(s, "x86_64", x86_64, ARRAY_SIZE(x86_64), SYSCALL_SRC_TABLE);
	snapshot__free(s);
}

/* Since: ia32's switch alone, x32's and x86_64's beside their tables. */
static void test_switches(void **state)
{
	struct snapshot *s = collect_quietly(FIXTURE("compat-switch.elf"), false);
	const unsigned int both = SYSCALL_SRC_TABLE | SYSCALL_SRC_SWITCH;

	expect_abis_listed(s);
	/* the switch maps up to its last case, the table has all its slots */
	assert_int_equal(count(s, "ia32"), 9);
	assert_int_equal(count(s, "x32"), 514);
	expect(s, "ia32", ia32, ARRAY_SIZE(ia32), SYSCALL_SRC_SWITCH);
	expect(s, "x32", x32, ARRAY_SIZE(x32), both);
	expect(s, "x86_64", x86_64, ARRAY_SIZE(x86_64), both);
	snapshot__free(s);
}

/* The .tbl names the rows it has, and agrees with every number. */
static void test_named_by_tbl(void **state)
{
	static const struct want ia32_named[] = {
		{ 2, "fcntl", "__ia32_compat_sys_fcntl64", true },
		{ 3, "break", "__ia32_sys_ni_syscall", false },
		{ 4, "fcntl64", "__ia32_compat_sys_fcntl64", true },
	};
	static const struct want x32_named[] = {
		{ 513, "rt_sigreturn", "__x64_compat_sys_x32_rt_sigreturn", true },
	};
	const unsigned int tbl = SYSCALL_SRC_SWITCH | SYSCALL_SRC_TBL;
	struct snapshot *s;

	write_tbl("syscall_32.tbl", tbl32);
	write_tbl("syscall_64.tbl", tbl64);
	s = collect_quietly(FIXTURE("compat-switch.elf"), true);
	expect(s, "ia32", ia32_named, ARRAY_SIZE(ia32_named), tbl);
	expect(s, "x32", x32_named, ARRAY_SIZE(x32_named),
	       tbl | SYSCALL_SRC_TABLE);
	/* x32's 1 is a row of x86_64's only */
	assert_int_equal(find(s, "x32", 1)->sources,
			 SYSCALL_SRC_TABLE | SYSCALL_SRC_SWITCH);
	assert_string_equal(find(s, "x32", 1)->name, "ni_syscall");
	assert_string_equal(find(s, "x86_64", 1)->name, "ioctl");
	assert_true(find(s, "x86_64", 1)->sources & SYSCALL_SRC_TBL);
	snapshot__free(s);

	/* one .tbl is enough: x32 is then named after its entry points */
	remove_tbls();
	write_tbl("syscall_32.tbl", tbl32);
	s = collect_quietly(FIXTURE("compat-switch.elf"), true);
	assert_string_equal(find(s, "ia32", 3)->name, "break");
	assert_int_equal(find(s, "x32", 0)->sources,
			 SYSCALL_SRC_TABLE | SYSCALL_SRC_SWITCH);
	snapshot__free(s);
	remove_tbls();
}

/*
 * @text with the line of number @nr as @row (none when ""), malloc()ed:
 * the line starting "@nr\t" of a .tbl, or holding "(@nr, " of a header.
 */
static char *with_row(const char *text, unsigned int nr, const char *row)
{
	size_t size = strlen(text) + strlen(row) + 1;
	char key[16], *out = malloc(size);
	const char *at, *end;

	snprintf(key, sizeof(key), "%u\t", nr);
	at = strstr(text, key);
	if (!at || (at != text && at[-1] != '\n')) {
		snprintf(key, sizeof(key), "(%u, ", nr);
		at = strstr(text, key);
		while (at && at != text && at[-1] != '\n')
			at--;
	}
	assert_non_null(at);
	end = strchr(at, '\n') + 1;
	assert_non_null(out);
	snprintf(out, size, "%.*s%s%s", (int)(at - text), text, row, end);
	return out;
}

/*
 * The .tbl @name holding @text (malloc()ed, freed here; the other .tbl
 * right) fails with @message, where DIR is the directory of the .tbl files.
 */
static void expect_tbl_error(const char *name, char *text, const char *message)
{
	const char *at;
	struct snapshot *s;
	char want[1024];
	int err;

	write_tbl("syscall_32.tbl", tbl32);
	write_tbl("syscall_64.tbl", tbl64);
	write_tbl(name, text);
	free(text);
	s = collect(FIXTURE("compat-switch.elf"), true, &err);
	assert_int_equal(err, -EINVAL);
	assert_int_equal(nr_messages, 1);
	at = strstr(message, "DIR");
	assert_non_null(at);
	snprintf(want, sizeof(want), "%.*s%s%s", (int)(at - message), message,
		 dir, at + 3);
	assert_string_equal(errors, want);
	snapshot__free(s);
	remove_tbls();
}

static void test_tbl_disagrees(void **state)
{
	/* a row whose entry point the vmlinux does not have */
	expect_tbl_error("syscall_32.tbl",
			 with_row(tbl32, 1, "1\ti386\tioctl\t\tsys_ioctl\n"),
			 FIXTURE("compat-switch.elf") ": ia32 syscall 1: ia32_sys_call reaches __ia32_compat_sys_ioctl, but DIR/syscall_32.tbl gives __ia32_sys_ioctl, which the vmlinux lacks: is that the tree of this vmlinux?");
	/* another entry point than the code reaches */
	expect_tbl_error("syscall_32.tbl",
			 with_row(tbl32, 2, "2\ti386\tfcntl\t\tsys_fcntl\t\tcompat_sys_ioctl\n"),
			 FIXTURE("compat-switch.elf") ": ia32 syscall 2: ia32_sys_call reaches __ia32_compat_sys_fcntl64, but DIR/syscall_32.tbl gives __ia32_compat_sys_ioctl: is that the tree of this vmlinux?");
	/* numbers the code reaches that no row gives */
	expect_tbl_error("syscall_64.tbl", with_row(tbl64, 512, ""),
			 FIXTURE("compat-switch.elf") ": x32 syscall 512: x32_sys_call_table holds __x64_compat_sys_ioctl, but DIR/syscall_64.tbl gives it no entry point: is that the tree of this vmlinux?");
	expect_tbl_error("syscall_32.tbl", with_row(tbl32, 8, "8\ti386\tgetpid\n"),
			 FIXTURE("compat-switch.elf") ": ia32 syscall 8: ia32_sys_call reaches __ia32_sys_getpid, but DIR/syscall_32.tbl gives it no entry point: is that the tree of this vmlinux?");
	/* another kernel's table: the first number and how many more */
	expect_tbl_error("syscall_32.tbl",
			 strdup("0\ti386\trestart_syscall\tsys_restart_syscall\n"),
			 FIXTURE("compat-switch.elf") ": ia32 syscall 0: ia32_sys_call reaches __ia32_sys_read, but DIR/syscall_32.tbl gives __ia32_sys_restart_syscall, which the vmlinux lacks (and 7 more numbers): is that the tree of this vmlinux?");
}

/* A build's asm/syscalls_*.h for compat-switch.elf, as syscalltbl.sh writes them. */
static const char header32[] =
	"__SYSCALL(0, sys_read)\n"
	"__SYSCALL_WITH_COMPAT(1, sys_ioctl, compat_sys_ioctl)\n"
	"__SYSCALL_WITH_COMPAT(2, sys_fcntl, compat_sys_fcntl64)\n"
	"__SYSCALL(3, sys_ni_syscall)\n"
	"__SYSCALL_WITH_COMPAT(4, sys_fcntl64, compat_sys_fcntl64)\n"
	"__SYSCALL(5, sys_ia32_pread64)\n"
	"__SYSCALL_WITH_COMPAT(6, sys_lookup_dcookie, compat_sys_lookup_dcookie)\n"
	"__SYSCALL_WITH_COMPAT(7, sys_timer_create, compat_sys_timer_create)\n"
	"__SYSCALL_NORETURN(8, sys_getpid)\n";

static const char header64[] =
	"__SYSCALL(0, sys_read)\n"
	"__SYSCALL(1, sys_ioctl)\n"
	"__SYSCALL(2, sys_getpid)\n"
	"__SYSCALL(3, sys_ni_syscall)\n"
	"__SYSCALL(4, sys_timer_create)\n";

static const char headerx32[] =
	"__SYSCALL(0, sys_read)\n"
	"__SYSCALL(1, sys_ni_syscall)\n"
	"__SYSCALL(2, sys_getpid)\n"
	"__SYSCALL(4, sys_timer_create)\n"
	"__SYSCALL(512, compat_sys_ioctl)\n"
	"__SYSCALL(513, compat_sys_x32_rt_sigreturn)\n";

/*
 * The build's own tables check every ABI, x86_64's too, as the .tbl
 * files do; a header that says otherwise is one error naming it.
 */
static void test_headers(void **state)
{
	struct snapshot *s;

	write_tbl("syscalls_32.h", header32);
	write_tbl("syscalls_64.h", header64);
	write_tbl("syscalls_x32.h", headerx32);
	s = collect_quietly(FIXTURE("compat-switch.elf"), true);
	expect(s, "ia32", ia32, ARRAY_SIZE(ia32), SYSCALL_SRC_SWITCH);
	snapshot__free(s);
	remove_tbls();

	write_tbl("syscalls_32.h", header32);
	write_tbl("syscalls_x32.h", headerx32);
	expect_tbl_error("syscalls_64.h",
			 with_row(header64, 2, "__SYSCALL(2, sys_read)\n"),
			 FIXTURE("compat-switch.elf") ": x86_64 syscall 2: sys_call_table holds __x64_sys_getpid, but DIR/syscalls_64.h gives __x64_sys_read: is that the build of this vmlinux?");
	write_tbl("syscalls_64.h", header64);
	write_tbl("syscalls_x32.h", headerx32);
	expect_tbl_error("syscalls_32.h",
			 with_row(header32, 1, "__SYSCALL(1, sys_ioctl)\n"),
			 FIXTURE("compat-switch.elf") ": ia32 syscall 1: ia32_sys_call reaches __ia32_compat_sys_ioctl, but DIR/syscalls_32.h gives __ia32_sys_ioctl, which the vmlinux lacks: is that the build of this vmlinux?");
}

/* A switch that disagrees with its table. */
static void test_switch_disagrees(void **state)
{
	int err;
	struct snapshot *s = collect(FIXTURE("compat-wrong.elf"), false, &err);

	assert_int_equal(err, -EINVAL);
	assert_int_equal(nr_messages, 1);
	assert_string_equal(errors, FIXTURE("compat-wrong.elf") ": x86_64 syscall 2: sys_call_table holds __x64_sys_getpid, x64_sys_call reaches __x64_sys_read");
	snapshot__free(s);
}

/* A kernel without IA32_EMULATION or X86_X32_ABI: no records, no word. */
static void test_no_compat(void **state)
{
	int err;
	struct snapshot *s = collect(FIXTURE("mini.elf"), false, &err);

	/* mini.elf's ftrace metadata disagrees with DWARF, on purpose */
	assert_int_equal(err, 0);
	assert_int_equal(nr_messages, 1);
	expect_abis_listed(s);
	assert_true(snapshot__has_syscall_abi(s, "ia32"));
	assert_int_equal(count(s, "ia32"), 0);
	assert_int_equal(count(s, "x32"), 0);
	assert_int_equal(count(s, "x86_64"), 5);
	snapshot__free(s);
}

/* An argument as the record should have it: abi_size 0 is none. */
struct want_arg {
	const char *name, *type;
	uint32_t abi_size;
};

static void expect_args(const struct snapshot *s, const char *abi, uint32_t nr,
			const struct want_arg *w, size_t n)
{
	const struct syscall *sc = find(s, abi, nr);
	size_t i;

	assert_true(sc->sources & SYSCALL_SRC_DWARF);
	assert_int_equal(sc->nr_args, n);
	for (i = 0; i < n; i++) {
		const struct syscall_arg *a = &sc->args[i];

		if (strcmp(a->name, w[i].name) || strcmp(a->type, w[i].type) ||
		    a->abi_size != w[i].abi_size)
			fail_msg("%s %u arg %zu: %s %s (%u), not %s %s (%u)", abi,
				 nr, i + 1, a->type, a->name, a->abi_size,
				 w[i].type, w[i].name, w[i].abi_size);
	}
}

static bool has_type(const struct snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->types.nr; i++)
		if (!strcmp(s->types.v[i].name, name))
			return true;
	return false;
}

/*
 * Each number has the signature of the __do_ function its entry point
 * runs, native or compat, in the sizes of its ABI: in ILP32, 4 for a
 * pointer and a long, and x32's __kernel_long_t and __kernel_size_t cut
 * the typedef chains where its own headers define them.
 */
static void test_signatures(void **state)
{
	static const struct want_arg read64[] = {
		{ "fd", "unsigned int", 0 }, { "buf", "char *", 0 },
		{ "count", "size_t", 0 },
	};
	static const struct want_arg read32[] = {
		{ "fd", "unsigned int", 4 }, { "buf", "char *", 4 },
		{ "count", "size_t", 4 },
	};
	static const struct want_arg ioctl64[] = {
		{ "fd", "unsigned int", 0 }, { "cmd", "unsigned int", 0 },
		{ "arg", "long unsigned int", 0 },
	};
	static const struct want_arg ioctl32[] = {
		{ "fd", "unsigned int", 4 }, { "cmd", "unsigned int", 4 },
		{ "arg", "compat_ulong_t", 4 },
	};
	static const struct want_arg lseek_x32[] = {
		{ "fd", "unsigned int", 4 }, { "offset", "off_t", 8 },
		{ "whence", "unsigned int", 4 },
	};
	static const struct want_arg lseek_ia32[] = {
		{ "fd", "unsigned int", 4 }, { "offset", "compat_off_t", 4 },
		{ "whence", "unsigned int", 4 },
	};
	struct snapshot *s = collect_quietly(FIXTURE("compat-args.elf"), false);

	expect_args(s, "x86_64", 0, read64, ARRAY_SIZE(read64));
	expect_args(s, "x86_64", 1, ioctl64, ARRAY_SIZE(ioctl64));
	expect_args(s, "ia32", 0, read32, ARRAY_SIZE(read32));
	expect_args(s, "ia32", 1, ioctl32, ARRAY_SIZE(ioctl32));
	expect_args(s, "ia32", 2, lseek_ia32, ARRAY_SIZE(lseek_ia32));
	expect_args(s, "x32", 0, read32, ARRAY_SIZE(read32));
	expect_args(s, "x32", 1, lseek_x32, ARRAY_SIZE(lseek_x32));
	expect_args(s, "x32", 2, ioctl32, ARRAY_SIZE(ioctl32));
	/* the compat types join the closure under their own names */
	assert_true(has_type(s, "compat_ulong_t"));
	assert_true(has_type(s, "compat_off_t"));
	assert_true(has_type(s, "off_t"));
	snapshot__free(s);
}

static int set_up(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int tear_down(void **state)
{
	remove_tbls();
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_switches),
		cmocka_unit_test(test_named_by_tbl),
		cmocka_unit_test(test_tbl_disagrees),
		cmocka_unit_test(test_switch_disagrees),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_no_compat),
		cmocka_unit_test(test_signatures),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, set_up, tear_down);
}
