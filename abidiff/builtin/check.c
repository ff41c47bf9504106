// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff check --baseline SNAPSHOT BUILD_DIR
 *
 * One step of 'git bisect run': collect BUILD_DIR, diff it against the
 * baseline, and answer as git bisect run expects: 0 good (no break),
 * 1 bad (a break), 125 skip (the build is missing or cannot be collected).
 */
#include <stdio.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/diff-options.h"
#include "cli/options.h"
#include "lib/print.h"
#include "model/snapshot-json.h"
#include "pipeline/collect.h"
#include "pipeline/judge.h"

/* What 'git bisect run' takes for "this commit cannot be tested". */
#define EXIT_SKIP	125

static const char check_usage[] =
	"Usage: kabidiff check --baseline SNAPSHOT [DIFF OPTIONS] BUILD_DIR\n\n"
	"Collect the kernel build BUILD_DIR, compare it with SNAPSHOT as 'kabidiff\n"
	"diff' does and print the report.  For 'git bisect run':\n\n"
	"  git bisect run sh -c 'make O=build && kabidiff check --baseline good.json build'\n\n"
	DIFF_OPTIONS_HELP "\n"
	"Exit status: 0 no break (good), 1 a break (bad), 125 the build is missing\n"
	"or could not be collected (git bisect skips the commit), 2 bad usage or an\n"
	"unreadable baseline (git bisect stops).\n";

static bool is_build_dir(const char *dir)
{
	char vmlinux[4096];
	struct stat st;

	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", dir);
	return !stat(dir, &st) && S_ISDIR(st.st_mode) && !stat(vmlinux, &st);
}

static struct snapshot *load_baseline(const struct judge_side *side)
{
	return snapshot__load(side->name);
}

/* The build: what cannot be had here skips the commit. */
static struct snapshot *load_build(const struct judge_side *side)
{
	bool *reached = (bool *)side->data;
	struct snapshot *s;

	*reached = true;
	if (!is_build_dir(side->name)) {
		pr_err("%s: no kernel build there (no vmlinux): skipping",
		       side->name);
		return NULL;
	}
	s = collect_build(side->name, NULL);
	if (!s)
		pr_err("%s: the build could not be collected: skipping",
		       side->name);
	return s;
}

/*
 * Trouble before the build (the policy, the baseline) stops git bisect;
 * trouble with the build, or a report that could not be written, says
 * nothing about the commit: it is skipped.
 */
static int run(const char *baseline, const char *build_dir,
	       const struct diff_options *o)
{
	bool reached_build = false;
	int status = judge_sides(&(struct judge_side){ baseline, load_baseline },
				 &(struct judge_side){ build_dir, load_build,
						       &reached_build, false,
						       side_tree_maintainers },
				 o);

	return status == EXIT_TROUBLE && reached_build ? EXIT_SKIP : status;
}

int do_check(int argc, char **argv)
{
	struct diff_options o = DIFF_OPTIONS_INIT;
	const char *baseline = NULL;
	const struct cli_option options[] = {
		OPT_STRING(0, "baseline", &baseline),
		OPT_DIFF(&o),
		OPT_END(),
	};
	int first = parse_options("check", argc, argv, options, check_usage, 0);

	if (first < 0)
		return parse_options_exit(first);
	if (!baseline)
		return usage_error("check", "check needs --baseline SNAPSHOT");
	if (argc - first != 1)
		return usage_error("check", "check needs one BUILD_DIR");
	return run(baseline, argv[first], &o);
}
