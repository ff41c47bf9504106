// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files of a kernel the census reads, on disk: its vmlinux and every
 * module below a directory (a build tree, an unpacked -dbg package), or
 * one ELF file.  collect --census reads a -dbg package itself as a stream
 * (pipeline/census.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/array.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "census.h"

/* A directory nested deeper than this is a loop or a hostile tree. */
#define DEPTH_MAX	32

struct file_list {
	char **v;
	size_t nr;
};

bool census_file_wanted(const char *name)
{
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	n = strlen(base);
	return !strcmp(base, "vmlinux") || !strncmp(base, "vmlinux-", 8) ||
	       (n > 3 && !strcmp(base + n - 3, ".ko"));
}

void census_module_of(const char *name, char *buf, size_t size)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (!strncmp(base, "vmlinux", 7) && (!base[7] || base[7] == '-'))
		snprintf(buf, size, "vmlinux");
	else
		census_module_name(base, buf, size);
}

static int list_dir(const char *dir, int depth, struct file_list *files)
{
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (depth > DEPTH_MAX)
		return 0;
	d = opendir(dir);
	if (!d) {
		pr_err("%s: %s", dir, strerror(errno));
		return -errno;
	}
	while (!err && (de = readdir(d))) {
		struct stat st;
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			err = list_dir(path, depth + 1, files);
			free(path);
		} else if (S_ISREG(st.st_mode) && census_file_wanted(de->d_name)) {
			char **slot = ARRAY_APPEND_ITEM(files->v, files->nr);

			if (!slot) {
				free(path);
				err = -ENOMEM;
			} else {
				*slot = path;
			}
		} else {
			free(path);
		}
	}
	closedir(d);
	return err;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(struct census *c, const char *path)
{
	char module[256], *buf;
	size_t len;
	int err = read_file_or_report(path, CENSUS_FILE_MAX, &buf, &len);

	if (err)
		return err;
	census_module_of(path, module, sizeof(module));
	return census__add(c, module, (unsigned char *)buf, len, path);
}

int census__collect(struct snapshot *s, const char *path)
{
	struct census *c = census__new(s);
	struct file_list files = { 0 };
	size_t i;
	int err = c ? 0 : -ENOMEM;

	if (!err && is_dir(path)) {
		err = list_dir(path, 0, &files);
		qsort(files.v, files.nr, sizeof(*files.v), path_cmp);
		if (!err && !files.nr) {
			pr_err("%s: no vmlinux and no module (.ko) below it", path);
			err = -ENOENT;
		}
		for (i = 0; !err && i < files.nr; i++)
			err = add_file(c, files.v[i]);
	} else if (!err) {
		err = add_file(c, path);
	}
	if (!err)
		err = census__finish(c);
	for (i = 0; i < files.nr; i++)
		free(files.v[i]);
	free(files.v);
	census__free(c);
	return err;
}
