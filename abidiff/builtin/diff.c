// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff diff [--format F] [--strict] [--policy FILE] [--waivers FILE] OLD NEW
 *
 * Compare two kernel builds (snapshots, or build directories collected on
 * the fly), judge each change by the stability level the old build's
 * Documentation/ABI promised, and fail when a promise broke.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "diff/diff.h"
#include "model/snapshot-json.h"
#include "policy/policy.h"
#include "report/report.h"

static const char diff_usage[] =
	"Usage: kabidiff diff [--format text|json|markdown] [--strict]\n"
	"                     [--policy FILE] [--waivers FILE] OLD NEW\n"
	"       kabidiff OLD NEW\n\n"
	"Compare two kernel builds and judge every change of their userspace ABI\n"
	"by the stability level OLD's Documentation/ABI gives the interface.\n"
	"OLD and NEW are snapshots ('kabidiff collect') or kernel build\n"
	"directories, collected on the fly.\n\n"
	DIFF_OPTIONS_HELP "\n"
	"Exit status: 0 no break, 1 a break, 2 trouble.\n";

static int parse_format(const char *name, enum report_format *out)
{
	static const char * const names[] = {
		[REPORT_TEXT] = "text", [REPORT_JSON] = "json",
		[REPORT_MARKDOWN] = "markdown",
	};
	unsigned int i;
	int err = name_table__parse(names, ARRAY_SIZE(names), name, &i);

	if (!err)
		*out = i;
	return err;
}

/* A snapshot file, or a build directory to collect. */
static struct snapshot *load_side(const char *path)
{
	struct timespec start;
	struct snapshot *s;
	struct stat st;
	bool build = !stat(path, &st) && S_ISDIR(st.st_mode);

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (build)
		pr_info("%s: collecting the build", path);
	s = build ? collect_build(path) : snapshot__load(path);
	if (s)
		pr_info("%s: %zu sysfs nodes, %zu syscalls, %zu types, %zu doc entries, %s in %.3f s",
			path, s->sysfs.nr, s->syscalls.nr, s->types.nr,
			s->docs.nr, build ? "collected" : "loaded",
			seconds_since(&start));
	return s;
}

/*
 * A part one side lacks is not compared: say so, it is not "no change".
 * Without OLD's documentation every finding is judged undocumented.
 */
static void warn_uncompared(const struct judgement *j, const char *old_name,
			    const char *new_name)
{
	const struct snapshot *old = j->old, *new = j->new;
	const bool collected[2][PART_COUNT] = {
		{ old->sysfs.collected, old->syscalls.collected,
		  old->types.collected, old->docs.collected },
		{ new->sysfs.collected, new->syscalls.collected,
		  new->types.collected, new->docs.collected },
	};
	int i;

	for (i = 0; i < PART_COUNT; i++) {
		if (j->diff->compared[i] || (!collected[0][i] && !collected[1][i]))
			continue;
		pr_warn("%s has no %s part: %s not compared",
			collected[0][i] ? new_name : old_name,
			change_part__name(i), change_part__name(i));
	}
	if (!old->docs.collected && j->nr)
		pr_warn("%s has no docs part: every change is judged as undocumented",
			old_name);
}

static void warn_unused_waivers(const struct waivers *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		if (!w->v[i].matched)
			pr_warn("%s:%u: waiver matched no change",
				w->file, w->v[i].line);
}

static int render(const struct judgement *j, const struct diff_options *o)
{
	switch (o->format) {
	case REPORT_JSON:
		return show_report_json(j, stdout);
	case REPORT_MARKDOWN:
		return show_report_markdown(j, stdout);
	default:
		return show_report_text(j, stdout, o->colour < 0 ?
					isatty(STDOUT_FILENO) && !getenv("NO_COLOR") :
					o->colour);
	}
}

int load_policy(const struct diff_options *o, struct policy *p,
		struct waivers *w)
{
	int err = 0;

	policy__init(p);
	p->strict = o->strict;
	if (o->policy_file)
		err = policy__load(p, o->policy_file);
	if (!err && o->waiver_file)
		err = waivers__load(w, o->waiver_file);
	return err;
}

