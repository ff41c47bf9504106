/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KABIDIFF_FILEIO_H
#define KABIDIFF_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Every file kabidiff reads has a size limit, so that a wrong argument
 * (/dev/zero, a disk image) fails with a message instead of eating the
 * machine's memory.  Whole MiB, for read_file_or_report()'s message.
 *
 * SMALL_FILE_MAX: what a person writes (policy and waiver files, a .config,
 * a syscall table) and what a tool logs (QEMU's output, the guest's console).
 */
#define SMALL_FILE_MAX		((size_t)16 << 20)

/*
 * read_fd() - read @fd to its end into a malloc()ed buffer.
 *
 * At most @max bytes: more is -EFBIG.  @hint is the size expected (0 when
 * unknown), for the first buffer.  Stores the buffer in *@buf
 * (NUL-terminated, for convenience) and its length without the NUL in
 * *@len.  Returns 0 or -errno (-EFBIG, -ENOMEM), reports nothing.
 */
int read_fd(int fd, size_t max, size_t hint, char **buf, size_t *len);

/*
 * read_file() - read all of @path, at most @max bytes, as read_fd() does;
 * "-" is standard input.  Only a regular file is read: a FIFO (which would
 * block), a device or a socket is -EINVAL, found without waiting or
 * reading.
 *
 * Returns 0 or -errno (-EISDIR for a directory, -EINVAL, -EFBIG, -ENOMEM),
 * and reports nothing: what a failure means is the caller's to say, and a
 * caller that only asks whether the file is there need not silence
 * kabi_pr() to ask.
 */
int read_file(const char *path, size_t max, char **buf, size_t *len);

/*
 * read_file_or_report() - read_file(), reporting a failure through kabi_pr()
 * as "PATH: reason" (the strerror() of the error, or the limit for -EFBIG).
 */
int read_file_or_report(const char *path, size_t max, char **buf,
			size_t *len);

/* is_dir() - whether @path is a directory (or a link to one). */
bool is_dir(const char *path);

/* make_dirs() - mkdir -p @path (mode 0755).  Returns 0 or -errno. */
int make_dirs(const char *path);

/*
 * remove_tree() - rm -rf @path, not following symbolic links.  Returns 0
 * or -errno (the first failure; what could go went).
 */
int remove_tree(const char *path);

/*
 * remove_stale_tmp_dirs() - remove what interrupted runs left in @dir:
 * the entries named ".tmp.PID.*" whose process PID is gone.  The
 * temporary files and directories of the cache are named so.
 */
void remove_stale_tmp_dirs(const char *dir);

#endif /* KABIDIFF_FILEIO_H */
