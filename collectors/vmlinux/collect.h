/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One vmlinux being collected: what the files of the vmlinux collector
 * share, each source's part filled by its own file (vmlinux.c says which).
 * Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_COLLECT_H
#define KABIDIFF_VMLINUX_COLLECT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "collectors/dwarf/source-tree.h"
#include "abi.h"
#include "dwarf-args.h"
#include "ftrace.h"
#include "kimage.h"
#include "tbl.h"
#include "vmlinux.h"

#define MAX_STRING	256
#define MAX_SYSCALLS	4096	/* x86_64 has 463 numbers, x32 548 */

struct collect {
	struct kimage k;
	Dwarf *dw;
	struct source_tree tree;	/* its top from init/main.c's unit */
	struct snapshot *s;
	struct vmlinux_stats *st;
	struct type_closure *tc;
	char *tbl_paths[NR_TBL_FILES];
	struct tbl_rows rows[NR_ABIS];	/* of abi_defs[i], from its .tbl */
	char *header_paths[NR_ABIS];
	struct tbl_rows header_rows[NR_ABIS];	/* from its syscalls_*.h */
	struct meta_entry *meta;
	size_t nr_meta, alloc_meta;
	struct cu_functions *cus;
	size_t nr_cus, alloc_cus;
};

/*
 * read_u64() - the u64 at @addr, or 0: *@err becomes -EFAULT when it is
 * not there, and once *@err is set nothing more is read.
 */
static inline uint64_t read_u64(const struct kimage *k, uint64_t addr, int *err)
{
	uint64_t v = 0;

	if (!*err && kimage__read(k, addr, &v, sizeof(v)))
		*err = -EFAULT;
	return v;
}

#endif /* KABIDIFF_VMLINUX_COLLECT_H */