int judge_snapshots(const struct snapshot *old, const struct snapshot *new,
		    const char *old_name, const char *new_name,
		    const struct policy *p, struct waivers *w,
		    const struct diff_options *o)
{
	struct judgement j = { 0 };
	struct diff d = { 0 };
	struct timespec start;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	err = diff__run(old, new, &d);
	if (!err)
		err = policy__judge(p, o->waiver_file ? w : NULL, old, new, &d, &j);
	if (!err) {
		pr_info("%zu changes found and judged in %.3f s", d.nr,
			seconds_since(&start));
		warn_uncompared(&j, old_name, new_name);
		warn_unused_waivers(w);
		err = render(&j, o);
	}
	if (err == -ENOMEM)
		pr_err("out of memory");
	judgement__release(&j);
	diff__release(&d);
	if (err)
		return EXIT_TROUBLE;
	return j.count[VERDICT_BREAK] ? EXIT_BREAK : EXIT_OK;
}

int count_verdicts(const struct snapshot *old, const struct snapshot *new,
		   const struct policy *p, struct waivers *w,
		   size_t count[VERDICT_COUNT])
{
	struct judgement j = { 0 };
	struct diff d = { 0 };
	int err = diff__run(old, new, &d);

	if (!err)
		err = policy__judge(p, w, old, new, &d, &j);
	if (!err)
		memcpy(count, j.count, sizeof(j.count));
	judgement__release(&j);
	diff__release(&d);
	return err;
}

static int run(const char *old_path, const char *new_path,
	       const struct diff_options *o)
{
	struct snapshot *old = NULL, *new = NULL;
	struct waivers waivers = { 0 };
	struct policy p;
	int status = EXIT_TROUBLE;

	if (load_policy(o, &p, &waivers))
		goto out;
	old = load_side(old_path);
	new = old ? load_side(new_path) : NULL;
	if (old && new)
		status = judge_snapshots(old, new, old_path, new_path, &p,
					 &waivers, o);
out:
	waivers__release(&waivers);
	snapshot__free(old);
	snapshot__free(new);
	return status;
}

const struct option *diff_long_options(const struct option *extra)
{
	static const struct option diff_options[] = {
		{ "format",	required_argument,	NULL, 'f' },
		{ "strict",	no_argument,		NULL, 's' },
		{ "policy",	required_argument,	NULL, 'p' },
		{ "waivers",	required_argument,	NULL, 'w' },
		{ "color",	required_argument,	NULL, 'c' },
		{ "json",	no_argument,		NULL, 'j' },
	};
	static struct option table[ARRAY_SIZE(diff_options) + 8 + 1];
	size_t n = ARRAY_SIZE(diff_options), i;

	memcpy(table, diff_options, sizeof(diff_options));
	for (i = 0; extra[i].name && n < ARRAY_SIZE(table) - 1; i++)
		table[n++] = extra[i];
	memset(&table[n], 0, sizeof(table[n]));
	return table;
}

int parse_diff_option(const char *cmd, int opt, const char *arg,
		      struct diff_options *o)
{
	switch (opt) {
	case 'f':
		if (!parse_format(arg, &o->format))
			return 0;
		usage_error(cmd, "--format is text, json or markdown, not '%s'",
			    arg);
		return -EINVAL;
	case 's':
		o->strict = true;
		return 0;
	case 'p':
		o->policy_file = arg;
		return 0;
	case 'w':
		o->waiver_file = arg;
		return 0;
	case 'c':
		if (!strcmp(arg, "auto") || !strcmp(arg, "always") ||
		    !strcmp(arg, "never")) {
			o->colour = !strcmp(arg, "auto") ? -1 :
				    !strcmp(arg, "always");
			return 0;
		}
		usage_error(cmd, "--color is auto, always or never, not '%s'",
			    arg);
		return -EINVAL;
	case 'j':
		o->format = REPORT_JSON;
		return 0;
	default:
		return 1;
	}
}

int do_diff(int argc, char **argv)
{
	static const struct option help[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ 0 }
	};
	const struct option *options = diff_long_options(help);
	struct diff_options o = DIFF_OPTIONS_INIT;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		if (opt == 'h') {
			fputs(diff_usage, stdout);
			return EXIT_OK;
		}
		err = parse_diff_option("diff", opt, optarg, &o);
		if (err)
			return err < 0 ? EXIT_TROUBLE : usage_hint("diff");
	}
	if (argc - optind != 2)
		return usage_error("diff", "diff needs two snapshots or build directories, OLD and NEW");
	return run(argv[optind], argv[optind + 1], &o);
}
