/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agent's build-time settings, and the clock its files share.
 *
 * The agent includes nothing of kabidiff's (it is built static, alone); the
 * Makefile gives it abidiff/lib/banned.h with -include, as every object.
 */
#ifndef KABI_AGENT_H
#define KABI_AGENT_H

#include <stdint.h>
#include <time.h>

/* the Makefile passes kabidiff's version; a bare gcc build says so */
#ifndef KABIDIFF_VERSION
#define KABIDIFF_VERSION	"unknown"
#endif

/* how long one value may take to read, unless --read-timeout says */
#define AGENT_TIMEOUT_MS	1000

/* the data channel inside the guest: the second 8250 port */
#define AGENT_CHANNEL		"/dev/ttyS1"
#define AGENT_CHANNEL_MAJOR	4
#define AGENT_CHANNEL_MINOR	65

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))

/* now_ms() - the monotonic clock, in milliseconds */
static inline uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

#endif /* KABI_AGENT_H */
