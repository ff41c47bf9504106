/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sources of the syscalls checked against each other: an ABI's table
 * and its switch, the tree's .tbl and the build's syscalls_*.h against
 * what the vmlinux dispatches to, DWARF's argument counts against the
 * ftrace metadata's.  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_CROSS_CHECK_H
#define KABIDIFF_VMLINUX_CROSS_CHECK_H

#include <stddef.h>

struct abi_def;
struct abi_map;
struct collect;
struct meta_entry;
struct syscall;

/*
 * cross_check__maps() - @d's table @a and switch @b must send each number
 * to one entry point.  Returns 0, or -EINVAL, reported.
 */
int cross_check__maps(const struct collect *c, const struct abi_def *d,
		      const struct abi_map *a, const struct abi_map *b);

/*
 * cross_check__rows() - what the tree's .tbl and the build's syscalls_*.h
 * say of ABI @abi must be what @m, its table or switch, does.  Returns 0,
 * or -EINVAL, reported.
 */
int cross_check__rows(const struct collect *c, size_t abi,
		      const struct abi_map *m);

/*
 * cross_check__args() - the arguments DWARF gave native syscall @sc must
 * be as many as its ftrace metadata @meta has; a warning, counted in
 * @c->st->mismatched, if not.
 */
void cross_check__args(const struct collect *c, const struct syscall *sc,
		       const struct meta_entry *meta);

#endif /* KABIDIFF_VMLINUX_CROSS_CHECK_H */
