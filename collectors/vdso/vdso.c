// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbols a vDSO image exports, with their versions and prototypes.
 *
 * The exported symbols are the defined global and weak ones of .dynsym
 * (the image's linker script makes every other one local).  Each has the
 * version its .gnu.version entry gives: an index into the version
 * definitions of .gnu.version_d, where the first, VER_FLG_BASE, names the
 * file and index 1 means "not versioned".  vdso32 has two versions,
 * LINUX_2.6 for the clock functions and LINUX_2.5 for __kernel_vsyscall
 * and the signal trampolines.
 *
 * A prototype is that of the DWARF subprogram whose low PC is the
 * symbol's value, so that a weak alias (clock_gettime) has the prototype
 * of the function it names (__vdso_clock_gettime).  Symbols written in
 * assembly have none.  The types they reach are recorded by the type
 * closure under the image's prefix (collectors/dwarf/types.h says why).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "collectors/dwarf/elf.h"
#include "collectors/dwarf/source-tree.h"
#include "collectors/dwarf/types.h"
#include "lib/array.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "vdso.h"

/*
 * The images of x86_64 kernels, told by their ELF class and machine, and
 * the source file of one of their units, which tells the top of the
 * source tree (source-tree.h).
 */
static const struct {
	unsigned char class;
	GElf_Half machine;
	const char *name;
	const char *prefix;	/* of the names of the types it reaches */
	const char *unit;
} image_kinds[] = {
	{ ELFCLASS64, EM_X86_64, "vdso64", "vdso64:",
	  "arch/x86/entry/vdso/vclock_gettime.c" },
	{ ELFCLASS32, EM_386, "vdso32", "vdso32:",
	  "arch/x86/entry/vdso/vdso32/vclock_gettime.c" },
	{ ELFCLASS32, EM_X86_64, "vdsox32", "vdsox32:",
	  "arch/x86/entry/vdso/vclock_gettime.c" },
};

/* Version definitions are few: vdso32 has three with the base. */
#define MAX_VERSIONS	16

struct image {
	const char *path;
	size_t size;			/* of the file */
	int kind;			/* index into image_kinds */
	Elf *elf;
	Dwarf *dw;			/* NULL: no DWARF */
	const char *versions[MAX_VERSIONS];	/* by index; in @elf */
	struct source_tree tree;
	struct type_closure *tc;
	/* the subprograms with code, by low PC */
	struct subprogram {
		Dwarf_Addr low_pc;
		Dwarf_Die die;
	} *subprograms;
	size_t nr_subprograms, alloc_subprograms;
};

static Elf_Scn *find_section(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static int identify(struct image *im)
{
	GElf_Ehdr eh;
	size_t i;

	if (elf_kind(im->elf) != ELF_K_ELF || !gelf_getehdr(im->elf, &eh)) {
		pr_err("%s: not an ELF file, so not a vDSO image", im->path);
		return -EINVAL;
	}
	if (!elf_is_complete(im->elf, &eh, im->size)) {
		pr_err("%s: truncated: the ELF headers describe more than its %zu bytes",
		       im->path, im->size);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(image_kinds); i++) {
		if (eh.e_ident[EI_CLASS] == image_kinds[i].class &&
		    eh.e_machine == image_kinds[i].machine &&
		    eh.e_type == ET_DYN) {
			im->kind = i;
			return 0;
		}
	}
	pr_err("%s: not a vDSO image of an x86 kernel (ELF type %u, machine %u); use arch/x86/entry/vdso/vdso*.so.dbg of a build directory, or usr/lib/debug/lib/modules/RELEASE/vdso/vdso*.so of a -dbg package",
	       im->path, eh.e_type, eh.e_machine);
	return -EINVAL;
}

/* The names of the version definitions, by index, from .gnu.version_d. */
static int read_versions(struct image *im)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(im->elf, SHT_GNU_verdef, &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	unsigned int offset = 0, n;
	GElf_Verdef def;
	GElf_Verdaux aux;
	const char *name;

	if (!scn)
		return 0;	/* no version: every symbol is unversioned */
	for (n = 0; n < sh.sh_info; n++, offset += def.vd_next) {
		if (!data || !gelf_getverdef(data, offset, &def) ||
		    !gelf_getverdaux(data, offset + def.vd_aux, &aux))
			goto damaged;
		name = elf_strptr(im->elf, sh.sh_link, aux.vda_name);
		if (def.vd_ndx >= MAX_VERSIONS || !name)
			goto damaged;
		if (!(def.vd_flags & VER_FLG_BASE))
			im->versions[def.vd_ndx] = name;
		if (!def.vd_next)
			break;
	}
	return 0;
damaged:
	pr_err("%s: damaged version definitions (.gnu.version_d): entry %u",
	       im->path, n);
	return -EINVAL;
}

static int subprogram_cmp(const void *pa, const void *pb)
{
	const struct subprogram *a = pa, *b = pb;

	return (a->low_pc > b->low_pc) - (a->low_pc < b->low_pc);
}

/*
 * Every subprogram with code, of every C unit: an image has a handful.
 * An assembly unit has them too (gas describes each function, its return
 * type "unspecified"), but no prototype.
 */
static int index_subprograms(struct image *im)
{
	Dwarf_Off off = 0, next;
	size_t header_size;
	Dwarf_Die cu, child;

	while (!dwarf_nextcu(im->dw, off, &next, &header_size, NULL, NULL, NULL)) {
		if (dwarf_offdie(im->dw, off + header_size, &cu) &&
		    dwarf_srclang(&cu) != DW_LANG_Mips_Assembler &&
		    !dwarf_child(&cu, &child)) {
			do {
				struct subprogram *sp;
				Dwarf_Addr pc;

				if (dwarf_tag(&child) != DW_TAG_subprogram ||
				    dwarf_lowpc(&child, &pc))
					continue;
				sp = ARRAY_APPEND(im->subprograms, im->nr_subprograms,
						  im->alloc_subprograms);
				if (!sp)
					return -ENOMEM;
				sp->low_pc = pc;
				sp->die = child;
			} while (!dwarf_siblingof(&child, &child));
		}
		off = next;
	}
	qsort(im->subprograms, im->nr_subprograms, sizeof(*im->subprograms),
	      subprogram_cmp);
	return 0;
}

static Dwarf_Die *subprogram_at(struct image *im, GElf_Addr addr)
{
	struct subprogram key = { .low_pc = addr }, *sp;

	sp = bsearch(&key, im->subprograms, im->nr_subprograms,
		     sizeof(*im->subprograms), subprogram_cmp);
	return sp ? &sp->die : NULL;
}

/* The name of @die, or of the declaration it completes; NULL if none. */
static char *name_of(Dwarf_Die *die, int *err)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name,
								 &attr));
	char *copy = name ? strdup(name) : NULL;

	if (name && !copy)
		*err = -ENOMEM;
	return copy;
}

