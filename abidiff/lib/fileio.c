// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "print.h"

int read_file(const char *path, char **buf, size_t *len)
{
	size_t alloc = 0, n = 0;
	struct stat st;
	char *p = NULL;
	int fd, err = 0;
	ssize_t got;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto out;
	}
	do {
		if (n + 1 >= alloc) {
			char *q;

			alloc = alloc ? alloc * 2 : 65536;
			q = realloc(p, alloc);
			if (!q) {
				err = -ENOMEM;
				goto out;
			}
			p = q;
		}
		got = read(fd, p + n, alloc - n - 1);
		if (got < 0 && errno != EINTR) {
			err = -errno;
			goto out;
		}
		if (got > 0)
			n += got;
	} while (got);
out:
	if (fd >= 0)
		close(fd);
	if (err) {
		free(p);
		return err;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

int read_file_or_report(const char *path, char **buf, size_t *len)
{
	int err = read_file(path, buf, len);

	if (err)
		pr_err("%s: %s", path, strerror(-err));
	return err;
}
