/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel image to boot under TCG, with its kernel decompressed on the
 * host (unpack.c says how and why).
 */
#ifndef KABIDIFF_SYSFS_UNPACK_H
#define KABIDIFF_SYSFS_UNPACK_H

/*
 * kernel_image__unpack() - write to @path a copy of the x86-64 bzImage
 * @image that boots the same kernel without running its decompressor:
 * the image's setup sectors, a stub that enters the kernel in long mode,
 * and the vmlinux's segments at their physical addresses.
 *
 * Returns 0; -ENOTSUP when @image is not one it can do (said why, at
 * info level): the caller boots @image itself; or -errno (reported).
 */
int kernel_image__unpack(const char *image, const char *path);

#endif /* KABIDIFF_SYSFS_UNPACK_H */
