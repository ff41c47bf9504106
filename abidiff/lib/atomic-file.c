// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "cleanup.h"
#include "print.h"

#define TEMP_SUFFIX	".XXXXXX"
#define SHORT_TEMP	".kabidiff" TEMP_SUFFIX

struct atomic_file {
	char *shown_path;	/* as the caller named it, for messages */
	char *final_path;	/* what the temporary file becomes; NULL: in place */
	int slot;		/* its temporary file's (lib/cleanup.h), -1 for none */
};

/*
 * Fill @temp (PATH_MAX bytes) with a mkstemp() template for @path:
 * "dir/.name.XXXXXX", a hidden sibling, or "dir/.kabidiff.XXXXXX" when the
 * name is too long for that to fit in NAME_MAX.  0 or -ENAMETOOLONG.
 */
static int temp_name_for(char *temp, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? slash - path + 1 : 0;
	const char *base = path + dirlen;
	int n;

	if (1 + strlen(base) + strlen(TEMP_SUFFIX) <= NAME_MAX)
		n = snprintf(temp, PATH_MAX, "%.*s.%s" TEMP_SUFFIX,
			     (int)dirlen, path, base);
	else
		n = snprintf(temp, PATH_MAX, "%.*s" SHORT_TEMP, (int)dirlen,
			     path);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/*
 * Follow @path while it is a symbolic link, as open() would, to the name
 * of the file itself (which need not exist: a dangling link names the file
 * to create).  Returns a malloc()ed path, NULL with errno set.
 */
static char *resolve_links(const char *path)
{
	char *cur = strdup(path);
	int depth;

	for (depth = 0; cur; depth++) {
		char target[PATH_MAX], *next;
		const char *slash;
		struct stat st;
		ssize_t len;
		int dirlen;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;	/* absent, or not a link: the file */
		if (depth == 40) {
			errno = ELOOP;
			break;
		}
		len = readlink(cur, target, sizeof(target) - 1);
		if (len < 0)
			break;
		target[len] = '\0';
		slash = strrchr(cur, '/');
		dirlen = target[0] != '/' && slash ? slash - cur + 1 : 0;
		next = malloc(dirlen + len + 1);
		if (!next)
			break;
		snprintf(next, dirlen + len + 1, "%.*s%s", dirlen, cur, target);
		free(cur);
		cur = next;
	}
	free(cur);
	return NULL;
}

static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* Report @err (a positive errno) against @path; returns -@err. */
static int report(const char *path, int err)
{
	pr_err("%s: %s", path, strerror(err));
	return -err;
}

/*
 * Give the temporary file @fd what @path has: its mode, and its owner when
 * we may (root, or a group we are in); a new file gets the mode a plain
 * create would.  The owner first: chown() clears the set-id bits.
 */
static int copy_attributes(int fd, const struct stat *st)
{
	if (!st)
		return fchmod(fd, creation_mode());
	if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) && errno != EPERM)
		return -1;
	return fchmod(fd, st->st_mode & 07777);
}

/* Forget @af: its temporary file, if it is still there, goes. */
static void free_file(struct atomic_file *af)
{
	if (af->slot >= 0)
		cleanup_temp_remove(af->slot);
	free(af->shown_path);
	free(af->final_path);
	free(af);
}

/*
 * A new struct atomic_file for @path, which becomes @real (taken; NULL:
 * written in place); NULL when out of memory, reported.
 */
static struct atomic_file *new_file(const char *path, char *real)
{
	struct atomic_file *af = calloc(1, sizeof(*af));

	if (af) {
		af->shown_path = strdup(path);
		af->final_path = real;
		af->slot = -1;
	}
	if (af && af->shown_path)
		return af;
	report(path, ENOMEM);
	if (af)
		free_file(af);
	else
		free(real);
	return NULL;
}

/*
 * Create the temporary file that will become @real (the regular file, or
 * no file, that @path names), with the attributes of @old.
 */
static int open_temp(const char *path, char *real, const struct stat *old,
		     struct atomic_file **afp)
{
	struct atomic_file *af = new_file(path, real);
	char temp[PATH_MAX];
	int fd, err;

