/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * C names and layouts of DWARF types, and the closure of the types that
 * syscall arguments reach.  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_TYPES_H
#define KABIDIFF_VMLINUX_TYPES_H

#include <elfutils/libdw.h>

#include "model/model.h"

struct type_closure;

/* type_closure__new() - record the types reached into @s; NULL (ENOMEM). */
struct type_closure *type_closure__new(struct snapshot *s);

void type_closure__free(struct type_closure *tc);

/*
 * type_closure__name() - the C spelling of the type of @die (its DW_AT_type;
 * "void" without one) as a malloc()ed string, and queue the named types it
 * is made of for type_closure__run().  NULL with errno ENOMEM.
 */
char *type_closure__name(struct type_closure *tc, Dwarf_Die *die);

/*
 * type_closure__run() - record every queued type and, through members,
 * every type those reach.  Returns 0 or -ENOMEM.
 */
int type_closure__run(struct type_closure *tc);

#endif /* KABIDIFF_VMLINUX_TYPES_H */
