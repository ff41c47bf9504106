// SPDX-License-Identifier: GPL-2.0-only
/*
 * A minimal initramfs, written as a cpio "newc" archive
 * (Documentation/driver-api/early-userspace/buffer-format.rst): each entry
 * is a 110-byte ASCII header of "070701" and thirteen 8-digit hex fields,
 * the NUL-terminated name padded to 4 bytes, then the data padded to 4
 * bytes; "TRAILER!!!" ends it.  No cpio tool is needed, and no privilege:
 * the device nodes are entries in the archive, not files on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/atomic-file.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "boot.h"

struct entry {
	const char *name;
	unsigned int mode;
	unsigned int major, minor;	/* of a device node */
	const char *data;
	size_t len;
};

static int pad4(FILE *f, size_t len)
{
	static const char zeros[4];

	return fwrite(zeros, 1, (4 - len % 4) % 4, f) == (4 - len % 4) % 4 ? 0 : -EIO;
}

static int write_entry(FILE *f, const struct entry *e, unsigned int ino)
{
	size_t namesize = strlen(e->name) + 1;

	/*
	 * ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor
	 * rdevminor namesize check
	 */
	if (fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		    ino, e->mode, 0, 0, S_ISDIR(e->mode) ? 2 : 1, 0, e->len, 0, 0,
		    e->major, e->minor, namesize, 0) < 0 ||
	    fwrite(e->name, 1, namesize, f) != namesize ||
	    pad4(f, 110 + namesize) ||
	    /* directories and devices have no data, and e->data is NULL */
	    (e->len && fwrite(e->data, 1, e->len, f) != e->len) ||
	    pad4(f, e->len))
		return -EIO;
	return 0;
}

struct archive {
	const struct entry *entries;
	size_t nr;
};

/* A failed write leaves @f in error, which atomic_write() reports. */
static int write_archive(FILE *f, void *ctx)
{
	const struct archive *a = ctx;
	static const struct entry trailer = { .name = "TRAILER!!!" };
	size_t i;
	int err = 0;

	for (i = 0; !err && i < a->nr; i++)
		err = write_entry(f, &a->entries[i], i + 1);
	if (!err)
		write_entry(f, &trailer, 0);
	return 0;
}

int initramfs__write(const char *path, const char *init)
{
	struct entry entries[] = {
		{ "dev", S_IFDIR | 0755 },
		{ "dev/console", S_IFCHR | 0600, 5, 1 },
		{ "dev/ttyS1", S_IFCHR | 0600, 4, 65 },
		{ "proc", S_IFDIR | 0555 },
		{ "sys", S_IFDIR | 0555 },
		{ "init", S_IFREG | 0755 },
	};
	struct archive a = { entries, ARRAY_SIZE(entries) };
	size_t len;
	char *data;
	int err;

	err = read_file_or_report(init, SMALL_FILE_MAX, &data, &len);
	if (err)
		return err;
	entries[a.nr - 1].data = data;
	entries[a.nr - 1].len = len;
	err = atomic_write(path, write_archive, &a);
	free(data);
	return err;
}
