/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KABIDIFF_ATOMIC_FILE_H
#define KABIDIFF_ATOMIC_FILE_H

#include <stdio.h>

/*
 * atomic_write() - replace @path with what @write_fn writes, all or nothing.
 *
 * @write_fn writes to a temporary file in @path's directory and returns 0 or
 * a -errno; the file is then flushed to disk and renamed over @path.  On any
 * failure the temporary file is removed and @path is left as it was, so a
 * reader never sees a partial file under @path.
 *
 * What @path is decides what is replaced:
 *  - no file: the new file gets the permissions an ordinary create would
 *    (0666 less the umask);
 *  - a regular file: the new one keeps its mode, and its owner and group
 *    where we may set them (root);
 *  - a symbolic link: the link stays, the file it points to is replaced
 *    (created, for a dangling link);
 *  - anything else, a device, a FIFO, /dev/stdout: there is nothing to
 *    replace, it is opened and written in place, not atomically;
 *  - "-" is standard output, written in place;
 *  - the temporary name is ".NAME.XXXXXX", or ".kabidiff.XXXXXX" when that
 *    would not fit in NAME_MAX.
 *
 * SIGHUP, SIGINT and SIGTERM, where they still have their default action,
 * remove the temporary file while it exists and then kill the process as
 * they would have.  Not reentrant: one atomic_write() at a time.
 *
 * Returns 0 or -errno; failures of the file itself are reported through
 * kabi_pr() naming @path, those of @write_fn are @write_fn's to report.
 */
int atomic_write(const char *path, int (*write_fn)(FILE *f, void *ctx),
		 void *ctx);

#endif /* KABIDIFF_ATOMIC_FILE_H */
