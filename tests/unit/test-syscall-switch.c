// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for syscall-switch.c on tests/fixtures/vmlinux/switch.elf
 * (its sources and build command are beside it): the same switch compiled
 * into a compare tree and into a bounded jump table decodes to the same
 * map; an x32-like switch with its cases from 512 (a range moved to 0, two
 * tables); cases tested with a mask (GCC's shl and test, and bt); signed
 * compares, copies of the number and the flags of a sub; the prefix
 * choosing among the names of one address.  And the shapes the decoder
 * refuses, each with one error that names the function, the offset, the
 * address and the instruction.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "collectors/vmlinux/kimage.h"
#include "collectors/vmlinux/syscall-switch.h"
#include "lib/print.h"

#define SWITCH	SRCDIR "/tests/fixtures/vmlinux/switch.elf"
#define NI32	"__ia32_sys_ni_syscall"
#define NI64	"__x64_sys_ni_syscall"

static struct kimage k;
static char message[1024];
static int messages;

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	messages++;
	vsnprintf(message, sizeof(message), fmt, ap);
}

static uint64_t addr_of(const char *name)
{
	const struct ksym *sym = kimage__sym(&k, name);

	assert_non_null(sym);
	return sym->addr;
}

/* @func decodes with @prefix, reporting nothing */
static void decode(const char *func, const char *prefix, struct switch_map *map)
{
	messages = 0;
	assert_int_equal(syscall_switch__decode(&k, func, prefix, map), 0);
	assert_int_equal(messages, 0);
}

/* v[0..nr-1] of @map are @names, at their symbols' addresses */
static void assert_map(const struct switch_map *map, const char *const *names,
		       size_t nr, const char *def)
{
	size_t i;

	assert_int_equal(map->nr, nr);
	for (i = 0; i < nr; i++) {
		assert_string_equal(map->v[i].name, names[i]);
		assert_int_equal(map->v[i].addr, addr_of(names[i]));
	}
	assert_string_equal(map->def.name, def);
	assert_int_equal(map->def.addr, addr_of(def));
}

static const char *const i386[] = {
	"__ia32_sys_restart_syscall", "__ia32_sys_exit", "__ia32_sys_fork",
	"__ia32_sys_read", "__ia32_sys_write", "__ia32_compat_sys_open",
	"__ia32_sys_close", NI32, "__ia32_sys_creat", "__ia32_sys_link",
	"__ia32_sys_unlink", "__ia32_compat_sys_execve", "__ia32_sys_chdir",
	NI32, NI32, "__ia32_sys_chmod", "__ia32_sys_lchown16", NI32,
	"__ia32_sys_stat", "__ia32_compat_sys_lseek", "__ia32_sys_getpid",
};

static void test_compare_tree(void **state)
{
	struct switch_map map;

	decode("tree_ia32_sys_call", "__ia32_", &map);
	assert_int_equal(map.tables, 0);
	assert_map(&map, i386, 21, NI32);
	switch_map__release(&map);
}

static void test_jump_table(void **state)
{
	struct switch_map map;

	decode("table_ia32_sys_call", "__ia32_", &map);
	assert_int_equal(map.tables, 1);
	assert_map(&map, i386, 21, NI32);
	switch_map__release(&map);
}

/* x32's own numbers from 512: a gap GCC tests around, or moves to 0 */
static void test_x32(void **state)
{
	static const char *const shapes[] = { "tree_x32_sys_call", "table_x32_sys_call" };
	static const char *const low[] = {
		"__x64_sys_read", "__x64_sys_write", "__x64_sys_open",
		"__x64_sys_close", "__x64_sys_newstat", NI64, "__x64_sys_getpid",
	};
	static const char *const high[] = {
		"__x64_compat_sys_rt_sigaction", "__x64_compat_sys_x32_rt_sigreturn",
		"__x64_compat_sys_ioctl", "__x64_sys_readv", "__x64_sys_writev",
		"__x64_compat_sys_recvfrom",
	};
	const char *names[518];
	struct switch_map map;
	size_t i, s;

	for (i = 0; i < 518; i++)
		names[i] = i < 7 ? low[i] : i < 512 ? NI64 : high[i - 512];
	for (s = 0; s < 2; s++) {
		decode(shapes[s], "__x64_", &map);
		assert_int_equal(map.tables, 2 * s);
		assert_map(&map, names, 518, NI64);
		switch_map__release(&map);
	}
}

/* one address, two names: the prefix chooses */
static void test_prefix_chooses(void **state)
{
	struct switch_map ia32, x32;

	decode("tree_ia32_sys_call", "__ia32_", &ia32);
	decode("tree_x32_sys_call", "__x64_", &x32);
	assert_string_equal(ia32.v[20].name, "__ia32_sys_getpid");
	assert_string_equal(x32.v[6].name, "__x64_sys_getpid");
	assert_int_equal(ia32.v[20].addr, x32.v[6].addr);
	assert_int_equal(ia32.def.addr, x32.def.addr);
	switch_map__release(&ia32);
	switch_map__release(&x32);
}

