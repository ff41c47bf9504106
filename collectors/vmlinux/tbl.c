// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "abi.h"
#include "collect.h"
#include "tbl.h"

static const char *const tbl_files[NR_TBL_FILES] = {
	[TBL_64] = "syscall_64.tbl", [TBL_32] = "syscall_32.tbl",
};

static bool is_row_of(const struct abi_def *d, const char *abi)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(d->rows); i++)
		if (d->rows[i] && !strcmp(d->rows[i], abi))
			return true;
	return false;
}

/* Row @nr of @rows: @name, and @entry with @d's prefix unless NULL. */
static int add_row(const struct abi_def *d, struct tbl_rows *rows,
		   unsigned int nr, const char *name, const char *entry)
{
	struct tbl_row *row;

	while (rows->nr <= nr)
		if (!ARRAY_APPEND_ITEM(rows->v, rows->nr))
			return -ENOMEM;
	row = &rows->v[nr];
	if (row->name)
		return 0;	/* the first row of a number counts */
	row->name = strdup(name);
	row->entry = entry ? xasprintf("%s%s", d->prefix, entry) : NULL;
	return row->name && (!entry || row->entry) ? 0 : -ENOMEM;
}

/*
 * One line of a .tbl, "<nr> <abi> <name> [<entry> [<compat entry>]]" (6.12
 * adds a sixth column, "noreturn"), into the rows of each ABI it is for.
 */
static int read_tbl_line(struct collect *c, int file, const char *line)
{
	char abi[32], name[128], entry[128], compat[128];
	unsigned int nr;
	size_t i;
	int n = *line == '#' ? 0 :
		sscanf(line, "%u %31s %127s %127s %127s", &nr, abi, name,
		       entry, compat);
	int err = 0;

	if (n < 3 || nr >= MAX_SYSCALLS)
		return 0;
	for (i = 0; !err && i < NR_ABIS; i++) {
		const struct abi_def *d = &abi_defs[i];

		if ((int)d->tbl != file || !is_row_of(d, abi))
			continue;
		err = add_row(d, &c->rows[i], nr, name,
			      n < 4 ? NULL :
			      d->compat && n == 5 && strcmp(compat, "-") ?
			      compat : entry);
	}
	return err;
}

/*
 * Each line of @path, if the file is there, to @fn with @arg.  Returns 0
 * (also when there is no such file) or -errno, reported but -ENOMEM,
 * which vmlinux__collect() reports once.
 */
static int read_lines(struct collect *c, const char *path,
		      int (*fn)(struct collect *c, int arg, const char *line),
		      int arg)
{
	char *buf = NULL, *line, *next;
	size_t len;
	int err = read_file(path, SMALL_FILE_MAX, &buf, &len);

	if (err == -ENOENT)
		return 0;
	if (err && err != -ENOMEM)
		pr_err("%s: %s", path, strerror(-err));
	for (line = buf; !err && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		err = fn(c, arg, line);
	}
	free(buf);
	return err;
}

int tbl__read_tree(struct collect *c, const char *dir)
{
	int file, err = 0;

	for (file = 0; !err && file < NR_TBL_FILES; file++) {
		c->tbl_paths[file] = xasprintf("%s/%s", dir, tbl_files[file]);
		if (!c->tbl_paths[file])
			return -ENOMEM;
		err = read_lines(c, c->tbl_paths[file], read_tbl_line, file);
	}
	return err;
}

/*
 * One line of a build's asm/syscalls_*.h, as scripts/syscalltbl.sh writes
 * it: "__SYSCALL(nr, entry)", "__SYSCALL_WITH_COMPAT(nr, native, compat)"
 * and their _NORETURN and _COMPAT_NORETURN forms (6.12), holes as
 * sys_ni_syscall.  ia32 takes the compat entry point where there is one,
 * as the kernel's __SYSCALL_WITH_COMPAT does under CONFIG_COMPAT.
 */
static int read_header_line(struct collect *c, int abi, const char *line)
{
	const struct abi_def *d = &abi_defs[abi];
	char macro[32], native[128], compat[128];
	unsigned int nr;
	int n = sscanf(line, "%31[A-Z_](%u, %127[a-z0-9_], %127[a-z0-9_])",
		       macro, &nr, native, compat);
	const char *entry = n == 4 && d->compat ? compat : native;

	if (n < 3 || strncmp(macro, "__SYSCALL", 9) || nr >= MAX_SYSCALLS)
		return 0;
	return add_row(d, &c->header_rows[abi], nr, entry,
		       strcmp(entry, "sys_ni_syscall") ? entry : NULL);
}

int tbl__read_build(struct collect *c, const char *dir)
{
	size_t abi;
	int err = 0;

	for (abi = 0; !err && abi < NR_ABIS; abi++) {
		c->header_paths[abi] = xasprintf("%s/%s", dir, abi_defs[abi].header);
		if (!c->header_paths[abi])
			return -ENOMEM;
		err = read_lines(c, c->header_paths[abi], read_header_line, abi);
	}
	return err;
}

const struct tbl_row *tbl__row(const struct tbl_rows *rows, size_t nr)
{
	return nr < rows->nr && rows->v[nr].name ? &rows->v[nr] : NULL;
}

static void release_rows(struct tbl_rows *rows)
{
	size_t k;

	for (k = 0; k < rows->nr; k++) {
		free(rows->v[k].name);
		free(rows->v[k].entry);
	}
	free(rows->v);
}

void tbl__release(struct collect *c)
{
	size_t i;
	int j;

	for (i = 0; i < NR_ABIS; i++) {
		release_rows(&c->rows[i]);
		release_rows(&c->header_rows[i]);
		free(c->header_paths[i]);
	}
	for (j = 0; j < NR_TBL_FILES; j++)
		free(c->tbl_paths[j]);
}
