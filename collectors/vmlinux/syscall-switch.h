/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A syscall table read from the code that dispatches it.  Since the 2024
 * change of x86 syscall dispatch (mainline 6.9, backported to 6.1.85) the
 * ia32 and x32 numbers are mapped to their entry points only by the code
 * of ia32_sys_call(regs, nr) and x32_sys_call(regs, nr), each a switch on
 * nr (x64_sys_call() too, beside the sys_call_table kept for ftrace).
 * Private to the vmlinux collector.
 */
#ifndef KABIDIFF_SYSCALL_SWITCH_H
#define KABIDIFF_SYSCALL_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#include "kimage.h"

struct switch_target {
	uint64_t addr;
	char *name;		/* a symbol at @addr, malloc()ed */
};

struct switch_map {
	struct switch_target *v;	/* v[n]: what number n reaches */
	size_t nr;			/* v[] has 0..nr-1; all above reach @def */
	struct switch_target def;	/* what numbers outside every case reach */
	unsigned int tables;		/* jump tables read (0: a compare tree) */
	unsigned int paths;		/* paths followed through the code */
};

/*
 * syscall_switch__decode() - which entry point each number reaches in the
 * function @func of @k, a switch on its second argument (%esi).
 *
 * Every entry point's name starts with @prefix ("__ia32_"): of several
 * symbols at one address, one with that prefix names it, and a branch out
 * of @func to an address no such symbol names is an error.  @map is
 * filled (its v[] holds the default's name where a number reaches it) and
 * owned by the caller, who releases it with switch_map__release().
 *
 * The decoder fails closed: an instruction or a shape it does not
 * understand is an error naming the place ("ia32_sys_call+0x1a4
 * (0xffffffff81001234): cannot follow 'andl $7, %esi'"), never a guess.
 * Returns 0, -ENOENT (no such function), -EINVAL (code it cannot follow),
 * -EFAULT (its code is not in the file), each reported through kabi_pr(), or
 * -ENOMEM, not reported (the caller says it once).
 */
int syscall_switch__decode(const struct kimage *k, const char *func,
			   const char *prefix, struct switch_map *map);

/* switch_map__release() - free what @map holds; safe on a zeroed one. */
void switch_map__release(struct switch_map *map);

#endif /* KABIDIFF_SYSCALL_SWITCH_H */
