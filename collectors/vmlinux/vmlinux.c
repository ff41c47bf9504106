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
 * the other:
 *
 * - DWARF: the entry point takes struct pt_regs *, __se_sys_read widens all
 *   to long, and the real parameters are on the (inlined) __do_sys_read,
 *   found in the compilation unit that .debug_aranges maps the entry
 *   point's address to, so no other unit is read.  A SYSCALL_DEFINE0 has
 *   a __do_sys_ with one "__unused" pt_regs parameter: no arguments.  An
 *   ia32 or x32 number that runs a native entry point (__ia32_sys_read)
 *   has the native parameters; a compat one (__ia32_compat_sys_ioctl)
 *   those of its __do_compat_sys_ioctl, whose compat types (struct
 *   compat_stat, struct old_timespec32) join the closure under their own
 *   names, so that they never pair with the native ones.  Both get the
 *   size each argument has in the ABI (4 for a pointer, in ILP32 ABIs);
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
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "kimage.h"
#include "syscall-switch.h"
#include "collectors/dwarf/source-tree.h"
#include "collectors/dwarf/types.h"
#include "vmlinux.h"

#define MAX_ARGS	6
#define MAX_STRING	256
#define MAX_SYSCALLS	4096	/* x86_64 has 463 numbers, x32 548 */

enum tbl_file { TBL_64, TBL_32, NR_TBL_FILES };

static const char *const tbl_files[NR_TBL_FILES] = {
	[TBL_64] = "syscall_64.tbl", [TBL_32] = "syscall_32.tbl",
};

/*
 * A syscall ABI of x86_64 kernels: its table and switch symbols, the
 * prefix of its entry points, and its rows in the tree's .tbl, those whose
 * second column is one of @rows; where @compat, a row's compat entry point
 * (its fifth column) is the one taken.  x32 numbers are those of its rows,
 * without the 0x40000000 a program adds, as x32_sys_call() takes them.
 */
struct abi_def {
	const char *abi;
	const char *table, *func;
	const char *prefix;
	const char *tag;	/* a name may add: sys_ia32_pread64 is pread64 */
	enum tbl_file tbl;
	const char *header;	/* a build's generated asm/syscalls_*.h */
	const char *rows[2];
	bool compat;
	bool native;		/* its rows only name it; its metadata is checked */
	const struct ilp32_model *ilp32;	/* NULL for an LP64 ABI */
};

static const struct ilp32_model ia32_model = { 0 };

/* arch/x86/include/uapi/asm/posix_types_x32.h, and __BITS_PER_LONG 32 */
static const struct ilp32_typedef x32_typedefs[] = {
	{ "__kernel_long_t", 8 }, { "__kernel_ulong_t", 8 },
	{ "__kernel_size_t", 4 }, { "__kernel_ssize_t", 4 },
	{ "__kernel_ptrdiff_t", 4 },
};

static const struct ilp32_model x32_model = {
	.fixed = x32_typedefs, .nr_fixed = ARRAY_SIZE(x32_typedefs),
};

static const struct abi_def abi_defs[] = {
	{ .abi = "x86_64", .table = "sys_call_table", .func = "x64_sys_call",
	  .prefix = "__x64_", .tbl = TBL_64, .header = "syscalls_64.h",
	  .rows = { "common", "64" },
	  .native = true },
	{ .abi = "ia32", .table = "ia32_sys_call_table", .func = "ia32_sys_call",
	  .prefix = "__ia32_", .tag = "ia32_", .tbl = TBL_32,
	  .header = "syscalls_32.h",
	  .rows = { "i386" }, .compat = true, .ilp32 = &ia32_model },
	{ .abi = "x32", .table = "x32_sys_call_table", .func = "x32_sys_call",
	  .prefix = "__x64_", .tag = "x32_", .tbl = TBL_64,
	  .header = "syscalls_x32.h",
	  .rows = { "common", "x32" }, .ilp32 = &x32_model },
};
#define NR_ABIS		ARRAY_SIZE(abi_defs)

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
 * What the numbers of an ABI reach, as its table or its switch says
 * (@from, which @verb them, for messages): @addr[nr] for those below @nr,
 * @def for the others (sys_ni_syscall; 0 if unknown).
 */
struct abi_map {
	uint64_t *addr;
	size_t nr;
	uint64_t def;
	const char *from, *verb;
};

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

