/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What judging two sides answers, which every command returns as its exit
 * status (see kabidiff(1)).
 */
#ifndef KABIDIFF_PIPELINE_EXIT_STATUS_H
#define KABIDIFF_PIPELINE_EXIT_STATUS_H

enum {
	EXIT_OK		= 0,
	EXIT_BREAK	= 1,	/* the answer is "no": an ABI break, ... */
	EXIT_TROUBLE	= 2,	/* bad usage, unreadable input, ... */
};

#endif /* KABIDIFF_PIPELINE_EXIT_STATUS_H */
