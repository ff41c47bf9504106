// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall interface of a vmlinux.
 *
 * Three sources, each checking the others:
 *
 * - the table: sys_call_table is an array of absolute addresses of the
 *   entry points (__x64_sys_read) in .rodata; a slot holding
 *   __x64_sys_ni_syscall, or a weak stub left by COND_SYSCALL(), is a number
 *   the kernel does not implement;
 * - DWARF: the entry point takes struct pt_regs *, __se_sys_read widens all
 *   to long, and the real parameters are on the (inlined) __do_sys_read,
 *   found in the compilation unit that .debug_aranges maps the entry
 *   point's address to, so no other unit is read.  A SYSCALL_DEFINE0 has
 *   a __do_sys_ with one "__unused" pt_regs parameter: no arguments;
 * - the ftrace metadata (CONFIG_FTRACE_SYSCALLS): an array of pointers to
 *   struct syscall_metadata between __start_syscalls_metadata and
 *   __stop_syscalls_metadata, with each syscall's name and its arguments'
 *   source-spelled types and names.  Its layout changed between kernels,
 *   so it is read from this vmlinux's own DWARF; without DWARF, the 6.1
 *   layout is assumed.  It checks the DWARF argument counts and stands in
 *   for DWARF when that is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "lib/array.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "kimage.h"
#include "types.h"
#include "vmlinux.h"

#define ENTRY_PREFIX	"__x64_sys_"
#define NOT_IMPLEMENTED	"__x64_sys_ni_syscall"
#define MAX_ARGS	6
#define MAX_STRING	256
#define MAX_SYSCALLS	4096	/* x86_64 has 451 slots, ia32 and x32 fewer */

/* struct syscall_metadata, as far as we read it. */
struct meta_layout {
	size_t name, nb_args, types, args;
};

/* 6.1's layout, for a vmlinux without DWARF. */
static const struct meta_layout layout_6_1 = {
	.name = 0, .nb_args = 12, .types = 16, .args = 24,
};

struct meta_entry {
	char *name;		/* "read", without "sys_" */
	int nb_args;
	char *types[MAX_ARGS];
	char *args[MAX_ARGS];
};

/* The __do_sys_ functions of one compilation unit, found once. */
struct cu_functions {
	Dwarf_Off cu;
	struct do_sys {
		const char *name;	/* borrowed from libdw, not kept past use */
		Dwarf_Die die;
	} *v;
	size_t nr, alloc;
};

struct collect {
	struct kimage k;
	Dwarf *dw;
	struct snapshot *s;
	struct vmlinux_stats *st;
	struct type_closure *tc;
	char **tbl_names;	/* syscall_64.tbl: number -> name */
	size_t nr_tbl;
	struct meta_entry *meta;
	size_t nr_meta, alloc_meta;
	struct cu_functions *cus;
	size_t nr_cus, alloc_cus;
};

static uint64_t read_u64(const struct kimage *k, uint64_t addr, int *err)
{
	uint64_t v = 0;

	if (!*err && kimage__read(k, addr, &v, sizeof(v)))
		*err = -EFAULT;
	return v;
}

/* "Linux version 6.1.0-57-amd64 (...) #1 SMP ... (2025-10-04)\n" */
static int read_identity(struct collect *c)
{
	const struct ksym *banner = kimage__sym(&c->k, "linux_banner");
	struct kernel_ident *id = &c->s->kernel;
	char *text, *p, build_id[129];
	int err = 0;

	id->arch = strdup("x86_64");
	if (!id->arch)
		return -ENOMEM;
	if (!kimage__build_id(&c->k, build_id, sizeof(build_id))) {
		id->build_id = strdup(build_id);
		if (!id->build_id)
			return -ENOMEM;
	}
	if (!banner) {
		pr_warn("%s: no linux_banner symbol: the kernel release is unknown",
			c->k.path);
		return 0;
	}
	text = kimage__read_string(&c->k, banner->addr, MAX_STRING);
	if (!text)
		return -ENOMEM;
	p = strchr(text, '\n');
	if (p)
		*p = '\0';
	if (!strncmp(text, "Linux version ", 14)) {
		p = strchr(text + 14, ' ');
		id->release = strndup(text + 14, p ? (size_t)(p - text - 14) :
				      strlen(text + 14));
		if (!id->release)
			err = -ENOMEM;
	}
	p = strstr(text, " #");
	if (!err && p) {
		id->version = strdup(p + 1);
		if (!id->version)
			err = -ENOMEM;
	}
	free(text);
	return err;
}

