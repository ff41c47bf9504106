/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An ELF file of a kernel (vmlinux, or a module: relocatable) held in
 * memory, with every allocated section at an address, so that a pointer
 * stored in its data can be followed to the bytes it points at.
 *
 * A module's sections have no addresses until the kernel loads it, and its
 * pointers are relocations: image__open() lays section i out at i << 32 (a
 * loader's choice, as good as any) and applies the relocations of its data
 * and of the DWARF sections libdw reads, in place, so that one code reads
 * both kinds of file.  The code's relocations are left alone.
 */
#ifndef KABIDIFF_CENSUS_IMAGE_H
#define KABIDIFF_CENSUS_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

struct image_section {
	uint64_t addr;		/* where it is laid out; 0: not allocated */
	uint64_t size;
	const unsigned char *bytes;	/* NULL for NOBITS (.bss) */
};

struct image {
	Elf *elf;
	unsigned char *buf;	/* the file, owned, relocated in place */
	size_t size;
	bool relocatable;	/* a module (ET_REL) */
	struct image_section *sections;	/* by section index */
	size_t nr_sections;
};

/*
 * image__open() - read the ELF file of @size bytes at @buf (malloc()ed;
 * the image owns it from now on, also after an error), named @origin in
 * messages.  Returns 0, or -EINVAL (reported) for a file that is no
 * x86_64 ELF file, is cut short or has a relocation out of its section,
 * or -ENOMEM.  Release with image__release().
 */
int image__open(struct image *im, unsigned char *buf, size_t size,
		const char *origin);

void image__release(struct image *im);

/*
 * image__bytes() - the @len bytes at address @addr, within one section
 * with bytes, or NULL.
 */
const void *image__bytes(const struct image *im, uint64_t addr, size_t len);

/* image__u64() - the 8 bytes at @addr, little-endian, or 0 when out of the image. */
uint64_t image__u64(const struct image *im, uint64_t addr);

/*
 * image__string() - the NUL-terminated string at @addr, or NULL when @addr
 * is 0, outside the image or the string runs past its section.
 */
const char *image__string(const struct image *im, uint64_t addr);

#endif /* KABIDIFF_CENSUS_IMAGE_H */
