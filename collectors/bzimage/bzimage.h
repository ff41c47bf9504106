/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86 bzImage as the boot protocol lays it out (the kernel's
 * Documentation/arch/x86/boot.rst): its setup header, and the kernel its
 * payload compresses.  Shared by the sysfs collector, which boots a copy
 * with the kernel decompressed by the host, and the Debian packages, which
 * check a -dbg package's vmlinux against the image's kernel.
 */
#ifndef KABIDIFF_BZIMAGE_H
#define KABIDIFF_BZIMAGE_H

#include <stddef.h>
#include <stdint.h>

struct bzimage {
	unsigned char *data;		/* the whole file */
	size_t size;
	uint16_t protocol;		/* 0x20f: 2.15 */
	uint8_t loadflags;
	uint16_t xloadflags;
	uint32_t code32_start;
	size_t setup;			/* the boot sector and the setup sectors */
	/* the compressed kernel, less the decompressed size appended to it */
	const unsigned char *payload;
	size_t payload_len;
	uint32_t kernel_len;		/* that size */
};

/* Offsets and bits of the setup header that callers test. */
#define BZIMAGE_LOADED_HIGH	0x01	/* loadflags: at 0x100000 */
#define BZIMAGE_XLF_KERNEL_64	0x01	/* xloadflags: a 64-bit kernel */

/*
 * bzimage__read() - read the image @path (at most @max bytes) into @bz and
 * find its payload.  Returns 0; -EINVAL with *@why saying what it is not
 * (no boot header, a protocol before 2.08 with no payload fields, a
 * payload past the end of the file), reported by no one: for one caller
 * that is an error, for another a reason to boot the image as it is; or
 * -errno of reading it (reported).
 */
int bzimage__read(const char *path, size_t max, struct bzimage *bz,
		  const char **why);

/*
 * bzimage__kernel() - the kernel @bz's payload compresses (the vmlinux ELF
 * file, stripped), decompressed with libarchive (gzip, xz, zstd, lz4,
 * bzip2, lzma: every filter it has) into *@out, malloc()ed, of
 * @bz->kernel_len bytes.  Returns 0, -EINVAL with *@why (no size appended,
 * a compression it does not know, a payload that does not decompress), or
 * -ENOMEM.
 */
int bzimage__kernel(const struct bzimage *bz, unsigned char **out,
		    const char **why);

void bzimage__release(struct bzimage *bz);

/*
 * bzimage__build_id() - the GNU build id of the kernel in the bzImage
 * @path, as lower-case hex in @buf (room for 2 * length + 1): the kernel
 * is the vmlinux stripped of its symbols but not of its notes, so the id
 * is the one the -dbg package's vmlinux carries.  Decompressing takes
 * about half a second.  Returns 0 or -errno, reported naming @path.
 */
int bzimage__build_id(const char *path, char *buf, size_t size);

#endif /* KABIDIFF_BZIMAGE_H */
