// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff diff [--format F] [--strict] [--policy FILE] [--waivers FILE]
 *               [--parts P,...] OLD NEW
 *
 * Compare two kernel builds (snapshots, or build directories collected on
 * the fly), judge each change by the stability level the old build's
 * Documentation/ABI promised, and fail when a promise broke.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/judge.h"
#include "cli/options.h"
#include "cli/side.h"

static const char diff_usage[] =
	"Usage: kabidiff diff [--format text|json|markdown] [--strict]\n"
	"                     [--policy FILE] [--waivers FILE] [--parts P,...]\n"
	"                     OLD NEW\n"
	"       kabidiff OLD NEW\n\n"
	"Compare two kernel builds and judge every change of their userspace ABI\n"
	"by the stability level OLD's Documentation/ABI gives the interface.\n"
	"OLD and NEW are snapshots ('kabidiff collect') or kernel build\n"
	"directories, collected on the fly.  Every part is compared, and a part\n"
	"one side lacks is trouble, unless --parts names those to compare;\n"
	"levels always come from OLD's docs.\n\n"
	DIFF_OPTIONS_HELP "\n"
	"Exit status: 0 no break, 1 a break, 2 trouble.\n";

static struct snapshot *load_side(const struct judge_side *side)
{
	return side_load(side->name);
}

int do_diff(int argc, char **argv)
{
	struct diff_options o = DIFF_OPTIONS_INIT;
	const struct cli_option options[] = {
		OPT_DIFF(&o),
		OPT_END(),
	};
	int first = parse_options("diff", argc, argv, options, diff_usage, 0);

	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 2)
		return usage_error("diff", "diff needs two snapshots or build directories, OLD and NEW");
	if (sides_prepare((const char *const *)argv + first, 2))
		return EXIT_TROUBLE;
	return judge_sides(&(struct judge_side){ argv[first], load_side },
			   &(struct judge_side){ argv[first + 1], load_side }, &o);
}