/*
 * The __do_sys_ and __do_compat_sys_ functions of one compilation unit,
 * found once.
 */
struct cu_functions {
	Dwarf_Off cu;
	struct do_sys {
		/* "sys_read", after "__do_"; borrowed from libdw, not kept */
		const char *name;
		Dwarf_Die die;
	} *v;
	size_t nr, alloc;
};

struct collect {
	struct kimage k;
	Dwarf *dw;
	struct source_tree tree;	/* its top from init/main.c's unit */
	struct snapshot *s;
	struct vmlinux_stats *st;
	struct type_closure *tc;
	char *tbl_paths[NR_TBL_FILES];
	struct tbl_rows rows[NR_ABIS];	/* of abi_defs[i], from its .tbl */
	char *header_paths[NR_ABIS];
	struct tbl_rows header_rows[NR_ABIS];	/* from its syscalls_*.h */
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

/*
 * The date in the banner's UTS_VERSION, if it has one: the diff says so
 * when it needs a date that NEW does not have.
 */
static int read_build_date(struct kernel_ident *id)
{
	char date[BUILD_DATE_SIZE];

	if (!id->version || build_date__from_version(id->version, date))
		return 0;
	id->build_date = strdup(date);
	return id->build_date ? 0 : -ENOMEM;
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
	return err ? err : read_build_date(id);
}

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

/* @dir/syscall_64.tbl and syscall_32.tbl, each when it is there. */
static int read_tbls(struct collect *c, const char *dir)
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

/* @dir/syscalls_64.h, syscalls_32.h and syscalls_x32.h, each when it is there. */
static int read_headers(struct collect *c, const char *dir)
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

/*
 * The arguments of syscall @index of ABI @d, entered at @addr, from its
 * __do_@fn ("sys_read", "compat_sys_ioctl"), in @d's sizes, and the file
 * of that function: that of its SYSCALL_DEFINE, as __se_sys_ and the entry
 * point have it too.
 */
static int dwarf_signature(struct collect *c, const struct abi_def *d,
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

/* @s after @prefix, if it starts so and goes on; else @s. */
static const char *skip(const char *s, const char *prefix)
{
	size_t n = prefix ? strlen(prefix) : 0;

	return n && !strncmp(s, prefix, n) && s[n] ? s + n : s;
}

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
	const char *fn = skip(entry, d->prefix);
	const struct meta_entry *meta = strncmp(fn, "sys_", 4) ? NULL :
					find_meta(c, fn + 4);
	struct syscall *sc;
	int err;

	if (d->native)
		c->st->implemented++;
	err = dwarf_signature(c, d, index, addr, fn);
	sc = &c->s->syscalls.v[index];
	if (meta)
		sc->sources |= SYSCALL_SRC_FTRACE;
	if (!err && meta && !(sc->sources & SYSCALL_SRC_DWARF))
		err = meta_signature(sc, meta);
	if (!err && meta && d->native && (int)sc->nr_args != meta->nb_args) {
		pr_warn("%s: syscall %u (%s): DWARF says %zu arguments, the ftrace metadata %d",
			c->k.path, sc->nr, sc->name, sc->nr_args, meta->nb_args);
		c->st->mismatched++;
	}
	return err;
}

/* "__ia32_sys_ni_syscall": what the numbers of @d without an entry point run. */
static const char *ni_name(const struct abi_def *d, char *buf, size_t size)
{
	snprintf(buf, size, "%ssys_ni_syscall", d->prefix);
	return buf;
}

/* The entry point of @d at @addr: sys_ni_syscall wins over other names there. */
static const struct ksym *entry_at(const struct collect *c,
				   const struct abi_def *d, uint64_t addr)
{
	char ni[32];
	const struct ksym *sym = kimage__sym_at(&c->k, addr,
						ni_name(d, ni, sizeof(ni)));

	return sym && !strcmp(sym->name, ni) ? sym :
	       kimage__sym_at(&c->k, addr, d->prefix);
}

static bool is_ni(const struct collect *c, const struct abi_def *d,
		  uint64_t addr)
{
	const struct ksym *sym = entry_at(c, d, addr);
	char ni[32];

	return sym && !strcmp(sym->name, ni_name(d, ni, sizeof(ni)));
}

/* The name of the entry point at @addr, else the address, in @buf. */
static const char *describe(const struct collect *c, const struct abi_def *d,
			    uint64_t addr, char *buf, size_t size)
{
	const struct ksym *sym = entry_at(c, d, addr);

	if (sym)
		return sym->name;
	snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	return buf;
}

/*
 * The name an entry point gives a syscall without a row in the .tbl:
 * "read" of __ia32_sys_read, "ioctl" of __ia32_compat_sys_ioctl, "pread64"
 * of __ia32_sys_ia32_pread64.
 */
static const char *entry_base(const struct abi_def *d, const char *entry)
{
	return skip(skip(skip(skip(entry, d->prefix), "compat_"), "sys_"),
		    d->tag);
}

static const struct tbl_row *row_of(const struct tbl_rows *rows, size_t nr)
{
	return nr < rows->nr && rows->v[nr].name ? &rows->v[nr] : NULL;
}

/*
 * The entry point of @d at @addr: the one @row gives if it is there (of
 * several names at one address, the row's), else entry_at()'s.
 */
static const struct ksym *entry_of(const struct collect *c,
				   const struct abi_def *d,
				   const struct tbl_row *row, uint64_t addr)
{
	const struct ksym *sym = row && row->entry ?
				 kimage__sym(&c->k, row->entry) : NULL;

	return sym && sym->addr == addr ? sym : entry_at(c, d, addr);
}

/*
 * Whether the entry point @sym at @addr implements its syscall: not if it
 * is sys_ni_syscall, a weak stub COND_SYSCALL() left, or an alias of
 * another sys_ni_ function (without POSIX_TIMERS the timer syscalls are
 * sys_ni_posix_timers).
 */
static bool implements(const struct collect *c, const struct abi_def *d,
		       const struct ksym *sym, uint64_t addr)
{
	const struct ksym *ni = kimage__sym_at(&c->k, addr, "sys_ni_");
	char buf[32];

	if (!sym)
		return true;	/* nothing says otherwise */
	return strcmp(sym->name, ni_name(d, buf, sizeof(buf))) && !sym->weak &&
	       strncmp(ni->name, "sys_ni_", 7);
}

static int add_syscall(struct collect *c, size_t abi, uint32_t nr,
		       uint64_t addr, unsigned int sources)
{
	const struct abi_def *d = &abi_defs[abi];
	const struct tbl_row *row = row_of(&c->rows[abi], nr);
	const struct ksym *sym = entry_of(c, d, row, addr);
	const char *entry = sym ? sym->name : "?", *base = entry_base(d, entry);
	struct syscall *sc = snapshot__add_syscall(c->s);

	if (!sc)
		return -ENOMEM;
	sc->abi = strdup(d->abi);
	sc->nr = nr;
	sc->entry = strdup(entry);
	sc->name = strdup(row ? row->name : base);
	sc->implemented = implements(c, d, sym, addr);
	sc->sources = sources | (row ? SYSCALL_SRC_TBL : 0);
	if (!sc->abi || !sc->entry || !sc->name)
		return -ENOMEM;
	if (!sc->implemented)
		return 0;
	return add_signature(c, d, c->s->syscalls.nr - 1, addr, entry);
}

static uint64_t reached(const struct abi_map *m, size_t nr)
{
	return nr < m->nr ? m->addr[nr] : m->def;
}

/* The slots of @d's table @table. */
static int read_table(struct collect *c, const struct abi_def *d,
		      const struct ksym *table, struct abi_map *m)
{
	char ni[32];
	const struct ksym *def = kimage__sym(&c->k, ni_name(d, ni, sizeof(ni)));
	size_t nr;
	int err = 0;

	if (table->size > 8 * MAX_SYSCALLS) {
		pr_err("%s: %s of %llu bytes: not a syscall table", c->k.path,
		       table->name, (unsigned long long)table->size);
		return -EINVAL;
	}
	m->from = table->name;
	m->verb = "holds";
	m->nr = table->size / 8;
	m->def = def ? def->addr : 0;
	m->addr = calloc(m->nr, sizeof(*m->addr));
	if (!m->addr)
		return -ENOMEM;
	for (nr = 0; !err && nr < m->nr; nr++)
		m->addr[nr] = read_u64(&c->k, table->addr + 8 * nr, &err);
	if (err)
		pr_err("%s: %s is not in the file's data", c->k.path,
		       table->name);
	return err;
}

/* What @d's switch function dispatches each number to. */
static int decode_switch(struct collect *c, const struct abi_def *d,
			 struct abi_map *m)
{
	struct switch_map map;
	size_t nr;
	int err = syscall_switch__decode(&c->k, d->func, d->prefix, &map);

