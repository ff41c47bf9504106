// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/print.h"
#include "progress.h"

static bool meter_off;

void progress_meter_off(void)
{
	meter_off = true;
}

bool progress_meter_on(void)
{
	return !meter_off;
}

void progress_deb(void *arg, const char *package, uint64_t done,
		  uint64_t total)
{
	static const char *last_package;
	static unsigned int last_percent;
	unsigned int percent = total ? done * 100 / total : 100;

	/* a meter is no JSON object */
	if (meter_off || kabi_print_is_json() || !isatty(STDERR_FILENO))
		return;
	if (package == last_package && percent == last_percent)
		return;
	last_package = package;
	last_percent = percent;
	fprintf(stderr, "\rkabidiff: reading %s: %3u%% of %llu MB%s", package,
		percent, (unsigned long long)(total >> 20),
		done >= total ? "\n" : "");
}
