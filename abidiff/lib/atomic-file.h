/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KABIDIFF_ATOMIC_FILE_H
#define KABIDIFF_ATOMIC_FILE_H

#include <stdio.h>

/*
 * The one way kabidiff writes a file: a file the user named (-o FILE) or
 * one of its own (the cache), all or nothing.  The data goes to a
 * temporary file in the directory of the file it will replace; only a
 * complete file, flushed to disk, is renamed into place.  On any failure
 * the temporary file is removed and the old file is left as it was, so a
 * reader never sees a partial file.
 *
 * What a user's path is decides what is replaced:
 *  - no file: the new file gets the permissions an ordinary create would
 *    (0666 less the umask);
 *  - a regular file: the new one keeps its mode, and its owner and group
 *    where we may set them (root);
 *  - a symbolic link: the link stays, the file it points to is replaced
 *    (created, for a dangling link);
 *  - anything else, a device, a FIFO, /dev/stdout: there is nothing to
 *    replace, it is opened and written in place, not atomically;
 *  - "-" is standard output, written in place;
 *  - a name that ends in "/" names a directory, and is refused.
 * The temporary name is ".NAME.XXXXXX", or ".kabidiff.XXXXXX" when that
 * would not fit in NAME_MAX.
 *
 * A signal that kills us removes the temporary files that exist, and so
 * does exit (lib/cleanup.h).  A few files may be under way at once (a
 * command's -o, a cache entry written meanwhile), each with its struct
 * atomic_file.
 *
 * Failures of the file itself are reported through kabi_pr() naming the
 * path; the functions return 0 (atomic_open(): a descriptor) or -errno.
 */

/* Flags of atomic_open() and atomic_write(). */
enum {
	/*
	 * One of kabidiff's own files (a cache entry): the path itself is
	 * replaced, whatever it is, a symbolic link and not the file it
	 * points to, and nothing is ever written in place.
	 */
	ATOMIC_OWN_FILE	= 1 << 0,
};

struct atomic_file;

/*
 * atomic_open() - start writing what will become @path: returns a
 * descriptor to write to, and in *@afp the file under way, which
 * atomic_commit() or atomic_abort() ends.
 */
int atomic_open(const char *path, unsigned int flags,
		struct atomic_file **afp);

/*
 * atomic_commit() - what was written to @fd (flushed by the caller) becomes
 * the file: flushed to disk and renamed into place; @af is freed.  @fd
 * stays open, for the caller to close.
 */
int atomic_commit(struct atomic_file *af, int fd);

/* atomic_abort() - the file stays as it was, its temporary one goes. */
void atomic_abort(struct atomic_file *af);

/*
 * atomic_write() - replace @path with what @write_fn writes to its
 * stream, which returns 0 or a -errno of its own (reported by it).
 */
int atomic_write(const char *path, unsigned int flags,
		 int (*write_fn)(FILE *f, void *ctx), void *ctx);

#endif /* KABIDIFF_ATOMIC_FILE_H */