/* The return type and the parameters of @fn, into the symbol at @index. */
static int add_prototype(struct image *im, struct snapshot *s, size_t index,
			 Dwarf_Die *fn)
{
	char *ret = type_closure__name(im->tc, fn);
	Dwarf_Die param;
	int err = 0;

	if (!ret)
		return -ENOMEM;
	s->vdso.v[index].ret.type = ret;
	if (dwarf_child(fn, &param))
		return 0;
	do {
		struct syscall_arg *arg;

		if (dwarf_tag(&param) != DW_TAG_formal_parameter)
			continue;
		arg = vdso_symbol__add_arg(&s->vdso.v[index]);
		if (!arg)
			return -ENOMEM;
		arg->name = name_of(&param, &err);
		arg->type = type_closure__name(im->tc, &param);
		if (!arg->type)
			err = -ENOMEM;
	} while (!err && !dwarf_siblingof(&param, &param));
	return err;
}

static bool is_exported(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info), type = GELF_ST_TYPE(sym->st_info);

	return (bind == STB_GLOBAL || bind == STB_WEAK) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       type != STT_SECTION && type != STT_FILE &&
	       GELF_ST_VISIBILITY(sym->st_other) != STV_HIDDEN;
}

/*
 * The name of version index @version (a .gnu.version entry, the hidden bit
 * masked) into *@vname, NULL for none; -EINVAL for an index that the
 * version definitions do not define.
 */
static int version_name(const struct image *im, const char *name,
			GElf_Versym version, const char **vname)
{
	version &= 0x7fff;
	*vname = NULL;
	if (version == VER_NDX_LOCAL || version == VER_NDX_GLOBAL)
		return 0;
	if (version < MAX_VERSIONS && im->versions[version]) {
		*vname = im->versions[version];
		return 0;
	}
	pr_err("%s: symbol %s has version %u, which .gnu.version_d does not define",
	       im->path, name, version);
	return -EINVAL;
}

