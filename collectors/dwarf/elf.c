// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the vmlinux and vdso collectors, and the check of a Debian -dbg
 * package against its image, need of an ELF file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

int elf_build_id(Elf *elf, char *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off, i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nhdr, &name_off,
						   &desc_off)) > 0) {
			const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;

			if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4) ||
			    2 * nhdr.n_descsz + 1 > size)
				continue;
			for (i = 0; i < nhdr.n_descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x", desc[i]);
			return 0;
		}
	}
	return -ENOENT;
}
