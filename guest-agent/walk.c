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
	unsigned int flags;
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

/* A directory entry: its d_type, then its name. */
static const char *entry_name(const char *entry)
{
	return entry + 1;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(entry_name(*(char *const *)a),
		      entry_name(*(char *const *)b));
}

/*
 * The entries of directory @fd, sorted by name, in a malloc()ed
 * NULL-terminated array; NULL on failure.  @fd is consumed.
 */
static char **read_entries(int fd)
{
	size_t nr = 0, alloc = 16, len;
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
		len = strlen(e->d_name);
		names[nr] = malloc(len + 2);
		if (!names[nr])
			break;
		names[nr][0] = e->d_type;
		memcpy(names[nr] + 1, e->d_name, len + 1);
		nr++;
	}
	names[nr] = NULL;
	closedir(dir);
	qsort(names, nr, sizeof(*names), entry_cmp);
	return names;
}

static void free_entries(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

static int walk_at(struct walker *w, int dirfd, const char *entry,
		   size_t len);

/* Visit the entries of directory @fd, whose path is w->path[0..len). */
static int walk_entries(struct walker *w, int fd, size_t len)
{
	int copy = dup(fd), ret = 0;
	char **entries = copy < 0 ? NULL : read_entries(copy), **p;

	for (p = entries; !ret && p && *p; p++)
		ret = walk_at(w, fd, *p, len);
	free_entries(entries);
	close(fd);
	return ret;
}

/*
 * Visit a directory: open it first, so that one fstat() of the open
 * descriptor gives its mode and filesystem without another path lookup.
 */
static int walk_dir(struct walker *w, int dirfd, const char *name,
		    struct walk_node *node, size_t len)
{
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st)) {
		/* unreadable: report it, skip what is inside */
		if (fd >= 0)
			close(fd);
		if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			node->mode = st.st_mode & 07777;
		return w->visit(node, w->ctx);
	}
	node->mode = st.st_mode & 07777;
	ret = w->visit(node, w->ctx);
	if (ret || st.st_dev != w->dev) {
		close(fd);
		return ret;
	}
	return walk_entries(w, fd, len);
}

/* Visit @entry in directory @dirfd, whose path is w->path[0..len). */
static int walk_at(struct walker *w, int dirfd, const char *entry,
		   size_t len)
{
	const char *name = entry_name(entry);
	unsigned char type = entry[0];
	size_t nlen = strlen(name);
	struct walk_node node = { .path = w->path };
	char target[PATH_MAX];
	struct stat st;
	ssize_t tlen;

	if (len + nlen + 2 > sizeof(w->path))
		return 0;	/* too deep to name: cannot be a real path */
	if (len)
		w->path[len++] = '/';
	memcpy(w->path + len, name, nlen + 1);
	if (type == DT_UNKNOWN || (type != DT_DIR && type != DT_LNK &&
				   (w->flags & WALK_FILE_MODES))) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return 0;	/* gone since readdir() */
		type = IFTODT(st.st_mode);
		node.mode = st.st_mode & 07777;
	}
	node.kind = kind_of(DTTOIF(type));
	if (node.kind == WALK_DIR)
		return walk_dir(w, dirfd, name, &node, len + nlen);
	if (node.kind == WALK_LINK) {
		tlen = readlinkat(dirfd, name, target, sizeof(target) - 1);
		target[tlen < 0 ? 0 : tlen] = '\0';
		node.target = target;
		node.mode = 0777;	/* what lstat() says of every link */
	}
	return w->visit(&node, w->ctx);
}

int walk_tree(const char *root, unsigned int flags,
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
	w->flags = flags;
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
