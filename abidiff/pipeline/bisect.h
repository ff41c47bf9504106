/* SPDX-License-Identifier: GPL-2.0-only */
/* The bisect engine of 'kabidiff bisect' (bisect.c explains how it works). */
#ifndef KABIDIFF_PIPELINE_BISECT_H
#define KABIDIFF_PIPELINE_BISECT_H

#include "policy/policy.h"
#include "judge.h"

struct bisect_options {
	const char *repo;	/* the git repository, only read */
	const char *good, *bad;	/* revisions */
	const char *config;	/* an absolute Kconfig fragment, or NULL */
	const char *build_cmd;	/* NULL: configure and build with make */
	const struct diff_options *diff;
	const struct policy *policy;
	struct waivers *waivers;
};

/*
 * bisect_run() - find the first commit from @o->good to @o->bad whose build
 * breaks what @o->good's documentation promises, print the steps and what
 * the first bad commit changed.  Returns EXIT_OK when it was found,
 * EXIT_TROUBLE (reported), or 128 plus the signal that interrupted it.
 */
int bisect_run(const struct bisect_options *o);

#endif /* KABIDIFF_PIPELINE_BISECT_H */
