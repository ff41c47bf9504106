/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress on a terminal: a line that counts up in place while a package
 * is read.  Nothing when standard error is no terminal, nor in a process
 * that shares the terminal with another (progress_meter_off()).
 */
#ifndef KABIDIFF_PIPELINE_PROGRESS_H
#define KABIDIFF_PIPELINE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* progress_deb() - a deb_progress_fn: @done of @total bytes of @package. */
void progress_deb(void *arg, const char *package, uint64_t done,
		  uint64_t total);

/* progress_meter_off() - no meter from this process from now on. */
void progress_meter_off(void);

/* progress_meter_on() - whether this process may show one. */
bool progress_meter_on(void);

#endif /* KABIDIFF_PIPELINE_PROGRESS_H */
