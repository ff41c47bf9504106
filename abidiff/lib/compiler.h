/* SPDX-License-Identifier: GPL-2.0-only */
/* The few kernel-style helpers we use, for code built outside the kernel. */
#ifndef KABIDIFF_COMPILER_H
#define KABIDIFF_COMPILER_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))

#endif /* KABIDIFF_COMPILER_H */
