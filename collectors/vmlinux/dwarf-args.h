/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arguments of a syscall from DWARF.  The entry point takes struct
 * pt_regs *, __se_sys_read widens all to long, and the real parameters are
 * on the (inlined) __do_sys_read, found in the compilation unit that
 * .debug_aranges maps the entry point's address to, so no other unit is
 * read.  A SYSCALL_DEFINE0 has a __do_sys_ with one "__unused" pt_regs
 * parameter: no arguments.  An ia32 or x32 number that runs a native entry
 * point (__ia32_sys_read) has the native parameters; a compat one
 * (__ia32_compat_sys_ioctl) those of its __do_compat_sys_ioctl, whose
 * compat types (struct compat_stat, struct old_timespec32) join the
 * closure under their own names, so that they never pair with the native
 * ones.  Both get the size each argument has in the ABI (4 for a pointer,
 * in ILP32 ABIs).  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_DWARF_ARGS_H
#define KABIDIFF_VMLINUX_DWARF_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

struct abi_def;
struct collect;

/*
 * The __do_sys_ and __do_compat_sys_ functions of one compilation unit,
 * found once.
 */
struct cu_functions {
	Dwarf_Off cu;
	struct do_sys {
		/* "sys_read", after "__do_"; borrowed from libdw, not kept */
		const char *name;
		Dwarf_Die die;
	} *v;
	size_t nr, alloc;
};

/*
 * dwarf_args__read() - the arguments of syscall @index of ABI @d, entered
 * at @addr, from its __do_@fn ("sys_read", "compat_sys_ioctl"), in @d's
 * sizes, and the file of that function: that of its SYSCALL_DEFINE, as
 * __se_sys_ and the entry point have it too.  Nothing without DWARF or
 * such a function.  Returns 0 or -errno.
 */
int dwarf_args__read(struct collect *c, const struct abi_def *d,
		     size_t index, uint64_t addr, const char *fn);

/* dwarf_args__release() - free the units' lists dwarf_args__read() made */
void dwarf_args__release(struct collect *c);

#endif /* KABIDIFF_VMLINUX_DWARF_ARGS_H */
