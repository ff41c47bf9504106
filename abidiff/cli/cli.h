/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kabidiff program: shared by main.c and the commands (cmd-*.c).  Only
 * this layer calls collectors and the engine together and prints.
 */
#ifndef KABIDIFF_CLI_H
#define KABIDIFF_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <time.h>

#include "lib/compiler.h"
#include "lib/print.h"
#include "model/model.h"
#include "policy/policy.h"
#include "report/report.h"

/* Exit statuses, the same for every command (see kabidiff(1)). */
enum {
	EXIT_OK		= 0,
	EXIT_BREAK	= 1,	/* the answer is "no": an ABI break, ... */
	EXIT_TROUBLE	= 2,	/* bad usage, unreadable input, ... */
};

/* Set by the global --json and by each command's own --json. */
extern bool json_output;

/* usage_hint() - point at --help for @cmd (NULL: the program); EXIT_TROUBLE. */
int usage_hint(const char *cmd);

/*
 * usage_error() - report a usage error for command @cmd (NULL for the
 * program itself) with a hint at --help; returns EXIT_TROUBLE.
 */
int __printf(2, 3) usage_error(const char *cmd, const char *fmt, ...);

/*
 * print_errors_only() - a kabi_set_print() callback for commands whose
 * output warnings would only clutter: errors to stderr, nothing else.
 */
void print_errors_only(enum kabi_print_level level, const char *fmt,
		       va_list ap);

/* seconds_since() - the time since @start, a CLOCK_MONOTONIC reading. */
double seconds_since(const struct timespec *start);

/*
 * collect_build() - a snapshot of the kernel build in @build_dir (the O=
 * directory), collected as 'kabidiff collect BUILD_DIR' does; NULL when
 * that failed (reported) or out of memory.
 */
struct snapshot *collect_build(const char *build_dir);

/*
 * parse_repo_rev() - split @spec, "REPO@REV" (--docs-git), at its last '@'
 * into @repo (malloc()ed, the caller frees it) and @rev (inside @repo's
 * allocation).  Returns 0, -EINVAL when a part is missing (reported as a
 * usage error of command @cmd) or -ENOMEM (reported).
 */
int parse_repo_rev(const char *cmd, const char *spec, char **repo,
		   const char **rev);

/* How to judge and report a diff: the options of 'kabidiff diff'. */
struct diff_options {
	enum report_format format;
	const char *policy_file;
	const char *waiver_file;
	bool strict;
	int colour;		/* -1: auto */
};

/*
 * The options of 'kabidiff diff' that say how to judge and report, shared
 * by every command that judges: diff_long_options() for getopt_long(),
 * DIFF_OPTIONS_HELP in its --help, parse_diff_option() on each option
 * getopt_long() returns.
 */
#define DIFF_OPTIONS_HELP \
	"  --format FORMAT   text (the default), json or markdown\n" \
	"  --strict          judge every warn as a break\n" \
	"  --policy FILE     override verdicts of the default policy\n" \
	"  --waivers FILE    accept known changes (see docs/policy.md)\n" \
	"  --color WHEN      auto (the default: on a terminal), always or never\n"

#define DIFF_OPTIONS_INIT \
	{ .format = json_output ? REPORT_JSON : REPORT_TEXT, .colour = -1 }

/*
 * diff_long_options() - a getopt_long() table of the diff options ('f', 's',
 * 'p', 'w', 'c', 'j'; "jh" for the short ones) followed by @extra's, at
 * most 8 and ended by { 0 }.  The table is static: one command, one table.
 */
const struct option *diff_long_options(const struct option *extra);

/*
 * parse_diff_option() - take option @opt of DIFF_LONG_OPTIONS, with argument
 * @arg, into @o.  Returns 0 when taken, 1 when @opt is not one of them, or
 * -EINVAL when @arg is wrong (reported as a usage error of command @cmd).
 */
int parse_diff_option(const char *cmd, int opt, const char *arg,
		      struct diff_options *o);

/*
 * load_policy() - the policy and waivers @o asks for, into @p and @w (@w
 * zeroed by the caller, released with waivers__release() either way).
 * Returns 0 or -errno, reported.
 */
int load_policy(const struct diff_options *o, struct policy *p,
		struct waivers *w);

/*
 * judge_snapshots() - diff @old with @new, judge the changes by @p and @w
 * and print the report @o asks for; @old_name and @new_name name them in
 * warnings.  Returns EXIT_OK, EXIT_BREAK or EXIT_TROUBLE.  Shared by the
 * commands that compare: diff, docs diff, check.
 */
int judge_snapshots(const struct snapshot *old, const struct snapshot *new,
		    const char *old_name, const char *new_name,
		    const struct policy *p, struct waivers *w,
		    const struct diff_options *o);

/*
 * count_verdicts() - diff and judge as judge_snapshots() does, printing
 * nothing: how many findings got each verdict, accepted ones not counted,
 * into @count.  Returns 0 or -ENOMEM.
 */
int count_verdicts(const struct snapshot *old, const struct snapshot *new,
		   const struct policy *p, struct waivers *w,
		   size_t count[VERDICT_COUNT]);

/* The commands: each gets its own argv (argv[0] is the command name). */
int do_bisect(int argc, char **argv);
int do_check(int argc, char **argv);
int do_collect(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_docs(int argc, char **argv);
int do_show(int argc, char **argv);
int do_undocumented(int argc, char **argv);

#endif /* KABIDIFF_CLI_H */
