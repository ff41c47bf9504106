// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/print.h"
#include "collectors/dwarf/elf.h"
#include "image.h"

/* Where image__open() lays out section @index of a module. */
#define MODULE_SECTION_SHIFT	32

/* The DWARF sections whose relocations libdw needs applied. */
static const char *const dwarf_relocated[] = {
	".debug_info", ".debug_line", ".debug_str_offsets", ".debug_addr",
};

static bool wants_relocation(const GElf_Shdr *sh, const char *name)
{
	size_t i;

	if (sh->sh_flags & SHF_ALLOC)
		return !(sh->sh_flags & SHF_EXECINSTR);
	for (i = 0; i < sizeof(dwarf_relocated) / sizeof(*dwarf_relocated); i++) {
		if (!strcmp(name, dwarf_relocated[i]))
			return true;
	}
	return false;
}

static void put_le(unsigned char *p, uint64_t v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = v >> (8 * i);
}

/* The address symbol @ndx of @symtab stands for, as the layout puts it. */
static uint64_t symbol_address(const struct image *im, Elf_Data *symtab,
			       size_t ndx)
{
	GElf_Sym sym;

	if (!gelf_getsym(symtab, ndx, &sym))
		return 0;
	if (sym.st_shndx == SHN_ABS)
		return sym.st_value;
	if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= im->nr_sections)
		return 0;
	return im->sections[sym.st_shndx].addr + sym.st_value;
}

/*
 * Apply the absolute relocations of the RELA section @rela to its target.
 * The PC-relative ones, which only code and the tables of code addresses
 * use, are left: nothing here reads them.
 */
static int relocate(struct image *im, Elf_Scn *rela, const GElf_Shdr *sh,
		    const char *origin)
{
	Elf_Scn *target = elf_getscn(im->elf, sh->sh_info);
	Elf_Scn *symscn = elf_getscn(im->elf, sh->sh_link);
	Elf_Data *relocs = elf_getdata(rela, NULL);
	Elf_Data *symtab = symscn ? elf_getdata(symscn, NULL) : NULL;
	Elf_Data *data = target ? elf_rawdata(target, NULL) : NULL;
	size_t i, n;

	if (!relocs || !symtab || !data || !data->d_buf)
		return 0;
	n = sh->sh_size / (sh->sh_entsize ? sh->sh_entsize : sizeof(GElf_Rela));
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		size_t len;
		uint64_t v;

		if (!gelf_getrela(relocs, i, &r))
			break;
		switch (GELF_R_TYPE(r.r_info)) {
		case R_X86_64_64:
			len = 8;
			break;
		case R_X86_64_32:
		case R_X86_64_32S:
			len = 4;
			break;
		default:
			continue;
		}
		if (r.r_offset > data->d_size || data->d_size - r.r_offset < len) {
			pr_err("%s: a relocation of section %zu lies outside it",
			       origin, (size_t)sh->sh_info);
			return -EINVAL;
		}
		v = symbol_address(im, symtab, GELF_R_SYM(r.r_info)) + r.r_addend;
		put_le((unsigned char *)data->d_buf + r.r_offset, v, len);
	}
	return 0;
}

static int lay_out(struct image *im, size_t shstrndx, const char *origin)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(im->elf, scn))) {
		size_t i = elf_ndxscn(scn);
		struct image_section *is = &im->sections[i];
		Elf_Data *data;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		is->addr = im->relocatable ?
			   (uint64_t)i << MODULE_SECTION_SHIFT : sh.sh_addr;
		is->size = sh.sh_size;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		data = elf_rawdata(scn, NULL);
		if (data && data->d_size == sh.sh_size)
			is->bytes = data->d_buf;
	}
	scn = NULL;
	while (!err && im->relocatable && (scn = elf_nextscn(im->elf, scn))) {
		GElf_Shdr sh, target;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !gelf_getshdr(elf_getscn(im->elf, sh.sh_info), &target))
			continue;
		name = elf_strptr(im->elf, shstrndx, target.sh_name);
		if (name && wants_relocation(&target, name))
			err = relocate(im, scn, &sh, origin);
	}
	return err;
}

int image__open(struct image *im, unsigned char *buf, size_t size,
		const char *origin)
{
	size_t shstrndx;
	GElf_Ehdr eh;

	memset(im, 0, sizeof(*im));
	im->buf = buf;
	im->size = size;
	elf_version(EV_CURRENT);
	im->elf = elf_memory((char *)buf, size);
	if (!im->elf || !gelf_getehdr(im->elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    !elf_is_complete(im->elf, &eh, size) ||
	    elf_getshdrnum(im->elf, &im->nr_sections) ||
	    elf_getshdrstrndx(im->elf, &shstrndx)) {
		pr_err("%s: not a whole x86_64 ELF file", origin);
		return -EINVAL;
	}
	im->relocatable = eh.e_type == ET_REL;
	im->sections = calloc(im->nr_sections, sizeof(*im->sections));
	if (!im->sections)
		return -ENOMEM;
	return lay_out(im, shstrndx, origin);
}

void image__release(struct image *im)
{
	if (im->elf)
		elf_end(im->elf);
	free(im->sections);
	free(im->buf);
	memset(im, 0, sizeof(*im));
}

static const struct image_section *section_at(const struct image *im,
					      uint64_t addr)
{
	size_t i;

	if (im->relocatable) {
		i = addr >> MODULE_SECTION_SHIFT;
		if (i < im->nr_sections && im->sections[i].addr &&
		    addr - im->sections[i].addr < im->sections[i].size)
			return &im->sections[i];
		return NULL;
	}
	for (i = 1; i < im->nr_sections; i++) {
		const struct image_section *is = &im->sections[i];

		if (is->addr && addr >= is->addr && addr - is->addr < is->size)
			return is;
	}
	return NULL;
}

const void *image__bytes(const struct image *im, uint64_t addr, size_t len)
{
	const struct image_section *is = addr ? section_at(im, addr) : NULL;

	if (!is || !is->bytes || is->size - (addr - is->addr) < len)
		return NULL;
	return is->bytes + (addr - is->addr);
}

uint64_t image__u64(const struct image *im, uint64_t addr)
{
	const unsigned char *p = image__bytes(im, addr, 8);
	uint64_t v = 0;
	int i;

	for (i = 7; p && i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

const char *image__string(const struct image *im, uint64_t addr)
{
	const struct image_section *is = addr ? section_at(im, addr) : NULL;
	const char *s;

	if (!is || !is->bytes)
		return NULL;
	s = (const char *)is->bytes + (addr - is->addr);
	if (!memchr(s, '\0', is->size - (addr - is->addr)))
		return NULL;
	return s;
}
