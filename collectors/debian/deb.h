/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a Debian binary package with libarchive (and liblzma, which
 * decodes a data.tar.xz on every CPU): its control fields and
 * the members of its data archive a caller asks for, streamed out of the
 * compressed tar inside the ar archive, never unpacking the whole package.
 */
#ifndef KABIDIFF_DEBIAN_DEB_H
#define KABIDIFF_DEBIAN_DEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The control fields kabidiff reads. */
struct deb_control {
	char package[128];
	char version[128];
	char architecture[32];
};

/*
 * What to take out of a data archive: members are named as in the package,
 * without the leading "./".  A @path ending in '/' takes everything under
 * that directory; any other takes the one member.  With @inner set, the
 * member is itself a (compressed) tar archive, and @inner's rules are
 * applied to its members instead of taking it whole, which is how the one
 * tarball of a linux-source package is read.  Arrays end with a NULL @path.
 */
struct deb_take {
	const char *path;
	const struct deb_take *inner;
};

/*
 * How far the reading of the package named @package is, for a progress
 * meter: @done of @total bytes of the .deb file.  Called often; the callee
 * throttles.
 */
typedef void (*deb_progress_fn)(void *arg, const char *package,
				uint64_t done, uint64_t total);

struct deb;

/*
 * The most bytes one package may unpack, unless KABIDIFF_UNPACK_MAX says
 * otherwise: Debian's -dbg kernel package unpacks to 5.4 GB (6.1.0-57) and
 * 6.4 GB (6.12.118), most of it the modules with their DWARF.  kabidiff
 * takes only its vmlinux (630 MB in 6.1) and vDSO images today, and 406 MB
 * of an image package's (6.1.0-47-amd64-unsigned); a cap of 2.5 times the
 * whole -dbg package leaves room for its modules and for kernels to grow,
 * and still stops a package that would fill the disk.
 */
#define DEB_UNPACK_MAX_DEFAULT	((uint64_t)16 << 30)

/*
 * deb_unpack_max() - the cap deb__extract() is given: KABIDIFF_UNPACK_MAX,
 * a number of bytes with an optional K, M, G or T (KiB...: 1024s), else
 * DEB_UNPACK_MAX_DEFAULT.  Returns 0, or -EINVAL, reported, for a value
 * that is no such size or is 0.
 */
int deb_unpack_max(uint64_t *max);

/*
 * deb__open() - open the package @path and read its control fields, which
 * deb__control() then gives.  Returns 0 or -errno, reported naming @path:
 * -EINVAL for a file that is no Debian package, one cut short or corrupt
 * before its data archive, or one whose Package, Version or Architecture
 * is not as Debian policy spells them (5.6.1, 5.6.12): they name the
 * cache's entries, so none has a '/' or a '_', and none is "..".
 */
int deb__open(const char *path, struct deb **debp);

const struct deb_control *deb__control(const struct deb *deb);

/*
 * deb__extract() - write the members @take names under @dest, an existing
 * directory of ours, each relative to it with openat() and O_NOFOLLOW, at
 * most @max bytes of them in all (a file's size counts, its holes too):
 * a member that would write more is -EFBIG, found before its bytes are
 * written.
 * Only regular files (and hard links to one unpacked before) and
 * directories are made, with their modes less setuid, setgid, sticky and
 * the group's and others' write, and files with their times; a symbolic
 * link is skipped.  A member named by an absolute path or with a "..",
 * "." or empty component, a hard link out of the package's tree, a
 * device or a FIFO is refused.  Reading stops once every member named
 * without a trailing '/' is out and no directory rule is left.
 * @progress may be NULL.  Returns 0 or -errno, reported naming the
 * package: -EINVAL for a corrupt or truncated package or a refused
 * member, the write's error (-ENOSPC...) for a member not written whole.
 * What was written before a failure stays; the caller writes into a
 * temporary directory.
 */
int deb__extract(struct deb *deb, const struct deb_take *take,
		 const char *dest, uint64_t max, deb_progress_fn progress,
		 void *arg);

/*
 * Which members deb__read() hands on, by their names (without "./"), and
 * what takes one: @buf (malloc()ed, @size bytes) is the callee's.  A
 * non-zero return stops the reading and is deb__read()'s.
 */
typedef bool (*deb_want_fn)(void *arg, const char *name);
typedef int (*deb_member_fn)(void *arg, const char *name, unsigned char *buf,
			     size_t size);

/*
 * deb__read() - the regular files of the data archive that @want accepts,
 * each read whole into memory and given to @fn, in the archive's order;
 * nothing is written.  A member of more than @max bytes is -EFBIG, before
 * it is read.  @progress may be NULL; @arg goes to all three.  Returns 0,
 * @fn's error, or -errno, reported naming the package (-EINVAL for a
 * corrupt or truncated one).
 */
int deb__read(struct deb *deb, deb_want_fn want, deb_member_fn fn,
	      uint64_t max, deb_progress_fn progress, void *arg);

void deb__close(struct deb *deb);

#endif /* KABIDIFF_DEBIAN_DEB_H */
