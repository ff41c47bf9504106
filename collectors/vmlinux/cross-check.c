// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/print.h"
#include "abi.h"
#include "collect.h"
#include "cross-check.h"
#include "dispatch.h"
#include "tbl.h"

/* " (and 12 more numbers)" after the first of @wrong numbers, in @buf. */
static const char *and_more(size_t wrong, char *buf, size_t size)
{
	if (wrong < 2)
		return "";
	snprintf(buf, size, " (and %zu more numbers)", wrong - 1);
	return buf;
}

int cross_check__maps(const struct collect *c, const struct abi_def *d,
		      const struct abi_map *a, const struct abi_map *b)
{
	size_t nr, n = a->nr > b->nr ? a->nr : b->nr, wrong = 0, first = 0;
	char x[32], y[32], more[64];

	for (nr = 0; nr < n; nr++)
		if (dispatch__reached(a, nr) != dispatch__reached(b, nr) &&
		    !wrong++)
			first = nr;
	if (!wrong)
		return 0;
	pr_err("%s: %s syscall %zu: %s %s %s, %s %s %s%s", c->k.path, d->abi,
	       first, a->from, a->verb,
	       abi__describe(c, d, dispatch__reached(a, first), x, sizeof(x)),
	       b->from, b->verb,
	       abi__describe(c, d, dispatch__reached(b, first), y, sizeof(y)),
	       and_more(wrong, more, sizeof(more)));
	return -EINVAL;
}

/*
 * Whether the number of @row reaches @addr, as the row says: its entry
 * point, or sys_ni_syscall when it has none (or there is no row).
 */
static bool row_agrees(const struct collect *c, const struct abi_def *d,
		       const struct tbl_row *row, uint64_t addr)
{
	const struct ksym *sym;

	if (!row || !row->entry)
		return abi__is_ni(c, d, addr);
	sym = kimage__sym(&c->k, row->entry);
	return sym && sym->addr == addr;
}

/* What the .tbl says of @row in an error, in @buf. */
static const char *row_says(const struct collect *c, const struct tbl_row *row,
			    char *buf, size_t size)
{
	if (!row || !row->entry)
		return "gives it no entry point";
	snprintf(buf, size, "gives %s%s", row->entry,
		 kimage__sym(&c->k, row->entry) ? "" : ", which the vmlinux lacks");
	return buf;
}

/*
 * Every number of ABI @abi below @limit must reach what @rows, read from
 * @path (a file of the @origin, "tree" or "build"), say.
 */
static int check_rows(const struct collect *c, size_t abi,
		      const struct abi_map *m, const struct tbl_rows *rows,
		      const char *path, const char *origin, size_t limit)
{
	const struct abi_def *d = &abi_defs[abi];
	size_t nr, n = rows->nr > m->nr ? rows->nr : m->nr, wrong = 0, first = 0;
	char x[32], says[192], more[64];

	if (!rows->nr)
		return 0;
	for (nr = 0; nr < n && nr < limit; nr++)
		if (!row_agrees(c, d, tbl__row(rows, nr),
				dispatch__reached(m, nr)) && !wrong++)
			first = nr;
	if (!wrong)
		return 0;
	pr_err("%s: %s syscall %zu: %s %s %s, but %s %s%s: is that the %s of this vmlinux?",
	       c->k.path, d->abi, first, m->from, m->verb,
	       abi__describe(c, d, dispatch__reached(m, first), x, sizeof(x)),
	       path,
	       row_says(c, tbl__row(rows, first), says, sizeof(says)),
	       and_more(wrong, more, sizeof(more)), origin);
	return -EINVAL;
}

/*
 * x86_64's .tbl rows only name its syscalls, and its header is taken below
 * 512 alone: kernels before the x32 table of its own kept x32's entry
 * points in sys_call_table, from 512 on, where the x86_64 header has no
 * rows.
 */
int cross_check__rows(const struct collect *c, size_t abi,
		      const struct abi_map *m)
{
	const struct abi_def *d = &abi_defs[abi];
	int err = 0;

	if (!d->native)
		err = check_rows(c, abi, m, &c->rows[abi], c->tbl_paths[d->tbl],
				 "tree", SIZE_MAX);
	if (!err)
		err = check_rows(c, abi, m, &c->header_rows[abi],
				 c->header_paths[abi], "build",
				 d->native ? 512 : SIZE_MAX);
	return err;
}

void cross_check__args(const struct collect *c, const struct syscall *sc,
		       const struct meta_entry *meta)
{
	if ((int)sc->nr_args == meta->nb_args)
		return;
	pr_warn("%s: syscall %u (%s): DWARF says %zu arguments, the ftrace metadata %d",
		c->k.path, sc->nr, sc->name, sc->nr_args, meta->nb_args);
	c->st->mismatched++;
}
