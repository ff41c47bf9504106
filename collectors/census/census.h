/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The census: every sysfs attribute a kernel's code defines, read out of
 * vmlinux and its modules (with their DWARF) without booting it, into the
 * census part of a snapshot.  See collect.h and types.c for how objects
 * are found, scan.c for what is read of them.
 */
#ifndef KABIDIFF_CENSUS_CENSUS_H
#define KABIDIFF_CENSUS_CENSUS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

struct census;

/* census__new() - a census filling @s, or NULL (ENOMEM). */
struct census *census__new(struct snapshot *s);

/*
 * census__add() - take the census of the ELF file (vmlinux or a module,
 * with DWARF) of @size bytes at @buf, which the census owns from now on
 * (it is relocated in place and freed), as module @module ("vmlinux",
 * "nct6775"), named @origin in messages.  Returns 0, or -EINVAL, reported,
 * for a file that is no x86_64 ELF file, or -ENOMEM.  A file without
 * DWARF adds its module and no attribute.
 */
int census__add(struct census *c, const char *module, unsigned char *buf,
		size_t size, const char *origin);

/*
 * census__finish() - what needs every file: the names the hwmon core
 * makes of each driver's hwmon_chip_info, from its templates in vmlinux
 * (or hwmon.ko).  Returns 0 or -ENOMEM.
 */
int census__finish(struct census *c);

void census__free(struct census *c);

/*
 * census__collect() - the census of the kernel at @path into @s: a
 * Debian -dbg package (its vmlinux and modules streamed out of the .deb,
 * nothing unpacked), a directory (its vmlinux and every .ko below it: a
 * build tree or an unpacked package), or one ELF file.  Returns 0 or
 * -errno, reported naming @path.
 */
int census__collect(struct snapshot *s, const char *path);

/* The most bytes of one file read: vmlinux with DWARF is 630 MB in 6.1. */
#define CENSUS_FILE_MAX		((size_t)4 << 30)

/*
 * census_module_name() - the name of the module in the file @path, as
 * the kernel spells it: "nct6775_core" of ".../nct6775-core.ko".
 */
void census_module_name(const char *path, char *buf, size_t size);

/*
 * census_file_wanted() - whether the file named @name (a path) is one the
 * census reads: a vmlinux ("vmlinux", "vmlinux-RELEASE") or a module.
 */
bool census_file_wanted(const char *name);

/* census_module_of() - "vmlinux" or census_module_name() of @name. */
void census_module_of(const char *name, char *buf, size_t size);

#endif /* KABIDIFF_CENSUS_CENSUS_H */
