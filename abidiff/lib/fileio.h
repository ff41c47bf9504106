/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KABIDIFF_FILEIO_H
#define KABIDIFF_FILEIO_H

#include <stddef.h>

/*
 * read_file() - read all of @path into a malloc()ed buffer.
 *
 * Stores the buffer in *@buf (NUL-terminated, for convenience) and its length
 * without the NUL in *@len.  Returns 0 or -errno (-EISDIR for a directory),
 * reported through kabi_pr() as "PATH: reason".
 */
int read_file(const char *path, char **buf, size_t *len);

#endif /* KABIDIFF_FILEIO_H */
