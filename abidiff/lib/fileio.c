// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "print.h"

/* The first buffer: what fstat() says, or 64 KiB for a pipe or a device. */
static size_t first_alloc(size_t hint, size_t max)
{
	if (!hint)
		hint = 65536;
	return (hint < max ? hint : max) + 1;
}

int read_fd(int fd, size_t max, size_t hint, char **buf, size_t *len)
{
	size_t alloc = first_alloc(hint, max), n = 0;
	char *p = malloc(alloc + 1), *q;
	ssize_t got;

	while (p) {
		if (n == alloc) {
			/* one byte past @max tells a file of @max bytes apart */
			if (alloc > max)
				break;
			alloc = alloc * 2 > max ? max + 1 : alloc * 2;
			q = realloc(p, alloc + 1);
			if (!q)
				break;
			p = q;
		}
		got = read(fd, p + n, alloc - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = -errno;

			free(p);
			return err;
		}
		if (!got) {
			p[n] = '\0';
			*buf = p;
			*len = n;
			return 0;
		}
		n += got;
	}
	free(p);
	return n > max ? -EFBIG : -ENOMEM;
}

int read_file(const char *path, size_t max, char **buf, size_t *len)
{
	bool is_stdin = !strcmp(path, "-");
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: opening a FIFO would wait for a writer */
	fd = is_stdin ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) :
	     open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (!S_ISREG(st.st_mode) && !is_stdin)
		err = -EINVAL;
	else if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		err = -EFBIG;	/* known before reading it */
	else
		err = read_fd(fd, max, S_ISREG(st.st_mode) ? st.st_size : 0,
			      buf, len);
	close(fd);
	return err;
}

int read_file_or_report(const char *path, size_t max, char **buf,
			size_t *len)
{
	int err = read_file(path, max, buf, len);

	if (err == -EFBIG)
		pr_err("%s: larger than %zu MiB, the most kabidiff reads of such a file",
		       path, max >> 20);
	else if (err == -EINVAL)
		pr_err("%s: not a regular file (a FIFO, a device, a socket): not read",
		       path);
	else if (err)
		pr_err("%s: %s", path, strerror(-err));
	return err;
}

bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int make_dirs(const char *path)
{
	char *copy = strdup(path), *p;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (p = copy + 1; !err && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) && errno != EEXIST)
			err = -errno;
		*p = '/';
	}
	if (!err && mkdir(copy, 0755) && errno != EEXIST)
		err = -errno;
	free(copy);
	return err;
}

/* nftw() passes no argument to its callback */
static int remove_tree_errno;

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	/* go on with the rest: remove_tree() reports the first failure */
	if (remove(path) && errno != ENOENT && !remove_tree_errno)
		remove_tree_errno = errno;
	return 0;
}

int remove_tree(const char *path)
{
	remove_tree_errno = 0;
	if (nftw(path, remove_entry, 64, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return -errno;
	return -remove_tree_errno;
}

void remove_stale_tmp_dirs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];
	int pid;

	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, ".tmp.%d.", &pid) != 1 || pid == getpid() ||
		    !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!remove_tree(path))
			pr_info("removed %s, left by an interrupted run", path);
	}
	if (d)
		closedir(d);
}