	if (!af)
		return -ENOMEM;
	err = temp_name_for(temp, real);
	if (err) {
		free_file(af);
		return report(path, -err);
	}
	af->slot = cleanup_temp_create(temp, &fd);
	if (af->slot < 0) {
		pr_err("%s: cannot create a file in its directory: %s", path,
		       strerror(-af->slot));
		err = af->slot;
		free_file(af);
		return err;
	}
	if (copy_attributes(fd, old)) {
		err = report(temp, errno);
		close(fd);
		free_file(af);
		return err;
	}
	*afp = af;
	return fd;
}

/*
 * @path is a device, a FIFO, a socket, standard output ("-"): there is
 * nothing to replace, write to it as a plain open would.
 */
static int open_in_place(const char *path, struct atomic_file **afp)
{
	struct atomic_file *af = new_file(path, NULL);
	int fd;

	if (!af)
		return -ENOMEM;
	if (!strcmp(path, "-"))
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		fd = report(path, errno);
		free_file(af);
		return fd;
	}
	*afp = af;
	return fd;
}

/* One of our own files: @path itself is replaced, whatever it is. */
static int open_own_file(const char *path, struct atomic_file **afp)
{
	struct stat st;
	char *real = strdup(path);

	if (!real)
		return report(path, ENOMEM);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		return open_temp(path, real, &st, afp);
	return open_temp(path, real, NULL, afp);
}

/* A file the user named: see atomic-file.h for what is replaced. */
static int open_user_file(const char *path, struct atomic_file **afp)
{
	struct stat st, real_st;
	bool exists;
	char *real;

	exists = !stat(path, &st);
	if (!exists && errno != ENOENT)
		return report(path, errno);
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(path, afp);
	/* a symbolic link stays one: its target is the file to replace */
	real = resolve_links(path);
	if (!real)
		return report(path, errno);
	if (!exists)
		return open_temp(path, real, NULL, afp);
	if (stat(real, &real_st) || real_st.st_dev != st.st_dev ||
	    real_st.st_ino != st.st_ino) {
		/* a link that names no path (/proc/self/fd/N): write to it */
		free(real);
		return open_in_place(path, afp);
	}
	return open_temp(path, real, &st, afp);
}

int atomic_open(const char *path, unsigned int flags,
		struct atomic_file **afp)
{
	size_t len = strlen(path);

	*afp = NULL;
	if (!strcmp(path, "-"))
		return open_in_place(path, afp);
	if (!len)
		return report("''", ENOENT);
	if (path[len - 1] == '/')
		return report(path, EISDIR);
	return flags & ATOMIC_OWN_FILE ? open_own_file(path, afp) :
					 open_user_file(path, afp);
}

int atomic_commit(struct atomic_file *af, int fd)
{
	int err = 0;

	if (af->slot < 0)
		goto out;	/* written in place */
	if (fsync(fd)) {
		err = -errno;
		pr_err("%s: write failed: %s", af->shown_path, strerror(errno));
		goto out;
	}
	err = cleanup_temp_rename(af->slot, af->final_path);
	if (err)
		pr_err("%s: cannot rename %s into place: %s", af->shown_path,
		       cleanup_temp_path(af->slot), strerror(-err));
	else
		af->slot = -1;
out:
	free_file(af);
	return err;
}

void atomic_abort(struct atomic_file *af)
{
	free_file(af);
}

/*
 * Flush @f and tell whether everything written to it arrived: 0 or -errno,
 * reported against @path.  A write that failed before this flush left @f
 * in error, and errno as it set it unless something changed it since:
 * never take a 0 from there for success.
 */
static int flush_stream(FILE *f, const char *path)
{
	int err = 0;

	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = errno ? -errno : -EIO;
	if (err)
		pr_err("%s: write failed: %s", path, strerror(-err));
	return err;
}

int atomic_write(const char *path, unsigned int flags,
		 int (*write_fn)(FILE *f, void *ctx), void *ctx)
{
	struct atomic_file *af;
	int fd = atomic_open(path, flags, &af), err;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = report(path, errno);
		close(fd);
		atomic_abort(af);
		return err;
	}
	err = write_fn(f, ctx);
	if (!err)
		err = flush_stream(f, path);
	if (!err)
		err = atomic_commit(af, fd);
	else
		atomic_abort(af);
	if (fclose(f) && !err)
		err = report(path, errno);
	return err;
}
