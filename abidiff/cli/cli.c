// SPDX-License-Identifier: GPL-2.0-only
/* What every command shares: usage errors, quiet printing, timing. */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "cli.h"

bool json_output;

int usage_hint(const char *cmd)
{
	fprintf(stderr, "Try 'kabidiff %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return EXIT_TROUBLE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kabi_vprint_line(stderr, "kabidiff: ", fmt, ap);
	va_end(ap);
	return usage_hint(cmd);
}

void print_errors_only(enum kabi_print_level level, const char *fmt,
		       va_list ap)
{
	if (level == KABI_ERROR)
		kabi_vprint_line(stderr, "kabidiff: ", fmt, ap);
}

double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}
