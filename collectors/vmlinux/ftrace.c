// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "lib/array.h"
#include "lib/print.h"
#include "collect.h"
#include "ftrace.h"

/* struct syscall_metadata, as far as we read it. */
struct meta_layout {
	size_t name, nb_args, types, args;
};

/* 6.1's layout, for a vmlinux without DWARF. */
static const struct meta_layout layout_6_1 = {
	.name = 0, .nb_args = 12, .types = 16, .args = 24,
};

/* The layout of struct syscall_metadata in the unit of kernel/trace/trace_syscalls.c. */
static int meta_layout_from_dwarf(struct collect *c, struct meta_layout *l)
{
	const struct ksym *fn = kimage__sym(&c->k, "syscall_enter_define_fields");
	Dwarf_Die cu, child, member;
	int found = 0;

	if (!c->dw || !fn || !dwarf_addrdie(c->dw, fn->addr, &cu) ||
	    dwarf_child(&cu, &child))
		return -ENOENT;
	do {
		const char *name = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_structure_type || !name ||
		    strcmp(name, "syscall_metadata") || dwarf_child(&child, &member))
			continue;
		do {
			Dwarf_Attribute attr;
			Dwarf_Word off;
			size_t *field = NULL;

			name = dwarf_diename(&member);
			if (!name || !dwarf_attr(&member, DW_AT_data_member_location, &attr) ||
			    dwarf_formudata(&attr, &off))
				continue;
			if (!strcmp(name, "name"))
				field = &l->name;
			else if (!strcmp(name, "nb_args"))
				field = &l->nb_args;
			else if (!strcmp(name, "types"))
				field = &l->types;
			else if (!strcmp(name, "args"))
				field = &l->args;
			if (field) {
				*field = off;
				found++;
			}
		} while (!dwarf_siblingof(&member, &member));
		return found == 4 ? 0 : -ENOENT;
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

static int read_meta_entry(struct collect *c, const struct meta_layout *l,
			   uint64_t addr)
{
	struct meta_entry *e;
	uint64_t name, types, args;
	uint32_t nb_args = 0;
	int err = 0, i;

	name = read_u64(&c->k, addr + l->name, &err);
	types = read_u64(&c->k, addr + l->types, &err);
	args = read_u64(&c->k, addr + l->args, &err);
	if (err || kimage__read(&c->k, addr + l->nb_args, &nb_args, 4) ||
	    nb_args > MAX_ARGS)
		return 0;	/* not what we expect: skip it */
	e = ARRAY_APPEND(c->meta, c->nr_meta, c->alloc_meta);
	if (!e)
		return -ENOMEM;
	e->name = kimage__read_string(&c->k, name, MAX_STRING);
	e->nb_args = nb_args;
	for (i = 0; i < (int)nb_args; i++) {
		uint64_t type = read_u64(&c->k, types + 8 * i, &err);
		uint64_t arg = read_u64(&c->k, args + 8 * i, &err);

		e->types[i] = kimage__read_string(&c->k, type, MAX_STRING);
		e->args[i] = kimage__read_string(&c->k, arg, MAX_STRING);
		if (!e->types[i] || !e->args[i])
			return -ENOMEM;
	}
	if (!e->name)
		return -ENOMEM;
	/* "sys_read" names the syscall "read" */
	if (!strncmp(e->name, "sys_", 4))
		memmove(e->name, e->name + 4, strlen(e->name + 4) + 1);
	return 0;
}

int ftrace__read(struct collect *c)
{
	const struct ksym *start = kimage__sym(&c->k, "__start_syscalls_metadata");
	const struct ksym *stop = kimage__sym(&c->k, "__stop_syscalls_metadata");
	struct meta_layout l = layout_6_1;
	uint64_t addr;
	int err = 0;

	if (!start || !stop)
		return 0;	/* no CONFIG_FTRACE_SYSCALLS */
	if (stop->addr < start->addr || stop->addr - start->addr > 8 * MAX_SYSCALLS) {
		pr_warn("%s: the ftrace syscall metadata's bounds make no sense: not read",
			c->k.path);
		return 0;
	}
	if (c->dw && meta_layout_from_dwarf(c, &l))
		pr_warn("%s: no DWARF for struct syscall_metadata: reading the ftrace metadata with 6.1's layout",
			c->k.path);
	for (addr = start->addr; !err && addr + 8 <= stop->addr; addr += 8)
		err = read_meta_entry(c, &l, read_u64(&c->k, addr, &err));
	c->st->ftrace = c->nr_meta;
	return err == -EFAULT ? 0 : err;
}

const struct meta_entry *ftrace__find(const struct collect *c,
				      const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_meta; i++)
		if (c->meta[i].name && !strcmp(c->meta[i].name, name))
			return &c->meta[i];
	return NULL;
}

int ftrace__args(struct syscall *sc, const struct meta_entry *m)
{
	int i;

	for (i = 0; i < m->nb_args; i++) {
		struct syscall_arg *arg = syscall__add_arg(sc);

		if (!arg)
			return -ENOMEM;
		arg->name = strdup(m->args[i]);
		arg->type = strdup(m->types[i]);
		if (!arg->name || !arg->type)
			return -ENOMEM;
	}
	return 0;
}

void ftrace__release(struct collect *c)
{
	size_t i;
	int j;

	for (i = 0; i < c->nr_meta; i++) {
		free(c->meta[i].name);
		for (j = 0; j < c->meta[i].nb_args; j++) {
			free(c->meta[i].types[j]);
			free(c->meta[i].args[j]);
		}
	}
	free(c->meta);
}
