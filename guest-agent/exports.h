/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the host may use of the guest agent: the tree walker (walk.h), which
 * collectors/sysfs/ runs over a directory for --sysfs-dir, and the stream
 * format (stream.h), which collectors/sysfs/ reads.  Both need only libc and
 * define no object but walk.c's functions, which the host links.
 *
 * The host includes this header and nothing else of the agent's; make
 * check-layers holds it to that.
 */
#ifndef KABI_AGENT_EXPORTS_H
#define KABI_AGENT_EXPORTS_H

#include "stream.h"
#include "walk.h"

#endif /* KABI_AGENT_EXPORTS_H */
