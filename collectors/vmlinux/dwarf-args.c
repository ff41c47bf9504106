// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "lib/array.h"
#include "collectors/dwarf/source-tree.h"
#include "collectors/dwarf/types.h"
#include "abi.h"
#include "collect.h"
#include "dwarf-args.h"

/* The __do_ functions of the unit @cu, listed on first use. */
static struct cu_functions *cu_functions(struct collect *c, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct cu_functions *f;
	Dwarf_Die child;
	size_t i;

	for (i = 0; i < c->nr_cus; i++)
		if (c->cus[i].cu == off)
			return &c->cus[i];
	f = ARRAY_APPEND(c->cus, c->nr_cus, c->alloc_cus);
	if (!f)
		return NULL;
	f->cu = off;
	if (dwarf_child(cu, &child))
		return f;
	do {
		const char *name = dwarf_diename(&child);
		struct do_sys *d;

		if (dwarf_tag(&child) != DW_TAG_subprogram || !name ||
		    (strncmp(name, "__do_sys_", 9) &&
		     strncmp(name, "__do_compat_sys_", 16)))
			continue;
		d = ARRAY_APPEND(f->v, f->nr, f->alloc);
		if (!d)
			return NULL;
		d->name = name + 5;
		d->die = child;
	} while (!dwarf_siblingof(&child, &child));
	return f;
}

static bool is_unused_regs(Dwarf_Die *param)
{
	const char *name = dwarf_diename(param);

	return name && !strcmp(name, "__unused");
}

int dwarf_args__read(struct collect *c, const struct abi_def *d,
		     size_t index, uint64_t addr, const char *fn)
{
	struct cu_functions *f;
	Dwarf_Die cu, param, *do_fn = NULL;
	size_t i, nr_params = 0;
	int err = 0;

	if (!c->dw || !dwarf_addrdie(c->dw, addr, &cu))
		return 0;
	f = cu_functions(c, &cu);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < f->nr && !do_fn; i++)
		if (!strcmp(f->v[i].name, fn))
			do_fn = &f->v[i].die;
	if (!do_fn)
		return 0;
	err = source_tree__decl_file(&c->tree, do_fn,
				     &c->s->syscalls.v[index].file);
	if (err)
		return err;
	if (!dwarf_child(do_fn, &param)) {
		do {
			struct syscall_arg *arg;
			const char *name = dwarf_diename(&param);

			if (dwarf_tag(&param) != DW_TAG_formal_parameter)
				continue;
			/* SYSCALL_DEFINE0's __do_sys_ takes the unused regs */
			if (!nr_params++ && is_unused_regs(&param))
				break;
			arg = syscall__add_arg(&c->s->syscalls.v[index]);
			if (!arg)
				return -ENOMEM;
			arg->name = name ? strdup(name) : NULL;
			arg->type = type_closure__name(c->tc, &param);
			if (d->ilp32)
				arg->abi_size = dwarf_ilp32_size(&param, d->ilp32);
			if (!arg->type || (name && !arg->name))
				err = -ENOMEM;
		} while (!err && !dwarf_siblingof(&param, &param));
	}
	c->s->syscalls.v[index].sources |= SYSCALL_SRC_DWARF;
	if (d->native)
		c->st->typed++;
	return err;
}

void dwarf_args__release(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->nr_cus; i++)
		free(c->cus[i].v);
	free(c->cus);
}
