/* SPDX-License-Identifier: GPL-2.0-only */
/* How long a step took, for the progress lines that say it. */
#ifndef KABIDIFF_CLOCK_H
#define KABIDIFF_CLOCK_H

#include <time.h>

/* seconds_since() - the time since @start, a CLOCK_MONOTONIC reading. */
static inline double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) +
	       (now.tv_nsec - start->tv_nsec) / 1e9;
}

#endif /* KABIDIFF_CLOCK_H */
