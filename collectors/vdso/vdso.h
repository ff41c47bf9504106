/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vdso collector: the exported symbols of a vDSO image with their
 * versions, their prototypes from the image's DWARF, and the layouts of
 * the types those reach (libelf, libdw).
 */
#ifndef KABIDIFF_VDSO_H
#define KABIDIFF_VDSO_H

#include "model/model.h"

/*
 * vdso__collect() - add the exported symbols of the vDSO image at @path
 * (vdso64.so.dbg, or the vdso32.so of a -dbg package) to the vdso part of
 * @s, and the types their prototypes reach to its types part.
 *
 * The image is told by its ELF class and machine, not by its file name:
 * "vdso64" (64-bit x86_64), "vdso32" (i386) or "vdsox32" (32-bit x86_64).
 * An image without DWARF gives its symbols without prototypes, with a
 * warning.  Returns 0 or -errno, reported through kabi_pr(): -EINVAL for
 * a file that is no vDSO image, -EEXIST when @s already holds that image.
 */
int vdso__collect(const char *path, struct snapshot *s);

#endif /* KABIDIFF_VDSO_H */
