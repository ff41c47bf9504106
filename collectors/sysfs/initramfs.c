// SPDX-License-Identifier: GPL-2.0-only
/*
 * A minimal initramfs, written as a cpio "newc" archive
 * (Documentation/driver-api/early-userspace/buffer-format.rst): each entry
 * is a 110-byte ASCII header of "070701" and thirteen 8-digit hex fields,
 * the NUL-terminated name padded to 4 bytes, then the data padded to 4
 * bytes; "TRAILER!!!" ends it.  No cpio tool is needed, and no privilege:
 * the device nodes are entries in the archive, not files on the host, and
 * a symbolic link is an entry whose data is its target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/array.h"
#include "lib/atomic-file.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "boot.h"
#include "modules.h"

/* The largest module file taken: amdgpu.ko is 17 MB. */
#define MODULE_FILE_MAX		((size_t)64 << 20)

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
	struct entry *entries;
	size_t nr, alloc;
	char **buffers;		/* the data read, freed with the archive */
	size_t nr_buffers;
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

static int add(struct archive *a, const struct entry *e)
{
	struct entry *slot = ARRAY_APPEND(a->entries, a->nr, a->alloc);

	if (!slot)
		return -ENOMEM;
	*slot = *e;
	return 0;
}

/* A regular file @name (mode @mode) holding the contents of @path. */
static int add_file(struct archive *a, const char *name, unsigned int mode,
		    const char *path)
{
	char **slot = ARRAY_APPEND_ITEM(a->buffers, a->nr_buffers);
	struct entry e = { name, S_IFREG | mode };
	int err;

	if (!slot)
		return -ENOMEM;
	err = read_file_or_report(path, MODULE_FILE_MAX, slot, &e.len);
	if (err) {
		a->nr_buffers--;
		return err;
	}
	e.data = *slot;
	return add(a, &e);
}

/* The modules, their table and the modprobe the kernel calls. */
static int add_modules(struct archive *a, const struct module_set *set)
{
	static const struct entry dirs[] = {
		{ "modules", S_IFDIR | 0755 },
		{ "sbin", S_IFDIR | 0755 },
		{ "sbin/modprobe", S_IFLNK | 0777, 0, 0, "/init", 5 },
	};
	char **slot;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < ARRAY_SIZE(dirs); i++)
		err = add(a, &dirs[i]);
	for (i = 0; !err && i < set->nr; i++)
		err = add_file(a, set->v[i].file, 0644, set->v[i].path);
	slot = err ? NULL : ARRAY_APPEND_ITEM(a->buffers, a->nr_buffers);
	if (!slot)
		return err ?: -ENOMEM;
	*slot = module_set__table(set);
	if (!*slot)
		return -ENOMEM;
	return add(a, &(struct entry){ "modules/modules.kabi", S_IFREG | 0644,
				       0, 0, *slot, strlen(*slot) });
}

int initramfs__write(const char *path, const char *init,
		     const struct module_set *modules)
{
	static const struct entry base[] = {
		{ "dev", S_IFDIR | 0755 },
		{ "dev/console", S_IFCHR | 0600, 5, 1 },
		{ "dev/ttyS1", S_IFCHR | 0600, 4, 65 },
		{ "proc", S_IFDIR | 0555 },
		{ "sys", S_IFDIR | 0555 },
	};
	struct archive a = { 0 };
	size_t i;
	int err = 0;

	for (i = 0; !err && i < ARRAY_SIZE(base); i++)
		err = add(&a, &base[i]);
	if (!err)
		err = add_file(&a, "init", 0755, init);
	if (!err && modules && modules->nr)
		err = add_modules(&a, modules);
	if (!err)
		err = atomic_write(path, ATOMIC_OWN_FILE, write_archive, &a);
	else if (err == -ENOMEM)
		pr_err("%s: out of memory", path);
	for (i = 0; i < a.nr_buffers; i++)
		free(a.buffers[i]);
	free(a.buffers);
	free(a.entries);
	return err;
}
