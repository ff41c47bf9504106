/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options of the commands that compare (diff, check, docs diff,
 * bisect): how to judge and report, into a struct diff_options.
 */
#ifndef KABIDIFF_CLI_DIFF_OPTIONS_H
#define KABIDIFF_CLI_DIFF_OPTIONS_H

#include "cli.h"
#include "options.h"
#include "output.h"
#include "pipeline/judge.h"

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
	"  --parts P,...     compare only these of sysfs, syscalls, vdso, types, docs,\n" \
	"                    census\n" \
	"                    (the default: all; a part one side lacks is trouble)\n" \
	"  --verdict V       show only findings of verdict V or worse: break, warn\n" \
	"                    or note (all of them); the exit status and the\n" \
	"                    summary still count every finding.  Without it,\n" \
	"                    text lists the breaks and warns and counts the\n" \
	"                    notes by part and kind; the other formats list all\n" \
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

#endif /* KABIDIFF_CLI_DIFF_OPTIONS_H */
