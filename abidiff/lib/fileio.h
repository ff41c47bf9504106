/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KABIDIFF_FILEIO_H
#define KABIDIFF_FILEIO_H

#include <stddef.h>

/*
 * read_file() - read all of @path into a malloc()ed buffer.
 *
 * Stores the buffer in *@buf (NUL-terminated, for convenience) and its length
 * without the NUL in *@len.  Returns 0 or -errno (-EISDIR for a directory,
 * -ENOMEM), and reports nothing: what a failure means is the caller's to
 * say, and a caller that only asks whether the file is there need not
 * silence kabi_pr() to ask.
 */
int read_file(const char *path, char **buf, size_t *len);

/*
 * read_file_or_report() - read_file(), reporting a failure through kabi_pr()
 * as "PATH: reason" (the strerror() of the error).
 */
int read_file_or_report(const char *path, char **buf, size_t *len);

#endif /* KABIDIFF_FILEIO_H */
