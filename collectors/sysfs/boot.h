/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sysfs part of a snapshot from a kernel image: boot it under QEMU with
 * the guest agent as /init and read the agent's stream.
 */
#ifndef KABIDIFF_SYSFS_BOOT_H
#define KABIDIFF_SYSFS_BOOT_H

#include <stdbool.h>

#include "model/model.h"

struct machine_profile;

struct boot_options {
	const char *image;	/* the bzImage */
	const struct machine_profile *machine;	/* machine.h */
	const char *modules_dir;	/* lib/modules/RELEASE, or NULL */
	const char *agent;	/* the static kabi-agent */
	const char *accel;	/* "tcg" (default) or "kvm" */
	unsigned int timeout;	/* seconds before QEMU is killed */
	bool keep_raw;		/* keep the values, not only their shapes */
};

struct module_set;

/*
 * initramfs__write() - write to @path a cpio "newc" archive that the kernel
 * unpacks as its root: /init (the file @init, mode 0755), the directories
 * /dev, /proc, /sys, and the device nodes /dev/console and /dev/ttyS1;
 * and with the modules of @modules (NULL or empty: none), each as
 * /modules/NAME.ko[.xz], their table /modules/modules.kabi
 * (module_set__table()) and /sbin/modprobe, a link to /init, which the
 * kernel runs to request a module.  Returns 0 or -errno (reported).
 */
int initramfs__write(const char *path, const char *init,
		     const struct module_set *modules);

/*
 * sysfs_boot__collect() - boot @o->image with the agent, under QEMU with
 * software emulation (or KVM when asked) on the machine @o->machine (no
 * network, no disk but QEMU's null ones), the console on the first serial
 * port and the agent's stream on the second (under TCG from the copy of
 * the image that kernel_image__unpack() writes, when it can), and add the
 * nodes the agent found to @s, and the machine's profile.
 *
 * Returns 0, or -errno when QEMU cannot run, the guest does not answer
 * within the timeout, or its stream is incomplete; the error names the
 * cause and quotes the last lines of the guest's console.
 */
int sysfs_boot__collect(const struct boot_options *o, struct snapshot *s);

#endif /* KABIDIFF_SYSFS_BOOT_H */
