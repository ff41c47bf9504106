/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's identity in a vmlinux: its build id, and its release,
 * version and build date from linux_banner.  Private to the vmlinux
 * collector.
 */
#ifndef KABIDIFF_VMLINUX_IDENTITY_H
#define KABIDIFF_VMLINUX_IDENTITY_H

struct collect;

/*
 * identity__read() - the architecture, the build id and what the banner
 * says into @c->s->kernel; a vmlinux without a banner is warned of.
 * Returns 0 or -ENOMEM.
 */
int identity__read(struct collect *c);

#endif /* KABIDIFF_VMLINUX_IDENTITY_H */
