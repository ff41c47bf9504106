/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vmlinux collector: the kernel's identity, its syscall tables (x86_64
 * with typed signatures, ia32 and x32 where the kernel has them), and the
 * layouts of the types syscall arguments reach, read from a vmlinux with
 * DWARF (libelf, libdw; the syscall switches decoded with Capstone).
 */
#ifndef KABIDIFF_VMLINUX_H
#define KABIDIFF_VMLINUX_H

#include "model/model.h"

/* Of the x86_64 syscalls. */
struct vmlinux_stats {
	unsigned int table;		/* slots in sys_call_table */
	unsigned int implemented;
	unsigned int typed;		/* signatures from DWARF */
	unsigned int ftrace;		/* syscalls in the ftrace metadata */
	unsigned int mismatched;	/* ftrace and DWARF disagree */
};

/*
 * vmlinux__collect() - fill the kernel identity, the syscalls and the types
 * of @s from the vmlinux at @path.
 *
 * @syscalls_dir is the kernel tree's arch/x86/entry/syscalls: its
 * syscall_64.tbl and syscall_32.tbl, where they are, give the ABI names of
 * the syscalls ("stat" runs __x64_sys_newstat), and each ia32 and x32
 * number must reach the entry point its row gives (-EINVAL otherwise).
 * NULL names the syscalls after their entry points.  @headers_dir is a
 * build's arch/x86/include/generated/asm, or NULL: its syscalls_64.h,
 * syscalls_32.h and syscalls_x32.h, where they are, are that build's own
 * tables, which every number of the ABI must follow too.  Counts go to @st
 * (zeroed by the caller).  Returns 0 or -errno, reported through kabi_pr();
 * a vmlinux without DWARF is collected from its tables and ftrace metadata
 * with a warning.
 */
int vmlinux__collect(const char *path, const char *syscalls_dir,
		     const char *headers_dir, struct snapshot *s,
		     struct vmlinux_stats *st);

#endif /* KABIDIFF_VMLINUX_H */
