/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agent's build-time settings, and the functions it must not use.
 *
 * The agent includes nothing of kabidiff's (it is built static, alone), so
 * it cannot use abidiff/banned.h: the same list is repeated here.  Include
 * this header after every system header.
 */
#ifndef KABI_AGENT_H
#define KABI_AGENT_H

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

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) BANNED(strtok_r)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)

#endif /* KABI_AGENT_H */
