/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel modules a machine profile's devices need, taken from a
 * kernel's modules tree into the guest's initramfs, with the table the
 * guest agent loads them by.
 */
#ifndef KABIDIFF_SYSFS_MODULES_H
#define KABIDIFF_SYSFS_MODULES_H

#include <stddef.h>

struct kmodule {
	char *name;		/* "virtio_net": '-' read as '_' */
	char *path;		/* the file in the tree */
	char *file;		/* its name in the initramfs: "modules/e1000e.ko" */
	char **aliases;		/* .modinfo's alias= values, in order */
	size_t nr_aliases;
	char **depends;		/* .modinfo's depends= names */
	size_t nr_depends;
};

/* A module the machine loads at boot, device or not, and its parameters. */
struct boot_load {
	const char *module;
	const char *params;	/* for finit_module(): "mtd=0"; NULL: none */
};

struct module_set {
	struct kmodule *v;	/* in name order */
	size_t nr;
	size_t alloc;
	const struct boot_load *boots;	/* borrowed; ends with module NULL */
};

/*
 * module_set__build() - the modules @wanted (names, NULL-terminated), those
 * of @boots (ending with module NULL; or NULL), and every module they
 * depend on, from the modules tree @dir: a
 * lib/modules/RELEASE directory or a build directory, whose modules.order
 * lists the modules (plain, .xz, .zst or .gz).  A wanted module the tree
 * lacks is skipped when modules.builtin lists it (it is in the kernel),
 * else with a warning; a dependency the tree lacks is an error.  Their
 * .modinfo is read with libkmod.  Returns 0 or -errno, reported; release
 * @set with module_set__release() either way.
 */
int module_set__build(struct module_set *set, const char *dir,
		      const char *const *wanted, const struct boot_load *boots);

void module_set__release(struct module_set *set);

/*
 * module_set__table() - the table the guest agent reads, one line a fact:
 * "module NAME FILE DEP,DEP" ("-" for none) for each module, then "alias
 * PATTERN NAME" for each of its aliases; last "boot NAME PARAMS" ("-" for
 * none) for each of the boot loads whose module is in the set, in their
 * order.  malloc()ed; NULL (ENOMEM).
 */
char *module_set__table(const struct module_set *set);

#endif /* KABIDIFF_SYSFS_MODULES_H */
