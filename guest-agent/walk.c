// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "walk.h"

struct walker {
	char path[PATH_MAX];	/* the current node, relative to the root */
	char target[PATH_MAX];	/* the current link's target */
	unsigned int depth;	/* of the entries being visited: 1 below the root */
	dev_t dev;		/* the root's filesystem */
	unsigned int flags;
	int (*visit)(const struct walk_node *node, void *ctx);
	void *ctx;
	struct walk_stop *stop;
};

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

_Static_assert(WALK_PATH_MAX + 1 == PATH_MAX, "a path and its NUL fill PATH_MAX");

static const char *stop_reason(int err)
{
	switch (err) {
	case -ELOOP:
		return "deeper than " __stringify(WALK_DEPTH_MAX)
		       " levels below the root, the most a walk goes";
	case -ENAMETOOLONG:
		return "longer than " __stringify(WALK_PATH_MAX)
		       " bytes below the root, the most a walk names";
	case -EMFILE:
		return "out of file descriptors (the walk keeps one open per level)";
	default:
		return strerror(-err);
	}
}

/*
 * Stop the walk with @err at @name in the directory w->path[0..@len) ("" for
 * that directory itself): say why and where in w->stop.  Returns @err.
 */
static int stop_at(struct walker *w, size_t len, const char *name, int err)
{
	struct walk_stop *stop = w->stop;
	size_t size = sizeof(stop->path);
	int n;

	stop->reason = stop_reason(err);
	n = snprintf(stop->path, size, "%.*s%s%s", (int)len, w->path,
		     len && *name ? "/" : "", name);
	if (n >= (int)size)
		memcpy(stop->path + size - 4, "...", 4);
	return err;
}

/* A node gone between readdir() and now: a live tree changes. */
static bool gone(int err)
{
	return err == ENOENT;
}

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

static void free_entries(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

/*
 * The entries of directory @fd, sorted by name, into @entries: a malloc()ed
 * NULL-terminated array.  @fd is consumed.  Returns 0 or -errno: a listing
 * cut short is an error, not a shorter listing.
 */
static int read_entries(int fd, char ***entries)
{
	size_t nr = 0, alloc = 16, len;
	char **names = malloc(alloc * sizeof(*names));
	DIR *dir = fdopendir(fd);
	struct dirent *e;
	int err = 0;

	if (!dir || !names) {
		err = dir ? -ENOMEM : -errno;
		if (dir)
			closedir(dir);
		else
			close(fd);
		free(names);
		return err;
	}
	for (;;) {
		errno = 0;
		e = readdir(dir);
		if (!e) {
			err = -errno;
			break;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (nr + 1 == alloc) {
			char **more = realloc(names, 2 * alloc * sizeof(*names));

			if (!more) {
				err = -ENOMEM;
				break;
			}
			names = more;
			alloc *= 2;
		}
		len = strlen(e->d_name);
		names[nr] = malloc(len + 2);
		if (!names[nr]) {
			err = -ENOMEM;
			break;
		}
		names[nr][0] = e->d_type;
		memcpy(names[nr] + 1, e->d_name, len + 1);
		nr++;
	}
	names[nr] = NULL;
	closedir(dir);
	if (err) {
		free_entries(names);
		return err;
	}
	qsort(names, nr, sizeof(*names), entry_cmp);
	*entries = names;
	return 0;
}

static int walk_at(struct walker *w, int dirfd, const char *entry,
		   size_t len);

/*
 * Visit the entries of directory @fd, whose path is w->path[0..len).  @fd
 * stays open while they are visited, for openat(): one descriptor per level.
 */
static int walk_entries(struct walker *w, int fd, size_t len)
{
	int copy = dup(fd), ret;
	char **entries = NULL, **p;

	ret = copy < 0 ? -errno : read_entries(copy, &entries);
	if (ret)
		ret = stop_at(w, len, "", ret);
	w->depth++;
	for (p = entries; !ret && *p; p++)
		ret = walk_at(w, fd, *p, len);
	w->depth--;
	free_entries(entries);
	close(fd);
	return ret;
}

/*
 * Whether failing to open a directory with @err is the walk's own fault
 * (out of descriptors or memory): going on would leave out what it holds,
 * so the walk stops.  Any other reason is the directory's (EACCES).
 */
static bool walk_fault(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM;
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
	if (fd < 0 && walk_fault(errno))
		return stop_at(w, len, "", -errno);
	if (fd < 0) {
		/* unreadable: report it, skip what is inside */
		if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			node->mode = st.st_mode & 07777;
		return w->visit(node, w->ctx);
	}
	if (fstat(fd, &st)) {
		ret = stop_at(w, len, "", -errno);
		close(fd);
		return ret;
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
	struct stat st;
	ssize_t tlen;

	if (len + !!len + nlen > WALK_PATH_MAX)
		return stop_at(w, len, name, -ENAMETOOLONG);
	if (w->depth > WALK_DEPTH_MAX)
		return stop_at(w, len, name, -ELOOP);
	if (len)
		w->path[len++] = '/';
	memcpy(w->path + len, name, nlen + 1);
	if (type == DT_UNKNOWN || (type != DT_DIR && type != DT_LNK &&
				   (w->flags & WALK_FILE_MODES))) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return gone(errno) ? 0 : stop_at(w, len + nlen, "", -errno);
		type = IFTODT(st.st_mode);
		node.mode = st.st_mode & 07777;
	}
	node.kind = kind_of(DTTOIF(type));
	if (node.kind == WALK_DIR)
		return walk_dir(w, dirfd, name, &node, len + nlen);
	if (node.kind == WALK_LINK) {
		tlen = readlinkat(dirfd, name, w->target, sizeof(w->target) - 1);
		if (tlen < 0)
			return gone(errno) ? 0 : stop_at(w, len + nlen, "", -errno);
		w->target[tlen] = '\0';
		node.target = w->target;
		node.mode = 0777;	/* what lstat() says of every link */
	}
	return w->visit(&node, w->ctx);
}

int walk_tree(const char *root, unsigned int flags,
	      int (*visit)(const struct walk_node *node, void *ctx), void *ctx,
	      struct walk_stop *stop)
{
	struct walk_node node = { .path = "", .kind = WALK_DIR };
	struct walker *w;
	struct stat st;
	int fd, ret;

	stop->reason = NULL;
	stop->path[0] = '\0';
	fd = open(root, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		stop->reason = strerror(-ret);
		return ret;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		stop->reason = strerror(ENOMEM);
		return -ENOMEM;
	}
	w->dev = st.st_dev;
	w->flags = flags;
	w->visit = visit;
	w->ctx = ctx;
	w->stop = stop;
	node.mode = st.st_mode & 07777;
	ret = visit(&node, ctx);
	if (ret)
		close(fd);
	else
		ret = walk_entries(w, fd, 0);
	free(w);
	return ret;
}
