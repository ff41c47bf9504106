/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machines a kernel boots on for the sysfs part: what QEMU emulates
 * beside the CPU, the memory and the serial ports, as one table.
 */
#ifndef KABIDIFF_SYSFS_MACHINE_H
#define KABIDIFF_SYSFS_MACHINE_H

#include "modules.h"

#define MACHINE_DEFAULT		"standard"

/*
 * A disk of the machine that holds a filesystem, made for each boot: an
 * image of @size_mib MiB (sparse), formatted by @mkfs with the image's
 * path appended.  The guest sees a virtio disk whose serial is "fs-@type"
 * and mounts it read-only, as filesystem @type.
 */
struct machine_filesystem {
	const char *type;		/* mount(2)'s: "f2fs" */
	unsigned int size_mib;		/* what its mkfs accepts at least */
	const char *const *mkfs;	/* NULL-terminated, looked up in $PATH */
	const char *package;		/* Debian's package of mkfs */
};

struct machine_profile {
	const char *name;		/* "standard", "minimal" */
	const char *summary;		/* one line, for show and the man page */
	const char *const *qemu_args;	/* NULL-terminated */
	/*
	 * The modules that drive its devices, NULL-terminated: they, and
	 * what they depend on, go into the initramfs of a kernel that has
	 * modules, for the guest agent to load as the devices ask for them.
	 */
	const char *const *modules;
	/*
	 * The modules it loads first whatever its devices, as a system's
	 * /etc/modules does; they join the set.  Ends with module NULL.
	 */
	const struct boot_load *boot_loads;
	const struct machine_filesystem *filesystems;	/* ends with type NULL */
	const char *fs_bus;		/* QEMU's bus for their disks */
};

/* machine_profile__find() - the profile named @name, or NULL. */
const struct machine_profile *machine_profile__find(const char *name);

/* machine_profile__names() - "standard, minimal", for messages. */
const char *machine_profile__names(void);

#endif /* KABIDIFF_SYSFS_MACHINE_H */
