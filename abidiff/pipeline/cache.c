// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bytes.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "cache.h"

/* The cache's own folder, malloc()ed; NULL with errno set. */
static char *cache_root(void)
{
	const char *cache = getenv("KABIDIFF_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *root = NULL;

	if (cache && *cache)
		root = strdup(cache);
	else if (xdg && *xdg == '/')
		root = xasprintf("%s/kabidiff", xdg);
	else if (home && *home)
		root = xasprintf("%s/.cache/kabidiff", home);
	else
		errno = ENOENT;
	return root;
}

/*
 * Make @path a folder that only we may write: created 0700 where missing,
 * refused when it is a symbolic link, not a folder or someone else's; one
 * that others may enter is closed to them.  0 or -errno, reported.
 */
static int claim_dir(const char *path)
{
	struct stat st;
	int err;

	if (mkdir(path, 0700) && errno != EEXIST) {
		err = -errno;
		pr_err("%s: cannot create the cache: %s", path, strerror(-err));
		return err;
	}
	if (lstat(path, &st)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		pr_err("%s: %s, not a folder: refusing it as the cache", path,
		       S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		pr_err("%s: owned by uid %u, not by us (uid %u): refusing it as the cache",
		       path, (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & 077) && chmod(path, 0700)) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	return 0;
}

/* Create the folders above @root, mkdir -p: ~/.cache may not exist yet. */
static int make_parents(const char *root)
{
	const char *slash = strrchr(root, '/');
	char *parent;
	int err;

	if (!slash || slash == root)
		return 0;
	parent = xasprintf("%.*s", (int)(slash - root), root);
	if (!parent)
		return -ENOMEM;
	err = make_dirs(parent);
	if (err && err != -ENOMEM)
		pr_err("%s: %s", parent, strerror(-err));
	free(parent);
	return err;
}

int cache_dir(const char *sub, char **dirp)
{
	char *root = cache_root(), *dir = NULL;
	int err;

	*dirp = NULL;
	if (!root && errno == ENOMEM)
		return -ENOMEM;
	if (!root) {
		pr_err("no cache: set KABIDIFF_CACHE, or HOME or XDG_CACHE_HOME");
		return -ENOENT;
	}
	err = make_parents(root);
	if (!err)
		err = claim_dir(root);
	if (!err) {
		dir = xasprintf("%s/%s", root, sub);
		err = dir ? claim_dir(dir) : -ENOMEM;
	}
	free(root);
	if (err)
		free(dir);
	else
		*dirp = dir;
	return err;
}
