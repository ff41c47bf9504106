/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machines a kernel boots on for the sysfs part: what QEMU emulates
 * beside the CPU, the memory and the serial ports, as one table.
 */
#ifndef KABIDIFF_SYSFS_MACHINE_H
#define KABIDIFF_SYSFS_MACHINE_H

#define MACHINE_DEFAULT		"standard"

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
};

/* machine_profile__find() - the profile named @name, or NULL. */
const struct machine_profile *machine_profile__find(const char *name);

/* machine_profile__names() - "standard, minimal", for messages. */
const char *machine_profile__names(void);

#endif /* KABIDIFF_SYSFS_MACHINE_H */
