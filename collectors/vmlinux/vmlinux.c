// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall interface of a vmlinux.
 *
 * Three ABIs: x86_64, and where the kernel has IA32_EMULATION and
 * X86_X32_ABI, ia32 and x32.  Each has a table, an array of absolute
 * addresses of the entry points (__x64_sys_read, __ia32_compat_sys_ioctl)
 * in .rodata, and since the 2024 change of x86 syscall dispatch (mainline
 * 6.9, backported to 6.1.85) a switch function instead, but for x86_64,
 * which keeps both; the switch is decoded (syscall-switch.h), and where
 * both are there they must agree.  The style is told by the symbols there
 * are, never by the version.  A slot holding sys_ni_syscall, or a weak
 * stub left by COND_SYSCALL(), is a number the kernel does not implement.
 * The tree's syscall_64.tbl and syscall_32.tbl give the ABI names, and
 * their rows must agree with the ia32 and x32 entry points, number by
 * number (x86_64's only name it: older kernels kept x32's entry points in
 * sys_call_table).
 *
 * The syscalls have their signatures from two more sources, each checking
 * the other: DWARF (dwarf-args.h) and the ftrace metadata (ftrace.h).
 *
 * This file takes the syscalls of each ABI from the sources and puts them
 * together.  The sources: the ABIs and their entry points (abi.c), the
 * table and the switch (dispatch.c), the .tbl and syscalls_*.h (tbl.c),
 * DWARF (dwarf-args.c), the ftrace metadata (ftrace.c); their checks
 * against each other (cross-check.c); the banner (identity.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "lib/print.h"
#include "collectors/dwarf/source-tree.h"
#include "collectors/dwarf/types.h"
#include "abi.h"
#include "collect.h"
#include "cross-check.h"
#include "dispatch.h"
#include "dwarf-args.h"
#include "ftrace.h"
#include "identity.h"
#include "kimage.h"
#include "tbl.h"
#include "vmlinux.h"

/*
 * The signature of syscall @index of ABI @d, entered at @addr through
 * @entry: that of the __do_ function the entry point's name gives, without
 * @d's prefix.  A compat one's (__ia32_compat_sys_ioctl) is in DWARF only;
 * a native one's also in the ftrace metadata, which checks the x86_64
 * ones and stands in for DWARF where that is missing.
 */
static int add_signature(struct collect *c, const struct abi_def *d,
			 size_t index, uint64_t addr, const char *entry)
{
	const char *fn = abi__fn(d, entry);
	const struct meta_entry *meta = strncmp(fn, "sys_", 4) ? NULL :
					ftrace__find(c, fn + 4);
	struct syscall *sc;
	int err;

	if (d->native)
		c->st->implemented++;
	err = dwarf_args__read(c, d, index, addr, fn);
	sc = &c->s->syscalls.v[index];
	if (meta)
		sc->sources |= SYSCALL_SRC_FTRACE;
	if (!err && meta && !(sc->sources & SYSCALL_SRC_DWARF))
		err = ftrace__args(sc, meta);
	if (!err && meta && d->native)
		cross_check__args(c, sc, meta);
	return err;
}

static int add_syscall(struct collect *c, size_t abi, uint32_t nr,
		       uint64_t addr, unsigned int sources)
{
	const struct abi_def *d = &abi_defs[abi];
	const struct tbl_row *row = tbl__row(&c->rows[abi], nr);
	const struct ksym *sym = abi__entry_of(c, d, row, addr);
	const char *entry = sym ? sym->name : "?";
	const char *base = abi__entry_base(d, entry);
	struct syscall *sc = snapshot__add_syscall(c->s);

	if (!sc)
		return -ENOMEM;
	sc->abi = strdup(d->abi);
	sc->nr = nr;
	sc->entry = strdup(entry);
	sc->name = strdup(row ? row->name : base);
	sc->implemented = abi__implements(c, d, sym, addr);
	sc->sources = sources | (row ? SYSCALL_SRC_TBL : 0);
	if (!sc->abi || !sc->entry || !sc->name)
		return -ENOMEM;
	if (!sc->implemented)
		return 0;
	return add_signature(c, d, c->s->syscalls.nr - 1, addr, entry);
}

/*
 * The syscalls of ABI @abi, from its table or its switch, or both, which
 * must agree.  A kernel with neither has no such ABI, but x86_64's must be
 * there.
 */
static int read_abi(struct collect *c, size_t abi)
{
	const struct abi_def *d = &abi_defs[abi];
	const struct ksym *table = kimage__sym(&c->k, d->table);
	bool has_switch = kimage__sym(&c->k, d->func);
	struct abi_map t = { 0 }, w = { 0 }, *m = table ? &t : &w;
	unsigned int sources = 0;
	size_t nr;
	int err = 0;

	if (table && table->size < 8)
		table = NULL;
	if (!table && !has_switch) {
		if (!d->native)
			return 0;
		pr_err("%s: no %s symbol: not an x86_64 vmlinux, or one without its symbol table",
		       c->k.path, d->table);
		return -ENOENT;
	}
	if (table) {
		err = dispatch__read_table(c, d, table, &t);
		sources |= SYSCALL_SRC_TABLE;
	}
	if (!err && has_switch) {
		err = dispatch__decode_switch(c, d, &w);
		sources |= SYSCALL_SRC_SWITCH;
	}
	if (!err && table && has_switch)
		err = cross_check__maps(c, d, &t, &w);
	if (!err)
		err = cross_check__rows(c, abi, m);
	if (d->native)
		c->st->table = t.nr;
	for (nr = 0; !err && nr < m->nr; nr++)
		err = add_syscall(c, abi, nr, m->addr[nr], sources);
	free(t.addr);
	free(w.addr);
	return err;
}

/* Every ABI is looked for: one that is not there is one the kernel lacks. */
static int read_syscalls(struct collect *c)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < NR_ABIS; i++)
		err = snapshot__add_syscall_abi(c->s, abi_defs[i].abi);
	c->s->syscalls.collected = true;
	for (i = 0; !err && i < NR_ABIS; i++)
		err = read_abi(c, i);
	return err;
}

