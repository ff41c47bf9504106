/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Functions that are too easy to misuse: any use of them is a compile error
 * (the idea comes from git's banned.h).  Use snprintf(), memcpy() with
 * explicit lengths, strtol() and friends, gmtime_r() and localtime_r().
 *
 * The Makefile puts this header in front of every object, the guest agent's
 * included, with -include; nothing includes it by name.  The system headers
 * that declare the banned functions come first, so that their declarations
 * are read before the macros exist, and later includes of them are no-ops.
 */
#ifndef KABIDIFF_BANNED_H
#define KABIDIFF_BANNED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)

#endif /* KABIDIFF_BANNED_H */