	if (err)
		return err;
	m->from = d->func;
	m->verb = "reaches";
	m->nr = map.nr;
	m->def = map.def.addr;
	m->addr = calloc(map.nr ? map.nr : 1, sizeof(*m->addr));
	for (nr = 0; m->addr && nr < map.nr; nr++)
		m->addr[nr] = map.v[nr].addr;
	switch_map__release(&map);
	return m->addr ? 0 : -ENOMEM;
}

/* " (and 12 more numbers)" after the first of @wrong numbers, in @buf. */
static const char *and_more(size_t wrong, char *buf, size_t size)
{
	if (wrong < 2)
		return "";
	snprintf(buf, size, " (and %zu more numbers)", wrong - 1);
	return buf;
}

/* @d's table @a and switch @b must send each number to one entry point. */
static int maps_agree(const struct collect *c, const struct abi_def *d,
		      const struct abi_map *a, const struct abi_map *b)
{
	size_t nr, n = a->nr > b->nr ? a->nr : b->nr, wrong = 0, first = 0;
	char x[32], y[32], more[64];

	for (nr = 0; nr < n; nr++)
		if (reached(a, nr) != reached(b, nr) && !wrong++)
			first = nr;
	if (!wrong)
		return 0;
	pr_err("%s: %s syscall %zu: %s %s %s, %s %s %s%s", c->k.path, d->abi,
	       first, a->from, a->verb,
	       describe(c, d, reached(a, first), x, sizeof(x)), b->from, b->verb,
	       describe(c, d, reached(b, first), y, sizeof(y)),
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
		return is_ni(c, d, addr);
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
		if (!row_agrees(c, d, row_of(rows, nr), reached(m, nr)) &&
		    !wrong++)
			first = nr;
	if (!wrong)
		return 0;
	pr_err("%s: %s syscall %zu: %s %s %s, but %s %s%s: is that the %s of this vmlinux?",
	       c->k.path, d->abi, first, m->from, m->verb,
	       describe(c, d, reached(m, first), x, sizeof(x)), path,
	       row_says(c, row_of(rows, first), says, sizeof(says)),
	       and_more(wrong, more, sizeof(more)), origin);
	return -EINVAL;
}

/*
 * What the tree's .tbl and the build's syscalls_*.h say of ABI @abi must
 * be what @m, its table or switch, does.  x86_64's .tbl rows only name
 * its syscalls, and its header is taken below 512 alone: kernels before
 * the x32 table of its own kept x32's entry points in sys_call_table, from
 * 512 on, where the x86_64 header has no rows.
 */
static int cross_check(const struct collect *c, size_t abi,
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
		err = read_table(c, d, table, &t);
		sources |= SYSCALL_SRC_TABLE;
	}
	if (!err && has_switch) {
		err = decode_switch(c, d, &w);
		sources |= SYSCALL_SRC_SWITCH;
	}
	if (!err && table && has_switch)
		err = maps_agree(c, d, &t, &w);
	if (!err)
		err = cross_check(c, abi, m);
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

static void release_rows(struct tbl_rows *rows)
{
	size_t k;

	for (k = 0; k < rows->nr; k++) {
		free(rows->v[k].name);
		free(rows->v[k].entry);
	}
	free(rows->v);
}

static void collect_release(struct collect *c)
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
	for (i = 0; i < c->nr_meta; i++) {
		free(c->meta[i].name);
		for (j = 0; j < c->meta[i].nb_args; j++) {
			free(c->meta[i].types[j]);
			free(c->meta[i].args[j]);
		}
	}
	for (i = 0; i < c->nr_cus; i++)
		free(c->cus[i].v);
	free(c->meta);
	free(c->cus);
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
		err = read_tbls(&c, syscalls_dir);
	if (!err && headers_dir)
		err = read_headers(&c, headers_dir);
	if (!err)
		err = read_identity(&c);
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
		err = read_meta(&c);
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
