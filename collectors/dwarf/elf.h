/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the vmlinux and vdso collectors, and the check of a Debian -dbg
 * package against its image, need of an ELF file.
 */
#ifndef KABIDIFF_DWARF_ELF_H
#define KABIDIFF_DWARF_ELF_H

#include <stdbool.h>
#include <stdint.h>

#include <gelf.h>

/*
 * elf_is_complete() - whether the section header table of @elf (header
 * @eh) and every section's bytes lie within its @size bytes: a file cut
 * short is refused before libelf reads past its end.
 */
bool elf_is_complete(Elf *elf, const GElf_Ehdr *eh, uint64_t size);

/*
 * elf_build_id() - the GNU build id of @elf, from its note sections, as
 * lower-case hex in @buf (room for 2 * length + 1).  Returns 0, or -ENOENT
 * when it has none (or @buf is too small for it).
 */
int elf_build_id(Elf *elf, char *buf, size_t size);

#endif /* KABIDIFF_DWARF_ELF_H */
