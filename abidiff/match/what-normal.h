/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What: patterns compared with each other rather than with paths: the one
 * normal form of the patterns that differ only in how they name a wildcard,
 * and whether one pattern documents what another one names.  The grammar is
 * the matcher's (what-index.c).
 */
#ifndef KABIDIFF_WHAT_NORMAL_H
#define KABIDIFF_WHAT_NORMAL_H

#include <stdbool.h>
#include <stddef.h>

/* The token every wildcard of a component becomes in the normal form. */
#define WHAT_NORMAL_WILDCARD	"<*>"

/*
 * what_pattern__normalize() - @pattern with its wildcards renamed to one
 * token, or NULL (ENOMEM).  Free it with free().
 *
 * Each run of wildcards inside a component ("<name>", "<N>", a placeholder
 * X, Y or Z, "*", "[...]" and "[...]+", as what-index.c reads them) becomes
 * WHAT_NORMAL_WILDCARD; literal text, "..." components, braces and a
 * trailing '/' are kept as they are; IIO's " = value" tail is cut.  So
 * "/sys/bus/iio/devices/iio:deviceX/in_tempX_input" and
 * ".../iio:device<N>/in_temp<x>_input" have the same normal form.
 */
char *what_pattern__normalize(const char *pattern);

/*
 * what_pattern__attribute() - the last component of a normal form (a
 * trailing '/' ignored): "mtu" for "/sys/class/net/<*>/mtu".  Returns its
 * start in @normal and its length in *@len.
 */
const char *what_pattern__attribute(const char *normal, size_t *len);

/*
 * what_pattern__covers() - does @general, matched as a What: pattern, match
 * the text of @specific read as a path?  "/sys/.../iio:deviceX/in_raw"
 * covers "/sys/bus/iio/devices/iio:deviceX/in_raw".  IIO's " = value" tail
 * and a trailing '/' of @specific are ignored.  Returns 1, 0 (also when
 * @general does not parse), or -ENOMEM.
 */
int what_pattern__covers(const char *general, const char *specific);

#endif /* KABIDIFF_WHAT_NORMAL_H */
