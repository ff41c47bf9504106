/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The syscall ABIs of x86_64 kernels, and the names of their entry points
 * in a vmlinux.  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_ABI_H
#define KABIDIFF_VMLINUX_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tbl.h"

struct collect;
struct ilp32_model;
struct ksym;

/*
 * A syscall ABI of x86_64 kernels: its table and switch symbols, the
 * prefix of its entry points, and its rows in the tree's .tbl, those whose
 * second column is one of @rows; where @compat, a row's compat entry point
 * (its fifth column) is the one taken.  x32 numbers are those of its rows,
 * without the 0x40000000 a program adds, as x32_sys_call() takes them.
 */
struct abi_def {
	const char *abi;
	const char *table, *func;
	const char *prefix;
	const char *tag;	/* a name may add: sys_ia32_pread64 is pread64 */
	enum tbl_file tbl;
	const char *header;	/* a build's generated asm/syscalls_*.h */
	const char *rows[2];
	bool compat;
	bool native;		/* its rows only name it; its metadata is checked */
	const struct ilp32_model *ilp32;	/* NULL for an LP64 ABI */
};

enum { ABI_X86_64, ABI_IA32, ABI_X32, NR_ABIS };

/* abi_defs[] - the ABIs, x86_64's first */
extern const struct abi_def abi_defs[NR_ABIS];

/*
 * abi__ni_name() - "__ia32_sys_ni_syscall": what the numbers of @d without
 * an entry point run, in @buf.  Returns @buf.
 */
const char *abi__ni_name(const struct abi_def *d, char *buf, size_t size);

/*
 * abi__entry_at() - the entry point of @d at @addr, or NULL:
 * sys_ni_syscall wins over other names there.
 */
const struct ksym *abi__entry_at(const struct collect *c,
				 const struct abi_def *d, uint64_t addr);

/* abi__is_ni() - whether @addr is @d's sys_ni_syscall */
bool abi__is_ni(const struct collect *c, const struct abi_def *d,
		uint64_t addr);

/*
 * abi__describe() - the name of the entry point of @d at @addr, else the
 * address, in @buf, for messages.
 */
const char *abi__describe(const struct collect *c, const struct abi_def *d,
			  uint64_t addr, char *buf, size_t size);

/*
 * abi__fn() - the function the entry point @entry of @d names, without
 * @d's prefix: "sys_read" of __x64_sys_read, "compat_sys_ioctl" of
 * __ia32_compat_sys_ioctl.  A part of @entry.
 */
const char *abi__fn(const struct abi_def *d, const char *entry);

/*
 * abi__entry_base() - the name an entry point gives a syscall without a
 * row in the .tbl: "read" of __ia32_sys_read, "ioctl" of
 * __ia32_compat_sys_ioctl, "pread64" of __ia32_sys_ia32_pread64.  A part
 * of @entry.
 */
const char *abi__entry_base(const struct abi_def *d, const char *entry);

/*
 * abi__entry_of() - the entry point of @d at @addr: the one @row (or NULL)
 * gives if it is there (of several names at one address, the row's), else
 * abi__entry_at()'s.
 */
const struct ksym *abi__entry_of(const struct collect *c,
				 const struct abi_def *d,
				 const struct tbl_row *row, uint64_t addr);

/*
 * abi__implements() - whether the entry point @sym (NULL: unknown) at
 * @addr implements its syscall: not if it is sys_ni_syscall, a weak stub
 * COND_SYSCALL() left, or an alias of another sys_ni_ function (without
 * POSIX_TIMERS the timer syscalls are sys_ni_posix_timers).
 */
bool abi__implements(const struct collect *c, const struct abi_def *d,
		     const struct ksym *sym, uint64_t addr);

#endif /* KABIDIFF_VMLINUX_ABI_H */
