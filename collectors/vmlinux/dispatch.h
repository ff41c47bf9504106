/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the numbers of a syscall ABI reach in a vmlinux: the slots of its
 * table, or what its switch function dispatches to (syscall-switch.h).
 * Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_DISPATCH_H
#define KABIDIFF_VMLINUX_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

struct abi_def;
struct collect;
struct ksym;

/*
 * What the numbers of an ABI reach, as its table or its switch says
 * (@from, which @verb them, for messages): @addr[nr] for those below @nr,
 * @def for the others (sys_ni_syscall; 0 if unknown).
 */
struct abi_map {
	uint64_t *addr;
	size_t nr;
	uint64_t def;
	const char *from, *verb;
};

/* dispatch__reached() - what number @nr reaches in @m */
uint64_t dispatch__reached(const struct abi_map *m, size_t nr);

/*
 * dispatch__read_table() - the slots of @d's table @table into @m, whose
 * @addr the caller frees.  Returns 0 or -errno, reported but -ENOMEM.
 */
int dispatch__read_table(struct collect *c, const struct abi_def *d,
			 const struct ksym *table, struct abi_map *m);

/*
 * dispatch__decode_switch() - what @d's switch function dispatches each
 * number to, into @m, whose @addr the caller frees.  Returns 0 or -errno,
 * as syscall_switch__decode().
 */
int dispatch__decode_switch(struct collect *c, const struct abi_def *d,
			    struct abi_map *m);

#endif /* KABIDIFF_VMLINUX_DISPATCH_H */