static void collect_release(struct collect *c)
{
	tbl__release(c);
	ftrace__release(c);
	dwarf_args__release(c);
	type_closure__free(c->tc);
	source_tree__release(&c->tree);
	if (c->dw)
		dwarf_end(c->dw);
	kimage__close(&c->k);
}

int vmlinux__collect(const char *path, const char *syscalls_dir,
		     const char *headers_dir, struct snapshot *s,
		     struct vmlinux_stats *st)
{
	struct collect c = { .s = s, .st = st };
	int err;

	err = kimage__open(&c.k, path);
	if (!err && syscalls_dir)
		err = tbl__read_tree(&c, syscalls_dir);
	if (!err && headers_dir)
		err = tbl__read_build(&c, headers_dir);
	if (!err)
		err = identity__read(&c);
	if (!err) {
		c.dw = dwarf_begin_elf(c.k.elf, DWARF_C_READ, NULL);
		if (!c.dw)
			pr_warn("%s: no DWARF (%s): syscall arguments come from the ftrace metadata (in 6.1's layout), no types are collected",
				path, dwarf_errmsg(-1));
		c.tc = type_closure__new(s, "", &c.tree);
		err = c.tc ? 0 : -ENOMEM;
	}
	if (!err && c.dw)
		err = source_tree__find(&c.tree, c.dw, "init/main.c");
	if (!err)
		err = ftrace__read(&c);
	if (!err)
		err = read_syscalls(&c);
	if (!err)
		err = type_closure__run(c.tc);
	if (err == -ENOMEM)
		pr_err("%s: out of memory", path);
	if (!c.dw)
		s->types.collected = false;
	collect_release(&c);
	return err;
}
