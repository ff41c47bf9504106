/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The file a DWARF entry was declared in (DW_AT_decl_file), as a path
 * relative to the top of the kernel source tree: "fs/read_write.c".
 * Shared by the vmlinux and vdso collectors.
 */
#ifndef KABIDIFF_DWARF_SOURCE_TREE_H
#define KABIDIFF_DWARF_SOURCE_TREE_H

#include <elfutils/libdw.h>

/*
 * How the units of one file spell the top of the source tree: "" when
 * their paths are relative to it, "/build/linux" or ".." otherwise, without
 * ".", ".." inside or a final "/"; NULL when not known.
 */
struct source_tree {
	char *top;
};

/*
 * source_tree__find() - learn @t's top from the first unit of @dw compiled
 * from @file, a path relative to the top ("init/main.c"): its name is the
 * top followed by @file.  When no unit is, the top stays unknown.  Returns
 * 0 or -ENOMEM.  Release @t with source_tree__release().
 */
int source_tree__find(struct source_tree *t, Dwarf *dw, const char *file);

/* source_tree__release() - free @t's top; it is then unknown. */
void source_tree__release(struct source_tree *t);

/*
 * source_tree__path() - @path, as a unit compiled in @comp_dir (NULL: not
 * known) names a file, relative to the top of the source tree, malloc()ed
 * into *@out; NULL in *@out when it lies outside the source and build
 * trees (a compiler's header under /usr/lib/gcc) or names no file.  The
 * top of @t may be unknown.  Returns 0 or -ENOMEM.
 */
int source_tree__path(const struct source_tree *t, const char *comp_dir,
		      const char *path, char **out);

/*
 * source_tree__decl_file() - the DW_AT_decl_file of @die (or of the entry
 * it completes) by source_tree__path(), malloc()ed into *@out; NULL in
 * *@out when it has none.  Returns 0 or -ENOMEM.
 */
int source_tree__decl_file(const struct source_tree *t, Dwarf_Die *die,
			   char **out);

#endif /* KABIDIFF_DWARF_SOURCE_TREE_H */
