/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agent as PID 1, the /init of the guest: /dev, sysfs and procfs
 * mounted read-only, the data channel, the modules, the stream, and the
 * power-off at the end.  Private to the agent.
 */
#ifndef KABI_PID1_H
#define KABI_PID1_H

#include "agent.h"

struct agent;

/*
 * pid1_run() - set up the guest, load the modules for its devices, send
 * the stream of /sys and /proc/sys on AGENT_CHANNEL and say how it went
 * on the console.  What fails is said on the console too: PID 1 has no one
 * else to tell, and powers off all the same.
 */
void pid1_run(struct agent *a);

/*
 * pid1_power_off() - end QEMU: power off where the kernel can, else
 * reboot, which QEMU's -no-reboot turns into an exit.  Never returns.
 */
void __noreturn pid1_power_off(void);

#endif /* KABI_PID1_H */
