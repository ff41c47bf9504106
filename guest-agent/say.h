/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agent's messages for humans: one line each, on stderr on the host and
 * on the console as PID 1.  Private to the agent.
 */
#ifndef KABI_SAY_H
#define KABI_SAY_H

#include "agent.h"

/* where say() writes: stderr until PID 1 makes it the console */
extern int say_fd;

/*
 * say() - write "kabi-agent: MESSAGE" and a newline to say_fd in one
 * write(), the message's control bytes and DEL as \xHH.  A message longer
 * than three PATH_MAX is cut short; a failed write is ignored, there being
 * nowhere left to say it.
 */
void __printf(1, 2) say(const char *fmt, ...);

#endif /* KABI_SAY_H */
