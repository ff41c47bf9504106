// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff bisect --repo DIR --good REV --bad REV [--config FRAGMENT]
 *                 [--build-cmd CMD] [DIFF OPTIONS]
 *
 * Find the commit that broke a documented interface: the options are read
 * here, the bisecting is pipeline/bisect.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/diff-options.h"
#include "cli/options.h"
#include "pipeline/bisect.h"
#include "pipeline/judge.h"

static const char bisect_usage[] =
	"Usage: kabidiff bisect --repo DIR --good REV --bad REV [--config FRAGMENT]\n"
	"                       [--build-cmd CMD] [DIFF OPTIONS]\n\n"
	"Find the first commit between REV GOOD and REV BAD (first-parent history)\n"
	"whose kernel breaks the ABI that GOOD's documentation promises.  Commits\n"
	"are checked out into kabidiff's cache, never into DIR, and built there\n"
	"out of tree, incrementally.\n\n"
	"  --config FRAGMENT  build with 'make tinyconfig' plus this Kconfig\n"
	"                     fragment (default: 'make defconfig')\n"
	"  --build-cmd CMD    build with 'sh -c CMD' instead, run in the source\n"
	"                     tree with $KABIDIFF_BUILD (the O= directory, which\n"
	"                     must get vmlinux and arch/x86/boot/bzImage),\n"
	"                     $KABIDIFF_SRC and $KABIDIFF_CONFIG set\n"
	DIFF_OPTIONS_HELP "\n"
	"BAD is checked first: when it has no break against GOOD, or does not\n"
	"build, there is nothing to bisect (exit 2).  A commit between them\n"
	"that does not build or cannot be collected is skipped.  The\n"
	"build logs and the snapshot of each commit stay in the cache\n"
	"($KABIDIFF_CACHE, default ~/.cache/kabidiff, under bisect/).\n\n"
	"Exit status: 0 the first bad commit was found, 2 trouble (including:\n"
	"BAD breaks nothing, skipped commits leave it undecided).\n";

int do_bisect(int argc, char **argv)
{
	struct diff_options diff = DIFF_OPTIONS_INIT;
	struct waivers waivers = { 0 };
	struct policy policy;
	struct bisect_options o = {
		.diff = &diff, .policy = &policy, .waivers = &waivers,
	};
	const char *config = NULL;
	const struct cli_option options[] = {
		OPT_STRING(0, "repo", &o.repo),
		OPT_STRING(0, "good", &o.good),
		OPT_STRING(0, "bad", &o.bad),
		OPT_STRING(0, "config", &config),
		OPT_STRING(0, "build-cmd", &o.build_cmd),
		OPT_DIFF(&diff),
		OPT_END(),
	};
	char *config_path = NULL;
	int first, status;

	first = parse_options("bisect", argc, argv, options, bisect_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (!o.repo || !o.good || !o.bad || first != argc)
		return usage_error("bisect", "bisect needs --repo DIR, --good REV and --bad REV, nothing else");
	/* its steps are lines of text: a JSON report after them is no JSON */
	if (json_output || diff.format == REPORT_JSON)
		return usage_error("bisect", "bisect prints text only: --json and --format json are not its");
	/* the build runs elsewhere: the fragment's path must hold there */
	if (config) {
		config_path = realpath(config, NULL);
		if (!config_path)
			return usage_error("bisect", "--config %s: %s", config,
					   strerror(errno));
		o.config = config_path;
	}
	status = load_policy(&diff, &policy, &waivers) ? EXIT_TROUBLE :
		 bisect_run(&o);
	waivers__release(&waivers);
	policy__release(&policy);
	free(config_path);
	return status;
}
