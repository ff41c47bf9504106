// SPDX-License-Identifier: GPL-2.0-only
/* Checks of an ELF file that the vmlinux and vdso collectors share. */
#include "elf.h"

bool elf_is_complete(Elf *elf, const GElf_Ehdr *eh, uint64_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize > size)
		return false;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size > size)
			return false;
	return true;
}
