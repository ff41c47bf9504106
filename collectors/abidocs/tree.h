/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the Documentation/ABI collector: one walk over the level
 * directories, whatever holds the tree (a directory on disk in collect.c, a
 * git tree in git.c).  Not for use outside collectors/abidocs/.
 */
#ifndef KABIDIFF_ABIDOCS_TREE_H
#define KABIDIFF_ABIDOCS_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "abidocs.h"

/*
 * What a name in the tree is.  Only files and directories are read: a
 * symbolic link is never followed and anything else (a FIFO, a device, a
 * socket) never opened; the walk skips both with a warning.
 */
enum abidocs_type {
	ABIDOCS_ABSENT,
	ABIDOCS_FILE,		/* a regular file (a git blob) */
	ABIDOCS_DIR,
	ABIDOCS_LINK,		/* a symbolic link (a git blob of mode 120000) */
	ABIDOCS_OTHER,		/* not a regular file, a directory or a link */
};

/* No file is read past this many bytes; the largest in 6.12 is under 1 MB. */
#define ABIDOCS_MAX_FILE	(16u << 20)
#define ABIDOCS_MAX_FILE_TEXT	"16 MiB"

/* One name in a directory of the tree. */
struct abidocs_dirent {
	char *name;		/* owned */
	enum abidocs_type type;
};

/*
 * Where the documentation comes from: a kernel tree's Documentation
 * directory, or a Documentation/ABI directory alone.  Paths are relative
 * to it ("ABI/testing/sysfs-foo", "admin-guide/sysctl/vm.rst"); @where
 * names it in messages ("linux/Documentation"); @abi is the ABI directory
 * in it, "ABI", or NULL when it is the ABI directory itself, which has no
 * sysctl documents beside it.
 *
 * @kind:  what @rel is, an enum abidocs_type, without following a symbolic
 *         link; -errno when that cannot be told, reported (-ENOMEM is left
 *         to the caller).
 * @list:  the names in directory @rel, hidden ones (".foo") left out, into a
 *         malloc()ed array of @nr entries the caller frees (each name, then
 *         the array), each with its type as @kind tells it; 0 or -errno,
 *         reported.
 * @read:  the contents of file @rel into a malloc()ed @buf of @len bytes;
 *         0, or ABIDOCS_LINK or ABIDOCS_OTHER when @rel turns out not to be
 *         a regular file after all (not reported, nothing read: the walk
 *         warns), or -errno, reported: -EFBIG for a file larger than
 *         ABIDOCS_MAX_FILE.
 */
struct abidocs_tree {
	const char *where;
	const char *abi;
	void *ctx;
	int (*kind)(void *ctx, const char *rel);
	int (*list)(void *ctx, const char *rel, struct abidocs_dirent **v,
		    size_t *nr);
	int (*read)(void *ctx, const char *rel, char **buf, size_t *len);
};

/*
 * abidocs__walk() - parse every file under the level directories of @t in
 * name order (strcmp), as abidocs__collect() describes, then the sysctl
 * documents when @t has them, then check for duplicates.  Marks the docs
 * part of @s collected.  0 or -errno.
 */
int abidocs__walk(const struct abidocs_tree *t, struct snapshot *s,
		  struct abidocs_stats *st);

/* abidocs__dirents_free() - free @nr entries at @v and @v itself. */
void abidocs__dirents_free(struct abidocs_dirent *v, size_t nr);

/* abidocs__dirents_sort() - sort @nr entries at @v by name (strcmp). */
void abidocs__dirents_sort(struct abidocs_dirent *v, size_t nr);

#endif /* KABIDIFF_ABIDOCS_TREE_H */
