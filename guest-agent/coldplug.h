/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading the initramfs's modules for the guest's devices, as udev's
 * coldplug does, and for the kernel's own requests, as modprobe does.
 * Private to the agent.
 */
#ifndef KABI_COLDPLUG_H
#define KABI_COLDPLUG_H

#include <stdbool.h>
#include <stddef.h>

#include "stream.h"

/* the initramfs's module table (collectors/sysfs/modules.h writes it) */
#define COLDPLUG_TABLE		"/modules/modules.kabi"
/* where the kernel's requests are logged, one line each, for PID 1 */
#define COLDPLUG_REQUESTS	"/modules/requests.log"

#define COLDPLUG_NAME_MAX	64
#define COLDPLUG_CAUSE_MAX	256

/* one module load, as the stream's module frame carries it */
struct load {
	char name[COLDPLUG_NAME_MAX];
	enum stream_load how;
	int err;		/* 0, or the errno finit_module() gave */
	char cause[COLDPLUG_CAUSE_MAX];
};

struct loads {
	struct load *v;
	size_t nr;
};

/*
 * coldplug() - load the table's modules for the devices under /sys/bus,
 * round after round until a round finds no new device with a module, and
 * wait for the devices each round makes to settle.  Without a table, do
 * nothing.  Each load (and each failure, which is not fatal) goes to
 * @loads.  Returns the number of modules loaded.
 */
size_t coldplug(struct loads *loads);

/*
 * coldplug_requests() - add to @loads what the kernel asked modprobe to
 * load, from COLDPLUG_REQUESTS, and sort @loads by module name.
 */
void coldplug_requests(struct loads *loads);

/*
 * modprobe_main() - the agent called as /sbin/modprobe by the kernel's
 * request_module(): "modprobe -q -- NAME", NAME a module or an alias of
 * the table.  Loads it with what it depends on and logs each load to
 * COLDPLUG_REQUESTS.  Returns the exit status: 0 loaded, 1 not.
 */
int modprobe_main(int argc, char **argv);

#endif /* KABI_COLDPLUG_H */
