// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
#include "collectors/dwarf/types.h"
#include "abi.h"
#include "collect.h"

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

const struct abi_def abi_defs[NR_ABIS] = {
	[ABI_X86_64] = {
		.abi = "x86_64", .table = "sys_call_table",
		.func = "x64_sys_call", .prefix = "__x64_", .tbl = TBL_64,
		.header = "syscalls_64.h", .rows = { "common", "64" },
		.native = true,
	},
	[ABI_IA32] = {
		.abi = "ia32", .table = "ia32_sys_call_table",
		.func = "ia32_sys_call", .prefix = "__ia32_", .tag = "ia32_",
		.tbl = TBL_32, .header = "syscalls_32.h", .rows = { "i386" },
		.compat = true, .ilp32 = &ia32_model,
	},
	[ABI_X32] = {
		.abi = "x32", .table = "x32_sys_call_table",
		.func = "x32_sys_call", .prefix = "__x64_", .tag = "x32_",
		.tbl = TBL_64, .header = "syscalls_x32.h",
		.rows = { "common", "x32" }, .ilp32 = &x32_model,
	},
};

/* @s after @prefix, if it starts so and goes on; else @s. */
static const char *skip(const char *s, const char *prefix)
{
	size_t n = prefix ? strlen(prefix) : 0;

	return n && !strncmp(s, prefix, n) && s[n] ? s + n : s;
}

const char *abi__ni_name(const struct abi_def *d, char *buf, size_t size)
{
	snprintf(buf, size, "%ssys_ni_syscall", d->prefix);
	return buf;
}

const struct ksym *abi__entry_at(const struct collect *c,
				 const struct abi_def *d, uint64_t addr)
{
	const struct ksym *sym;
	char ni[32];

	sym = kimage__sym_at(&c->k, addr, abi__ni_name(d, ni, sizeof(ni)));
	return sym && !strcmp(sym->name, ni) ? sym :
	       kimage__sym_at(&c->k, addr, d->prefix);
}

bool abi__is_ni(const struct collect *c, const struct abi_def *d,
		uint64_t addr)
{
	const struct ksym *sym = abi__entry_at(c, d, addr);
	char ni[32];

	return sym && !strcmp(sym->name, abi__ni_name(d, ni, sizeof(ni)));
}

const char *abi__describe(const struct collect *c, const struct abi_def *d,
			  uint64_t addr, char *buf, size_t size)
{
	const struct ksym *sym = abi__entry_at(c, d, addr);

	if (sym)
		return sym->name;
	snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	return buf;
}

const char *abi__fn(const struct abi_def *d, const char *entry)
{
	return skip(entry, d->prefix);
}

const char *abi__entry_base(const struct abi_def *d, const char *entry)
{
	return skip(skip(skip(abi__fn(d, entry), "compat_"), "sys_"), d->tag);
}

const struct ksym *abi__entry_of(const struct collect *c,
				 const struct abi_def *d,
				 const struct tbl_row *row, uint64_t addr)
{
	const struct ksym *sym = row && row->entry ?
				 kimage__sym(&c->k, row->entry) : NULL;

	return sym && sym->addr == addr ? sym : abi__entry_at(c, d, addr);
}

bool abi__implements(const struct collect *c, const struct abi_def *d,
		     const struct ksym *sym, uint64_t addr)
{
	const struct ksym *ni = kimage__sym_at(&c->k, addr, "sys_ni_");
	char buf[32];

	if (!sym)
		return true;	/* nothing says otherwise */
	return strcmp(sym->name, abi__ni_name(d, buf, sizeof(buf))) &&
	       !sym->weak && strncmp(ni->name, "sys_ni_", 7);
}