/* syscall_64.tbl: "<nr> <abi> <name> [<entry>]"; keep common and 64. */
static int read_tbl(struct collect *c, const char *path)
{
	char *buf = NULL, *line, *next;
	size_t len;
	int err = read_file(path, SMALL_FILE_MAX, &buf, &len);

	/* out of memory is reported once, by vmlinux__collect() */
	if (err && err != -ENOMEM)
		pr_err("%s: %s", path, strerror(-err));
	for (line = buf; !err && line && *line; line = next) {
		char abi[32], name[128];
		unsigned int nr;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' ||
		    sscanf(line, "%u %31s %127s", &nr, abi, name) != 3 ||
		    (strcmp(abi, "common") && strcmp(abi, "64")) || nr > 4096)
			continue;
		while (!err && c->nr_tbl <= nr) {
			char **slot = ARRAY_APPEND_ITEM(c->tbl_names, c->nr_tbl);

			err = slot ? 0 : -ENOMEM;
		}
		if (!err && !c->tbl_names[nr]) {
			c->tbl_names[nr] = strdup(name);
			if (!c->tbl_names[nr])
				err = -ENOMEM;
		}
	}
	free(buf);
	return err;
}

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

static int read_meta(struct collect *c)
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

static const struct meta_entry *find_meta(const struct collect *c,
					  const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_meta; i++)
		if (c->meta[i].name && !strcmp(c->meta[i].name, name))
			return &c->meta[i];
	return NULL;
}

/* The __do_sys_ functions of the unit @cu, listed on first use. */
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
		    strncmp(name, "__do_sys_", 9))
			continue;
		d = ARRAY_APPEND(f->v, f->nr, f->alloc);
		if (!d)
			return NULL;
		d->name = name;
		d->die = child;
	} while (!dwarf_siblingof(&child, &child));
	return f;
}

static bool is_unused_regs(Dwarf_Die *param)
{
	const char *name = dwarf_diename(param);

	return name && !strcmp(name, "__unused");
}

/* The arguments of the syscall entered at @addr, from its __do_sys_. */
static int dwarf_signature(struct collect *c, size_t index, uint64_t addr,
			   const char *base)
{
	struct cu_functions *f;
	Dwarf_Die cu, param, *fn = NULL;
	size_t i, nr_params = 0;
	int err = 0;

	if (!c->dw || !dwarf_addrdie(c->dw, addr, &cu))
		return 0;
	f = cu_functions(c, &cu);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < f->nr && !fn; i++)
		if (!strcmp(f->v[i].name + 9, base))
			fn = &f->v[i].die;
	if (!fn)
		return 0;
	if (!dwarf_child(fn, &param)) {
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
			if (!arg->type || (name && !arg->name))
				err = -ENOMEM;
		} while (!err && !dwarf_siblingof(&param, &param));
	}
	c->s->syscalls.v[index].sources |= SYSCALL_SRC_DWARF;
	c->st->typed++;
	return err;
}

/* Without DWARF: the source-spelled arguments of the ftrace metadata. */
static int meta_signature(struct syscall *sc, const struct meta_entry *m)
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

