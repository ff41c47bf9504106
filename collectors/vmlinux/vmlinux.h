/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vmlinux collector: the kernel's identity, its x86_64 syscall table
 * with typed signatures, and the layouts of the types syscall arguments
 * reach, read from a vmlinux with DWARF (libelf, libdw).
 */
#ifndef KABIDIFF_VMLINUX_H
#define KABIDIFF_VMLINUX_H

#include "model/model.h"

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
 * @syscall_tbl is the kernel tree's arch/x86/entry/syscalls/syscall_64.tbl,
 * for the ABI names of the syscalls ("stat" runs __x64_sys_newstat); NULL
 * names them after their entry points.  Counts go to @st (zeroed by the
 * caller).  Returns 0 or -errno, reported through kabi_pr(); a vmlinux
 * without DWARF is collected from its table and ftrace metadata with a
 * warning.
 */
int vmlinux__collect(const char *path, const char *syscall_tbl,
		     struct snapshot *s, struct vmlinux_stats *st);

#endif /* KABIDIFF_VMLINUX_H */
