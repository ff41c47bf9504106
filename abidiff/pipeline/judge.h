/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the commands that compare share (diff, check, docs diff, bisect):
 * how to judge and report (their options, parsed in cli/diff-options.c),
 * and the judging itself.
 */
#ifndef KABIDIFF_PIPELINE_JUDGE_H
#define KABIDIFF_PIPELINE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "policy/policy.h"
#include "report/report.h"

/* How to judge and report a diff: the options of 'kabidiff diff'. */
struct diff_options {
	enum report_format format;
	const char *policy_file;
	const char *waiver_file;
	bool strict;
	int as_of;		/* --as-of, as date__parse() counts; 0: none */
	int colour;		/* -1: auto */
	unsigned int parts;	/* 1 << PART_*: --parts; 0: every part */
	struct report_filter filter;	/* --verdict, --only, --stat */
	bool verdict_given;	/* --verdict, which --notify defaults to warn */
	bool notify;		/* --notify: whom to tell, not the report */
	const char *maintainers_file;	/* --maintainers */
};

/*
 * load_policy() - the policy and waivers @o asks for, into @p and @w (@w
 * zeroed by the caller; release them with policy__release() and
 * waivers__release() either way), once @o is checked: options that do not
 * go together (--stat with a CI format) fail here, before any work.
 * Returns 0 or -errno, reported.
 */
int load_policy(const struct diff_options *o, struct policy *p,
		struct waivers *w);

/*
 * judge_snapshots() - diff the parts @o asks for of @old with @new, judge
 * the changes by @p and @w and print the report @o asks for; @old_name and
 * @new_name name them in messages and the report.  A part to compare that
 * a side lacks is trouble.  Returns EXIT_OK, EXIT_BREAK or EXIT_TROUBLE.
 */
int judge_snapshots(const struct snapshot *old, const struct snapshot *new,
		    const char *old_name, const char *new_name,
		    const struct policy *p, struct waivers *w,
		    const struct diff_options *o);

/* One side of a comparison: how to load it, and its name in warnings. */
struct judge_side {
	const char *name;
	/* the snapshot, or NULL when it cannot be had (reported) */
	struct snapshot *(*load)(const struct judge_side *side);
	const void *data;	/* the loader's */
	/* load() may run in a thread beside the other side's load() */
	bool concurrent;
	/* the MAINTAINERS of its tree, malloc()ed, or NULL; NULL: none */
	char *(*maintainers)(const struct judge_side *side);
};

/*
 * side_tree_maintainers() - the maintainers() of a side named as diff's
 * OLD and NEW are: side_maintainers() of its name.
 */
char *side_tree_maintainers(const struct judge_side *side);

/*
 * judge_sides() - what a comparing command does: load the policy and
 * waivers @o asks for, then @old and @new, and judge_snapshots() them,
 * with NEW's tree's MAINTAINERS (else OLD's) unless @o names one.
 * When both sides are concurrent, NEW is loaded in a thread of its own
 * while OLD is, its messages printed after OLD's.  Returns the status of
 * judge_snapshots(), or EXIT_TROUBLE when something could not be loaded.
 */
int judge_sides(const struct judge_side *old, const struct judge_side *new,
		const struct diff_options *o);

/*
 * count_verdicts() - diff and judge as judge_snapshots() does, printing
 * no report: how many findings got each verdict, accepted ones not
 * counted, into @count.  Returns 0, -EINVAL for a part to compare that a
 * side lacks (reported), or -ENOMEM.
 */
int count_verdicts(const struct snapshot *old, const struct snapshot *new,
		   const struct policy *p, struct waivers *w,
		   const struct diff_options *o, size_t count[VERDICT_COUNT]);

#endif /* KABIDIFF_PIPELINE_JUDGE_H */