/* @version: the .gnu.version entry of the symbol, or VER_NDX_GLOBAL. */
static int add_symbol(struct image *im, struct snapshot *s, const char *name,
		      const GElf_Sym *sym, GElf_Versym version)
{
	struct vdso_symbol *v;
	const char *vname;
	size_t index;
	Dwarf_Die *fn;
	int err = version_name(im, name, version, &vname);

	if (err)
		return err;
	v = snapshot__add_vdso_symbol(s);
	if (!v)
		return -ENOMEM;
	index = s->vdso.nr - 1;
	v->image = strdup(image_kinds[im->kind].name);
	v->name = strdup(name);
	v->version = vname ? strdup(vname) : NULL;
	if (!v->image || !v->name || (vname && !v->version))
		return -ENOMEM;
	fn = im->dw ? subprogram_at(im, sym->st_value) : NULL;
	return fn ? add_prototype(im, s, index, fn) : 0;
}

static int read_symbols(struct image *im, struct snapshot *s)
{
	GElf_Shdr sh, vsh;
	Elf_Scn *scn = find_section(im->elf, SHT_DYNSYM, &sh);
	Elf_Scn *vscn = find_section(im->elf, SHT_GNU_versym, &vsh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	Elf_Data *vdata = vscn ? elf_getdata(vscn, NULL) : NULL;
	size_t i, n;
	int err = 0;

	if (!data || !sh.sh_entsize) {
		pr_err("%s: no dynamic symbol table (.dynsym), so not a vDSO image",
		       im->path);
		return -EINVAL;
	}
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; !err && i < n; i++) {
		GElf_Versym version = VER_NDX_GLOBAL;
		const char *name;
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym)) {
			pr_err("%s: damaged symbol %zu of .dynsym: %s", im->path,
			       i, elf_errmsg(-1));
			return -EINVAL;
		}
		if (!is_exported(&sym))
			continue;
		name = elf_strptr(im->elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (vdata && !gelf_getversym(vdata, i, &version)) {
			pr_err("%s: no version for symbol %s in .gnu.version",
			       im->path, name);
			return -EINVAL;
		}
		err = add_symbol(im, s, name, &sym, version);
	}
	return err;
}

/* An image already in @s: two files of one image would mix their symbols. */
static bool image_collected(const struct snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->vdso.nr; i++)
		if (!strcmp(s->vdso.v[i].image, name))
			return true;
	return false;
}

static int collect_image(struct image *im, struct snapshot *s)
{
	const char *name;
	int err = identify(im) ?: read_versions(im);

	if (err)
		return err;
	name = image_kinds[im->kind].name;
	if (image_collected(s, name)) {
		pr_err("%s: a second %s image: give one file of each image", im->path,
		       name);
		return -EEXIST;
	}
	im->dw = dwarf_begin_elf(im->elf, DWARF_C_READ, NULL);
	if (!im->dw)
		pr_warn("%s: no DWARF (%s): the %s symbols are collected without prototypes; the image with debug info is arch/x86/entry/vdso/%s.so.dbg in a build directory",
			im->path, dwarf_errmsg(-1), name, name);
	if (im->dw) {
		im->tc = type_closure__new(s, image_kinds[im->kind].prefix,
					   &im->tree);
		err = im->tc ? index_subprograms(im) : -ENOMEM;
	}
	if (!err && im->dw)
		err = source_tree__find(&im->tree, im->dw,
					image_kinds[im->kind].unit);
	s->vdso.collected = true;
	if (!err)
		err = read_symbols(im, s);
	if (!err && im->tc)
		err = type_closure__run(im->tc);
	return err;
}

int vdso__collect(const char *path, struct snapshot *s)
{
	struct image im = { .path = path };
	char *buf = NULL;
	size_t len;
	int err;

	err = read_file_or_report(path, SMALL_FILE_MAX, &buf, &len);
	if (err)
		return err;
	elf_version(EV_CURRENT);
	im.size = len;
	im.elf = elf_memory(buf, len);
	if (!im.elf) {
		pr_err("%s: %s", path, elf_errmsg(-1));
		free(buf);
		return -EINVAL;
	}
	err = collect_image(&im, s);
	if (err == -ENOMEM)
		pr_err("%s: out of memory", path);
	type_closure__free(im.tc);
	source_tree__release(&im.tree);
	free(im.subprograms);
	if (im.dw)
		dwarf_end(im.dw);
	elf_end(im.elf);
	free(buf);
	return err;
}
