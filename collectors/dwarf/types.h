/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * C names and layouts of DWARF types, and the closure of the types that
 * syscall arguments and vDSO prototypes reach.  Shared by the vmlinux and
 * vdso collectors.
 */
#ifndef KABIDIFF_DWARF_TYPES_H
#define KABIDIFF_DWARF_TYPES_H

#include <elfutils/libdw.h>

#include "model/model.h"
#include "source-tree.h"

struct type_closure;

/*
 * type_closure__new() - record the types reached into @s, each named with
 * @prefix in front ("" for the kernel's, "vdso32:" for those of a vDSO
 * image), and each definition's file relative to the top of @tree.  Both
 * are borrowed for the closure's life.  NULL (ENOMEM).
 */
struct type_closure *type_closure__new(struct snapshot *s, const char *prefix,
				       const struct source_tree *tree);

void type_closure__free(struct type_closure *tc);

/*
 * type_closure__name() - the C spelling of the type of @die (its DW_AT_type;
 * "void" without one) as a malloc()ed string, and queue the named types it
 * is made of for type_closure__run().  NULL with errno ENOMEM.
 */
char *type_closure__name(struct type_closure *tc, Dwarf_Die *die);

/*
 * An ILP32 ABI of x86_64 kernels (ia32, x32) sizes what the kernel's own
 * DWARF describes its way: pointers and longs are 4 bytes there, and the
 * typedefs of @fixed, those its asm/posix_types.h defines otherwise, have
 * the size it gives them (x32's __kernel_long_t is long long).
 */
struct ilp32_typedef {
	const char *name;
	uint32_t size;
};

struct ilp32_model {
	const struct ilp32_typedef *fixed;
	size_t nr_fixed;
};

/*
 * dwarf_ilp32_size() - the size in bytes of the type of @die (its
 * DW_AT_type) in @model, through typedefs and qualifiers; 0 when unknown.
 */
uint32_t dwarf_ilp32_size(Dwarf_Die *die, const struct ilp32_model *model);

/*
 * type_closure__run() - record every queued type and, through members,
 * every type those reach.  Returns 0 or -ENOMEM.
 */
int type_closure__run(struct type_closure *tc);

#endif /* KABIDIFF_DWARF_TYPES_H */
