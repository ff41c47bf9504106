/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The syscall lists of the sources: the tree's syscall_64.tbl and
 * syscall_32.tbl, which name the syscalls, and a build's generated
 * asm/syscalls_*.h, its own tables.  Private to the vmlinux collector.
 */
#ifndef KABIDIFF_VMLINUX_TBL_H
#define KABIDIFF_VMLINUX_TBL_H

#include <stddef.h>

struct collect;

enum tbl_file { TBL_64, TBL_32, NR_TBL_FILES };

/* The row of a number in an ABI's .tbl: its name, its entry point. */
struct tbl_row {
	char *name;		/* NULL: no row */
	char *entry;		/* with the ABI's prefix; NULL: the row has none */
};

struct tbl_rows {
	struct tbl_row *v;	/* v[nr] */
	size_t nr;
};

/*
 * tbl__read_tree() - the rows of @dir/syscall_64.tbl and syscall_32.tbl,
 * each when it is there, into @c->rows.  Returns 0 or -errno, reported but
 * -ENOMEM, which vmlinux__collect() reports once.
 */
int tbl__read_tree(struct collect *c, const char *dir);

/*
 * tbl__read_build() - the rows of @dir/syscalls_64.h, syscalls_32.h and
 * syscalls_x32.h, each when it is there, into @c->header_rows.  Returns as
 * tbl__read_tree().
 */
int tbl__read_build(struct collect *c, const char *dir);

/* tbl__row() - the row of number @nr in @rows, or NULL */
const struct tbl_row *tbl__row(const struct tbl_rows *rows, size_t nr);

/* tbl__release() - free the rows and the paths of @c the above read */
void tbl__release(struct collect *c);

#endif /* KABIDIFF_VMLINUX_TBL_H */
