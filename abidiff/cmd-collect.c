// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff collect [-o FILE] [--docs DIR] [--sysfs-dir DIR]
 *
 * Describe a kernel build as a snapshot.  For now from its Documentation/ABI
 * and from a sysfs tree on disk; the vmlinux and QEMU collectors join later.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "collectors/abidocs/abidocs.h"
#include "collectors/sysfs/sysfs-dir.h"
#include "docmatch.h"
#include "print.h"
#include "snapshot-json.h"
#include "banned.h"

static const char collect_usage[] =
	"Usage: kabidiff collect [-o FILE] [--docs DIR] [--sysfs-dir DIR]\n\n"
	"Write a snapshot of what the inputs show: the Documentation/ABI entries\n"
	"of a kernel tree, the nodes of a sysfs tree, and, with both, how many\n"
	"of the nodes the entries document.\n\n"
	"  -o, --output FILE  write FILE (atomically) instead of standard output\n"
	"  --docs DIR         a kernel tree or its Documentation/ABI\n"
	"  --sysfs-dir DIR    walk DIR (a live /sys or a copy) as /sys\n";

/* Coverage counts attributes (files), as 'undocumented' does. */
static int compute_coverage(struct snapshot *s)
{
	int32_t *entry = calloc(s->sysfs.nr + 1, sizeof(*entry));
	size_t i;
	int err;

	if (!entry)
		return -ENOMEM;
	err = docmatch__run(s, s, entry);
	for (i = 0; !err && i < s->sysfs.nr; i++) {
		if (s->sysfs.v[i].kind != NODE_FILE)
			continue;
		s->coverage.sysfs_nodes++;
		s->coverage.documented += entry[i] >= 0;
	}
	s->coverage.computed = !err;
	free(entry);
	return err;
}

static int collect(struct snapshot *s, const char *docs_dir,
		   const char *sysfs_dir, struct abidocs_stats *st)
{
	int err = 0;

	s->kernel.collected_by = strdup("kabidiff " KABIDIFF_VERSION);
	if (!s->kernel.collected_by)
		return -ENOMEM;
	if (docs_dir)
		err = abidocs__collect(docs_dir, s, st);
	if (!err && sysfs_dir)
		err = sysfs_dir__collect(sysfs_dir, "/sys", true, s);
	if (!err)
		err = snapshot__sort(s, "collected snapshot");
	if (!err && docs_dir && sysfs_dir)
		err = compute_coverage(s);
	return err;
}

int do_collect(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "docs",	required_argument,	NULL, 'd' },
		{ "sysfs-dir",	required_argument,	NULL, 's' },
		{ "help",	no_argument,		NULL, 'h' },
		{ 0 }
	};
	const char *output = NULL, *docs_dir = NULL, *sysfs_dir = NULL;
	struct abidocs_stats st = { 0 };
	struct snapshot *s;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) >= 0) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'd':
			docs_dir = optarg;
			break;
		case 's':
			sysfs_dir = optarg;
			break;
		case 'h':
			fputs(collect_usage, stdout);
			return EXIT_OK;
		default:
			return usage_hint("collect");
		}
	}
	if (optind != argc)
		return usage_error("collect", "unexpected argument '%s'",
				   argv[optind]);
	if (!docs_dir && !sysfs_dir)
		return usage_error("collect", "collect needs --docs or --sysfs-dir");
	s = snapshot__new();
	if (!s)
		return EXIT_TROUBLE;
	/* the docs' warnings belong to 'docs validate': count, don't list */
	kabi_set_print(print_errors_only);
	err = collect(s, docs_dir, sysfs_dir, &st);
	if (!err && st.warnings)
		fprintf(stderr, "kabidiff: warning: %s: %u warnings about the ABI documentation; see 'kabidiff docs validate'\n",
			docs_dir, st.warnings);
	if (!err)
		err = output ? snapshot__save(s, output) : snapshot__write(s, stdout);
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return err ? EXIT_TROUBLE : EXIT_OK;
}