/* GCC's "1 << nr & mask" for cases that share an entry point */
static void test_bit_mask(void **state)
{
	static const char *const names[] = {
		NI32, "__ia32_sys_read", "__ia32_sys_write", "__ia32_sys_write",
		"__ia32_sys_read", NI32, "__ia32_sys_read", NI32, NI32,
		"__ia32_sys_read", "__ia32_sys_write", NI32, NI32,
		"__ia32_sys_read", NI32, NI32, NI32, "__ia32_sys_read", NI32,
		NI32, "__ia32_sys_write", "__ia32_sys_write",
	};
	struct switch_map map;

	decode("bits_sys_call", "__ia32_", &map);
	assert_map(&map, names, 22, NI32);
	switch_map__release(&map);
}

/* bt %rsi,%rax of a mask, and a conditional jump out to the entry point */
static void test_bt(void **state)
{
	const char *names[64];
	struct switch_map map;
	size_t i;

	for (i = 0; i < 64; i++)
		names[i] = i == 1 || i == 4 || i == 63 ? "__ia32_sys_read" : NI32;
	decode("bt_sys_call", "__ia32_", &map);
	assert_map(&map, names, 64, NI32);
	switch_map__release(&map);
}

/* js, jg, the flags of a sub, copies of the number, call and ret */
static void test_signed_and_copies(void **state)
{
	static const char *const names[] = {
		"__ia32_sys_restart_syscall", "__ia32_sys_exit", "__ia32_sys_fork",
		"__ia32_sys_read", "__ia32_sys_write", "__ia32_sys_write",
	};
	struct switch_map map;

	decode("signed_sys_call", "__ia32_", &map);
	assert_map(&map, names, 6, NI32);
	switch_map__release(&map);
}

/*
 * @func does not decode with @prefix: -EINVAL, nothing in the map, and one
 * error, "PATH: FUNC+0xOFF (0xADDR): " and what the printf of @fmt says
 */
static void __printf(4, 5) assert_refused(const char *func, const char *prefix,
					  unsigned int off, const char *fmt, ...)
{
	char expected[1024], why[512];
	struct switch_map map;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(expected, sizeof(expected), "%s: %s+0x%x (0x%" PRIx64 "): %s",
		 SWITCH, func, off, addr_of(func) + off, why);
	messages = 0;
	assert_int_equal(syscall_switch__decode(&k, func, prefix, &map), -EINVAL);
	assert_int_equal(messages, 1);
	assert_string_equal(message, expected);
	assert_int_equal(map.nr, 0);
	assert_null(map.v);
	assert_null(map.def.name);
}

static void test_refused(void **state)
{
	assert_refused("masked_sys_call", "__ia32_", 0,
		       "cannot follow 'andl $3, %%esi'");
	assert_refused("loop_sys_call", "__ia32_", 9,
		       "'jmp 0x%" PRIx64 "' loops back to loop_sys_call+0x0 (numbers 2..4294967295)",
		       addr_of("loop_sys_call"));
	assert_refused("ret_sys_call", "__ia32_", 0xb,
		       "'retq' returns before reaching an entry point");
	assert_refused("foreign_sys_call", "__ia32_", 9,
		       "'jmp 0x%" PRIx64 "' leaves foreign_sys_call for not_an_entry, not a __ia32_ entry point",
		       addr_of("not_an_entry"));
	assert_refused("unbounded_sys_call", "__ia32_", 2,
		       "'jmpq *-0x%" PRIx64 "(, %%rsi, 8)' for the numbers 0..4294967295: not a bounded jump table",
		       -addr_of("unbounded_table"));
	assert_refused("open_sys_call", "__ia32_", 9,
		       "the path runs off the end of open_sys_call");
	/* the first entry point the paths reach is not an __x64_ one */
	assert_refused("tree_ia32_sys_call", "__x64_", 0x3c,
		       "'jmp 0x%" PRIx64 "' leaves tree_ia32_sys_call for __ia32_sys_stat, not a __x64_ entry point",
		       addr_of("__ia32_sys_stat"));
}

static void test_no_such_function(void **state)
{
	struct switch_map map;

	messages = 0;
	assert_int_equal(syscall_switch__decode(&k, "ia32_sys_call", "__ia32_", &map),
			 -ENOENT);
	assert_int_equal(messages, 1);
	assert_string_equal(message, SWITCH ": no symbol ia32_sys_call");
	assert_null(map.v);
}

static int set_up(void **state)
{
	kabi_set_print(capture);
	return kimage__open(&k, SWITCH);
}

static int tear_down(void **state)
{
	kimage__close(&k);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_tree),
		cmocka_unit_test(test_jump_table),
		cmocka_unit_test(test_x32),
		cmocka_unit_test(test_prefix_chooses),
		cmocka_unit_test(test_bit_mask),
		cmocka_unit_test(test_bt),
		cmocka_unit_test(test_signed_and_copies),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_such_function),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, set_up, tear_down);
}
