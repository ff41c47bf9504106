/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Documentation/ABI collector: reads a kernel tree's ABI documentation
 * into the docs part of a snapshot.
 *
 * The format is the one Documentation/ABI/README describes: entries of
 * "Tag: value" fields, one or more What: lines first.  Problems go through
 * kabi_pr(KABI_WARN, ...) as "FILE:LINE: error: ..." (a malformed entry) or
 * "FILE:LINE: warning: ...", FILE relative to the directory above
 * Documentation/ABI ("Documentation/ABI/testing/sysfs-foo").
 */
#ifndef KABIDIFF_ABIDOCS_H
#define KABIDIFF_ABIDOCS_H

#include <stddef.h>

#include "model/model.h"

/*
 * A check of one What: pattern's syntax: 0, or -EINVAL with a static reason
 * in *@why.  The grammar is the matcher's, which a collector may not include
 * (docs/design.md): the caller passes what_pattern__check().
 */
typedef int (*abidocs_check_fn)(const char *pattern, const char **why);

/*
 * What the caller sets, @check_pattern (NULL checks nothing), and the counts
 * a collection returns.
 */
struct abidocs_stats {
	abidocs_check_fn check_pattern;
	unsigned int files;
	unsigned int entries;
	unsigned int warnings;
	unsigned int malformed;	/* entries that are not well formed */
};

/*
 * abidocs__collect() - read the ABI documentation under @dir into @s.
 *
 * @dir is a kernel tree or its Documentation/ABI directory.  Files are read
 * from the level directories (stable/, testing/, unstable/, obsolete/,
 * private/, removed/) and their subdirectories, in name order; then, in a
 * kernel tree, the sysctl documents (abidocs__parse_sysctl()).  Marks the
 * docs part of @s collected; counts go to @st, which must be zeroed.
 * Below Documentation/ABI symbolic links are not followed and only regular
 * files are opened: the rest is skipped with a warning (collect.c says
 * more).  Returns 0, or -errno when a directory or file cannot be read
 * (reported): -EFBIG for a file over 16 MiB.  A malformed entry is a
 * warning, not an error: see @st.
 */
int abidocs__collect(const char *dir, struct snapshot *s,
		     struct abidocs_stats *st);

/*
 * abidocs__collect_file() - read the one documentation file @path into @s,
 * as abidocs__collect() reads it in its tree: its level is the directory
 * it lies in ("Documentation/ABI/testing/sysfs-foo", or at least
 * "testing/sysfs-foo"), unless it is a sysctl document
 * (".../Documentation/admin-guide/sysctl/kernel.rst").  For checking a
 * patch's files alone.  Returns 0, -EINVAL for a file in no level
 * directory, or -errno when it cannot be read (reported).
 */
int abidocs__collect_file(const char *path, struct snapshot *s,
			  struct abidocs_stats *st);

/*
 * abidocs__collect_git() - read the ABI documentation of revision @rev of the
 * git repository @repo into @s, as abidocs__collect() reads a checkout of it.
 *
 * @repo is a work tree (or a directory in one) or a bare repository; @rev
 * anything git rev-parse takes that names a commit ("v6.1", "HEAD~3", a
 * commit id).  Only objects are read: the work tree, index and HEAD are left
 * alone.  Also sets @s's kernel.git to the commit's id.  Returns 0, or
 * -ENOENT (not a repository, no such revision, no Documentation/ABI in its
 * tree), -EINVAL (@rev names no commit), -ENOMEM or -EIO, reported.
 */
int abidocs__collect_git(const char *repo, const char *rev,
			 struct snapshot *s, struct abidocs_stats *st);

/*
 * abidocs__git_head() - the commit the kernel tree @dir was checked out from.
 *
 * When @dir is in a git work tree whose top is a kernel tree (holds
 * Documentation/ABI), *@id is set to HEAD's commit id, with "-dirty"
 * appended when tracked files differ from it (as scripts/setlocalversion
 * says); malloc()ed, the caller frees it.  Otherwise (not in a work tree, a
 * bare repository, no commit yet) *@id is NULL.  Nothing is written.
 * Returns 0, or -errno when the repository cannot be read (reported).
 */
int abidocs__git_head(const char *dir, char **id);

/*
 * abidocs__parse() - parse the text of one file: @len bytes at @buf, which
 * need not be NUL-terminated, as the file named @file (for warnings and the
 * entries' file field) of level @level.  Appends entries to @s.  Returns 0
 * or -ENOMEM.
 */
int abidocs__parse(const char *file, enum abi_level level, const char *buf,
		   size_t len, struct snapshot *s, struct abidocs_stats *st);

/*
 * abidocs__parse_sysctl() - parse the text of the sysctl document @file
 * (relative to Documentation: "admin-guide/sysctl/kernel.rst",
 * "networking/ip-sysctl.rst"), @len bytes at @buf, which need not be
 * NUL-terminated.  Appends an entry of source sysctl to @s for each sysctl
 * it describes (sysctl.c says how they are found).  Returns 0 or -ENOMEM.
 */
int abidocs__parse_sysctl(const char *file, const char *buf, size_t len,
			  struct snapshot *s, struct abidocs_stats *st);

/*
 * abidocs__check_duplicates() - warn about each What: pattern that entries in
 * two different files both document.  Returns 0 or -ENOMEM.
 */
int abidocs__check_duplicates(const struct snapshot *s,
			      struct abidocs_stats *st);

#endif /* KABIDIFF_ABIDOCS_H */
