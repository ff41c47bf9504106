/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the commands that compare share (diff, check, docs diff, bisect):
 * the options that say how to judge and report, and the judging itself.
 */
#ifndef KABIDIFF_CLI_JUDGE_H
#define KABIDIFF_CLI_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "policy/policy.h"
#include "report/report.h"
#include "options.h"
#include "output.h"

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

#define DIFF_OPTIONS_INIT \
	{ .format = json_output ? REPORT_JSON : REPORT_TEXT, .colour = -1 }

/*
 * The diff options in a command's option table (OPT_DIFF(&o)), and their
 * lines in its --help (DIFF_OPTIONS_HELP).
 */
#define OPT_DIFF(o) \
	OPT_CALLBACK_EARLY(0, "format", (o), diff_option__format), \
	OPT_BOOL(0, "strict", &(o)->strict), \
	OPT_CALLBACK(0, "as-of", (o), diff_option__as_of), \
	OPT_STRING(0, "policy", &(o)->policy_file), \
	OPT_STRING(0, "waivers", &(o)->waiver_file), \
	OPT_CALLBACK(0, "parts", (o), diff_option__parts), \
	OPT_CALLBACK(0, "verdict", (o), diff_option__shown_verdict), \
	OPT_CALLBACK(0, "only", (o), diff_option__only), \
	OPT_BOOL(0, "stat", &(o)->filter.stat), \
	OPT_BOOL(0, "notify", &(o)->notify), \
	OPT_STRING(0, "maintainers", &(o)->maintainers_file), \
	OPT_CALLBACK_OPTARG(0, "color", (o), diff_option__color), \
	OPT_CALLBACK_NOARG_EARLY('j', "json", (o), diff_option__json), \
	OPT_OUTPUT()

#define DIFF_OPTIONS_HELP \
	"  --format FORMAT   text (the default), json, markdown, or for CI ktap\n" \
	"                    (KTAP 1), junit (JUnit XML) or sarif (SARIF 2.1.0)\n" \
	"  --strict          judge every warn as a break\n" \
	"  --as-of DATE      judge the removal dates that obsolete entries\n" \
	"                    announce against DATE (YYYY-MM-DD), not against\n" \
	"                    NEW's build date; with neither, as passed\n" \
	"  --policy FILE     override verdicts of the default policy\n" \
	"  --waivers FILE    accept known changes (see docs/policy.md)\n" \
	"  --parts P,...     compare only these of sysfs, syscalls, vdso, types, docs\n" \
	"                    (the default: all; a part one side lacks is trouble)\n" \
	"  --verdict V       show only findings of verdict V or worse: break, warn\n" \
	"                    or note (the default); the exit status and the\n" \
	"                    summary still count every finding\n" \
	"  --only P,...      show only findings of these parts; unlike --parts,\n" \
	"                    every part is still compared, and counted as above\n" \
	"  --stat            counts per part, kind, level and verdict instead of\n" \
	"                    the findings (text, json and markdown)\n" \
	"  --notify          whom to tell and what each should look at, ready to\n" \
	"                    paste into a mail: the findings of verdict warn or\n" \
	"                    worse unless --verdict says otherwise\n" \
	"  --maintainers FILE  the kernel tree's MAINTAINERS: also tell the lists\n" \
	"                    of the files that declare a type or syscall, or hold\n" \
	"                    the finding's doc entry (the default: that of NEW's,\n" \
	"                    else OLD's, tree when one is at hand)\n" \
	"  --color[=WHEN]    auto (the default: on a terminal, unless NO_COLOR is\n" \
	"                    set and not empty), always (a bare --color) or never\n" \
	OUTPUT_HELP

/*
 * The handlers of OPT_DIFF(): each takes a struct diff_options, but
 * diff_option__verdict(), which takes an enum verdict, for any command's
 * --verdict; diff_option__shown_verdict() is it for the report's filter,
 * noting that --verdict was given.
 */
int diff_option__format(const char *cmd, const struct cli_option *opt,
			const char *arg);
int diff_option__color(const char *cmd, const struct cli_option *opt,
		       const char *arg);
int diff_option__as_of(const char *cmd, const struct cli_option *opt,
		       const char *arg);
int diff_option__json(const char *cmd, const struct cli_option *opt,
		      const char *arg);
int diff_option__parts(const char *cmd, const struct cli_option *opt,
		       const char *arg);
int diff_option__verdict(const char *cmd, const struct cli_option *opt,
			 const char *arg);
int diff_option__shown_verdict(const char *cmd, const struct cli_option *opt,
			       const char *arg);
int diff_option__only(const char *cmd, const struct cli_option *opt,
		      const char *arg);

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

#endif /* KABIDIFF_CLI_JUDGE_H */
