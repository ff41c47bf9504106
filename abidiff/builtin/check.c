// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff check --baseline SNAPSHOT BUILD_DIR
 *
 * One step of 'git bisect run': collect BUILD_DIR, diff it against the
 * baseline, and answer as git bisect run expects: 0 good (no break),
 * 1 bad (a break), 125 skip (the build is missing or cannot be collected).
 */
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "model/snapshot-json.h"

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

static int run(const char *baseline, const char *build_dir,
	       const struct diff_options *o)
{
	struct snapshot *old = NULL, *new = NULL;
	struct waivers waivers = { 0 };
	struct policy p;
	int status = EXIT_TROUBLE;

	if (load_policy(o, &p, &waivers))
		goto out;
	old = snapshot__load(baseline);
	if (!old)
		goto out;
	status = EXIT_SKIP;
	if (!is_build_dir(build_dir)) {
		pr_err("%s: no kernel build there (no vmlinux): skipping", build_dir);
		goto out;
	}
	new = collect_build(build_dir);
	if (!new) {
		pr_err("%s: the build could not be collected: skipping", build_dir);
		goto out;
	}
	status = judge_snapshots(old, new, baseline, build_dir, &p, &waivers, o);
	/* a report that could not be written says nothing about the commit */
	if (status == EXIT_TROUBLE)
		status = EXIT_SKIP;
out:
	waivers__release(&waivers);
	snapshot__free(old);
	snapshot__free(new);
	return status;
}

int do_check(int argc, char **argv)
{
	static const struct option own[] = {
		{ "baseline",	required_argument,	NULL, 'b' },
		{ "help",	no_argument,		NULL, 'h' },
		{ 0 }
	};
	const struct option *options = diff_long_options(own);
	struct diff_options o = DIFF_OPTIONS_INIT;
	const char *baseline = NULL;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		if (opt == 'h') {
			fputs(check_usage, stdout);
			return EXIT_OK;
		}
		if (opt == 'b') {
			baseline = optarg;
			continue;
		}
		err = parse_diff_option("check", opt, optarg, &o);
		if (err)
			return err < 0 ? EXIT_TROUBLE : usage_hint("check");
	}
	if (!baseline)
		return usage_error("check", "check needs --baseline SNAPSHOT");
	if (argc - optind != 1)
		return usage_error("check", "check needs one BUILD_DIR");
	return run(baseline, argv[optind], &o);
}