static int add_syscall(struct collect *c, uint32_t nr, uint64_t addr)
{
	/* sys_ni_syscall wins over other names at its address */
	const struct ksym *ni = kimage__sym_at(&c->k, addr, NOT_IMPLEMENTED);
	const struct ksym *sym = ni && !strcmp(ni->name, NOT_IMPLEMENTED) ? ni :
				 kimage__sym_at(&c->k, addr, ENTRY_PREFIX);
	const char *entry = sym ? sym->name : "?", *base = entry;
	const struct meta_entry *meta;
	struct syscall *sc = snapshot__add_syscall(c->s);
	size_t index = c->s->syscalls.nr - 1;
	int err;

	if (!sc)
		return -ENOMEM;
	if (!strncmp(base, ENTRY_PREFIX, strlen(ENTRY_PREFIX)))
		base += strlen(ENTRY_PREFIX);
	sc->abi = strdup("x86_64");
	sc->nr = nr;
	sc->entry = strdup(entry);
	sc->name = strdup(nr < c->nr_tbl && c->tbl_names[nr] ?
			  c->tbl_names[nr] : base);
	/* COND_SYSCALL() leaves a weak stub that calls sys_ni_syscall */
	sc->implemented = strcmp(entry, NOT_IMPLEMENTED) && !(sym && sym->weak);
	sc->sources = SYSCALL_SRC_TABLE;
	if (!sc->abi || !sc->entry || !sc->name)
		return -ENOMEM;
	if (!sc->implemented)
		return 0;
	c->st->implemented++;
	meta = find_meta(c, base);
	if (meta)
		sc->sources |= SYSCALL_SRC_FTRACE;
	err = dwarf_signature(c, index, addr, base);
	sc = &c->s->syscalls.v[index];
	if (!err && meta && !(sc->sources & SYSCALL_SRC_DWARF))
		err = meta_signature(sc, meta);
	if (!err && meta && (int)sc->nr_args != meta->nb_args) {
		pr_warn("%s: syscall %u (%s): DWARF says %zu arguments, the ftrace metadata %d",
			c->k.path, nr, sc->name, sc->nr_args, meta->nb_args);
		c->st->mismatched++;
	}
	return err;
}

static int read_table(struct collect *c)
{
	const struct ksym *table = kimage__sym(&c->k, "sys_call_table");
	uint32_t nr;
	int err = 0;

	if (table && table->size > 8 * MAX_SYSCALLS) {
		pr_err("%s: sys_call_table of %llu bytes: not a syscall table",
		       c->k.path, (unsigned long long)table->size);
		return -EINVAL;
	}
	if (!table || table->size < 8) {
		pr_err("%s: no sys_call_table symbol: not an x86_64 vmlinux, or one without its symbol table",
		       c->k.path);
		return -ENOENT;
	}
	c->st->table = table->size / 8;
	c->s->syscalls.collected = true;
	for (nr = 0; !err && nr < c->st->table; nr++) {
		uint64_t addr = read_u64(&c->k, table->addr + 8 * nr, &err);

		if (!err)
			err = add_syscall(c, nr, addr);
	}
	if (err == -EFAULT)
		pr_err("%s: sys_call_table is not in the file's data", c->k.path);
	return err;
}

static void collect_release(struct collect *c)
{
	size_t i;
	int j;

	for (i = 0; i < c->nr_tbl; i++)
		free(c->tbl_names[i]);
	for (i = 0; i < c->nr_meta; i++) {
		free(c->meta[i].name);
		for (j = 0; j < c->meta[i].nb_args; j++) {
			free(c->meta[i].types[j]);
			free(c->meta[i].args[j]);
		}
	}
	for (i = 0; i < c->nr_cus; i++)
		free(c->cus[i].v);
	free(c->tbl_names);
	free(c->meta);
	free(c->cus);
	type_closure__free(c->tc);
	if (c->dw)
		dwarf_end(c->dw);
	kimage__close(&c->k);
}

int vmlinux__collect(const char *path, const char *syscall_tbl,
		     struct snapshot *s, struct vmlinux_stats *st)
{
	struct collect c = { .s = s, .st = st };
	int err;

	err = kimage__open(&c.k, path);
	if (!err && syscall_tbl)
		err = read_tbl(&c, syscall_tbl);
	if (!err)
		err = read_identity(&c);
	if (!err) {
		c.dw = dwarf_begin_elf(c.k.elf, DWARF_C_READ, NULL);
		if (!c.dw)
			pr_warn("%s: no DWARF (%s): syscall arguments come from the ftrace metadata (in 6.1's layout), no types are collected",
				path, dwarf_errmsg(-1));
		c.tc = type_closure__new(s);
		err = c.tc ? 0 : -ENOMEM;
	}
	if (!err)
		err = read_meta(&c);
	if (!err)
		err = read_table(&c);
	if (!err)
		err = type_closure__run(c.tc);
	if (err == -ENOMEM)
		pr_err("%s: out of memory", path);
	if (!c.dw)
		s->types.collected = false;
	collect_release(&c);
	return err;
}
