/* SPDX-License-Identifier: GPL-2.0-only */
/* What a kernel image package's vmlinuz says of the kernel inside it. */
#ifndef KABIDIFF_DEBIAN_BZIMAGE_H
#define KABIDIFF_DEBIAN_BZIMAGE_H

#include <stddef.h>

/*
 * bzimage__build_id() - the GNU build id of the kernel in the x86 bzImage
 * @path, as lower-case hex in @buf (room for 2 * length + 1): the image's
 * compressed payload (boot protocol 2.08 and later say where it is) is the
 * vmlinux ELF file, stripped of its symbols but not of its notes, so the
 * id is the one the -dbg package's vmlinux carries.  Decompressing takes
 * about half a second.  Returns 0 or -errno, reported naming @path:
 * -EINVAL for a file that is no such image.
 */
int bzimage__build_id(const char *path, char *buf, size_t size);

#endif /* KABIDIFF_DEBIAN_BZIMAGE_H */
