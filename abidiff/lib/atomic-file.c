// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "print.h"

/* "dir/name" -> "dir/.name.XXXXXX", a hidden sibling for mkstemp(). */
static char *temp_name_for(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? slash - path + 1 : 0;
	size_t size = strlen(path) + sizeof(".") + sizeof(".XXXXXX");
	char *tmp = malloc(size);

	if (tmp)
		snprintf(tmp, size, "%.*s.%s.XXXXXX", (int)dirlen, path,
			 path + dirlen);
	return tmp;
}

static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* Flush @f to disk and close it; 0 or -errno, reported against @path. */
static int flush_and_close(FILE *f, const char *path)
{
	int err = 0;

	/*
	 * A write that failed before this flush left @f in error, and errno
	 * as it set it unless something changed it since: never take a 0
	 * from there for success.
	 */
	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = errno ? -errno : -EIO;
	else if (fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		pr_err("%s: write failed: %s", path, strerror(-err));
	return err;
}

int atomic_write(const char *path, int (*write_fn)(FILE *f, void *ctx),
		 void *ctx)
{
	char *tmp;
	FILE *f;
	int fd, err;

	tmp = temp_name_for(path);
	if (!tmp)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		pr_err("%s: cannot create a file in its directory: %s", path,
		       strerror(errno));
		goto out_free;
	}
	f = fdopen(fd, "w");
	if (!f || fchmod(fd, creation_mode())) {
		err = -errno;
		pr_err("%s: %s", tmp, strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		goto out_unlink;
	}
	err = write_fn(f, ctx);
	if (err) {
		fclose(f);
		goto out_unlink;
	}
	err = flush_and_close(f, path);
	if (err)
		goto out_unlink;
	if (rename(tmp, path)) {
		err = -errno;
		pr_err("%s: cannot rename %s into place: %s", path, tmp,
		       strerror(errno));
		goto out_unlink;
	}
	free(tmp);
	return 0;

out_unlink:
	unlink(tmp);
out_free:
	free(tmp);
	return err;
}
