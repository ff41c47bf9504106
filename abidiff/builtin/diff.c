// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff diff [--format F] [--strict] [--policy FILE] [--waivers FILE]
 *               [--parts P,...] [--verdict V] [--only P,...] [--stat]
 *               [--machine PROFILE] OLD NEW
 *
 * Compare two kernel builds (snapshots; build directories, Debian packages
 * or debian:ABI collected on the fly), judge each change by the stability level the old build's
 * Documentation/ABI promised, and fail when a promise broke.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/collect-options.h"
#include "cli/diff-options.h"
#include "cli/options.h"
#include "pipeline/collect.h"
#include "pipeline/judge.h"
#include "pipeline/side.h"

static const char diff_usage[] =
	"Usage: kabidiff diff [--format text|json|markdown|ktap|junit|sarif]\n"
	"                     [--strict] [--policy FILE] [--waivers FILE]\n"
	"                     [--parts P,...] [--verdict V] [--only P,...] [--stat]\n"
	"                     [--machine PROFILE] OLD NEW\n"
	"       kabidiff OLD NEW\n\n"
	"Compare two kernel builds and judge every change of their userspace ABI\n"
	"by the stability level OLD's Documentation/ABI gives the interface.\n"
	"OLD and NEW are each a snapshot ('kabidiff collect'), a kernel build\n"
	"directory, a directory holding a kernel's Debian packages (image, -dbg\n"
	"and linux-source .deb files), or debian:ABI[-FLAVOUR], a kernel of\n"
	"Debian's archive (debian:6.1.0-57, debian:6.12.118+deb12-cloud-amd64,\n"
	"debian:6.1.0-57-cloud: the flavour and its architecture are amd64\n"
	"unless named) or debian:SERIES[-FLAVOUR], the newest ABI of a series\n"
	"the archive has (debian:6.12), whose packages apt-get download fetches\n"
	"into the cache.  Those but snapshots are collected on the fly, both at\n"
	"once when both need it; the snapshot of packages is kept in the cache\n"
	"and reused.  Every part is compared, and a part one side lacks is\n"
	"trouble, unless --parts names those to compare; levels always\n"
	"come from OLD's docs.\n\n"
	DIFF_OPTIONS_HELP
	"  --machine PROFILE the machine a side collected boots: standard (the\n"
	"                    default) or minimal (see kabidiff collect)\n\n"
	"Exit status: 0 no break, 1 a break, 2 trouble.\n";

static struct snapshot *load_side(const struct judge_side *side)
{
	return side_load(side->name, side->data);
}

int do_diff(int argc, char **argv)
{
	struct diff_options o = DIFF_OPTIONS_INIT;
	const struct machine_profile *machine = NULL;
	const struct cli_option options[] = {
		OPT_DIFF(&o),
		OPT_CALLBACK(0, "machine", &machine, collect_option__machine),
		OPT_END(),
	};
	int first = parse_options("diff", argc, argv, options, diff_usage, 0);

	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 2)
		return usage_error("diff", "diff needs two snapshots or build directories, OLD and NEW");
	if (sides_prepare((const char *const *)argv + first, 2, machine))
		return EXIT_TROUBLE;
	/*
	 * A side that is a snapshot file, the side's own or the one collected
	 * or cached for it, is read by snapshot__load() alone, which may run
	 * beside another; collecting runs the collectors, their libraries,
	 * QEMU and the cache, which are not made for that.
	 */
	return judge_sides(&(struct judge_side){ argv[first], load_side, machine,
						 side_concurrent(argv[first]),
						 side_tree_maintainers },
			   &(struct judge_side){ argv[first + 1], load_side, machine,
						 side_concurrent(argv[first + 1]),
						 side_tree_maintainers },
			   &o);
}
