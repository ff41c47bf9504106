// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "walk.h"

struct walker {
	char path[PATH_MAX];	/* the current node, relative to the root */
	dev_t dev;		/* the root's filesystem */
	int (*visit)(const struct walk_node *node, void *ctx);
	void *ctx;
};

static enum walk_kind kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return WALK_DIR;
	if (S_ISREG(mode))
		return WALK_FILE;
	if (S_ISLNK(mode))
		return WALK_LINK;
	return WALK_OTHER;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in directory @fd, sorted, in a malloc()ed NULL-terminated
 * array; NULL on failure.  @fd is consumed.
 */
static char **read_names(int fd)
{
	size_t nr = 0, alloc = 16;
	char **names = malloc(alloc * sizeof(*names));
	DIR *dir = fdopendir(fd);
	struct dirent *e;

	if (!dir || !names) {
		if (dir)
			closedir(dir);
		else
			close(fd);
		free(names);
		return NULL;
	}
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (nr + 1 == alloc) {
			char **more = realloc(names, 2 * alloc * sizeof(*names));

			if (!more)
				break;
			names = more;
			alloc *= 2;
		}
		names[nr] = strdup(e->d_name);
		if (!names[nr])
			break;
		nr++;
	}
	names[nr] = NULL;
	closedir(dir);
	qsort(names, nr, sizeof(*names), name_cmp);
	return names;
}

static void free_names(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

static int walk_at(struct walker *w, int dirfd, const char *name, size_t len);

/* Visit the entries of directory @fd, whose path is w->path[0..len). */
static int walk_entries(struct walker *w, int fd, size_t len)
{
	int copy = dup(fd), ret = 0;
	char **names = copy < 0 ? NULL : read_names(copy), **p;

	for (p = names; !ret && p && *p; p++)
		ret = walk_at(w, fd, *p, len);
	free_names(names);
	close(fd);
	return ret;
}

/* Visit @name in directory @dirfd, whose path is w->path[0..len). */
static int walk_at(struct walker *w, int dirfd, const char *name, size_t len)
{
	size_t nlen = strlen(name);
	struct walk_node node;
	char target[PATH_MAX];
	struct stat st;
	ssize_t tlen;
	int ret, fd;

	if (len + nlen + 2 > sizeof(w->path))
		return 0;	/* too deep to name: cannot be a real path */
	if (len)
		w->path[len++] = '/';
	memcpy(w->path + len, name, nlen + 1);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;	/* gone since readdir() */
	node.path = w->path;
	node.kind = kind_of(st.st_mode);
	node.mode = st.st_mode & 07777;
	node.target = NULL;
	if (node.kind == WALK_LINK) {
		tlen = readlinkat(dirfd, name, target, sizeof(target) - 1);
		target[tlen < 0 ? 0 : tlen] = '\0';
		node.target = target;
	}
	ret = w->visit(&node, w->ctx);
	if (ret || node.kind != WALK_DIR || st.st_dev != w->dev)
		return ret;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	return walk_entries(w, fd, len + nlen);
}

int walk_tree(const char *root,
	      int (*visit)(const struct walk_node *node, void *ctx), void *ctx)
{
	struct walk_node node = { .path = "", .kind = WALK_DIR };
	struct walker *w;
	struct stat st;
	int fd, ret;

	fd = open(root, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		return -ENOMEM;
	}
	w->dev = st.st_dev;
	w->visit = visit;
	w->ctx = ctx;
	node.mode = st.st_mode & 07777;
	ret = visit(&node, ctx);
	if (ret)
		close(fd);
	else
		ret = walk_entries(w, fd, 0);
	free(w);
	return ret;
}
