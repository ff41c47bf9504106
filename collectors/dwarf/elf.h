/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks of an ELF file that the vmlinux and vdso collectors share.
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

#endif /* KABIDIFF_DWARF_ELF_H */
