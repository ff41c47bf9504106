// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff docs validate DIR
 * kabidiff docs search [--json] REGEX DIR
 * kabidiff docs diff [--format F] [--strict] [--policy FILE] [--waivers FILE]
 *                    (--git REPO REV1 REV2 | DIR1 DIR2)
 *
 * Checks on the documentation alone: DIR is a kernel tree or its
 * Documentation/ABI directory.  docs diff judges how the documentation
 * moved between two revisions (or trees) by the policy of 'kabidiff diff',
 * reading nothing else, so it is quick on a kernel's whole history.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/diff-options.h"
#include "cli/options.h"
#include "cli/output.h"
#include "collectors/abidocs/abidocs.h"
#include "lib/bytes.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "match/what-index.h"
#include "model/snapshot-json.h"
#include "pipeline/collect.h"
#include "pipeline/judge.h"

static const char docs_usage[] =
	"Usage: kabidiff docs validate [-o FILE] (DIR | FILE...)\n"
	"       kabidiff docs search [--json] [-o FILE] REGEX DIR\n"
	"       kabidiff docs diff [OPTIONS] --git REPO REV1 REV2\n"
	"       kabidiff docs diff [OPTIONS] DIR1 DIR2\n\n"
	"DIR is a kernel tree, whose Documentation/ABI and sysctl documents\n"
	"(Documentation/admin-guide/sysctl/*.rst, Documentation/networking/\n"
	"*sysctl*.rst) are read, or its Documentation/ABI directory alone; a\n"
	"FILE of validate is one documentation file, in its level directory\n"
	"(Documentation/ABI/testing/sysfs-foo) or a sysctl document, as a\n"
	"patch touches them.\n\n"
	"validate  print every problem of the entries (FILE:LINE: error: ... for\n"
	"          a malformed entry, FILE:LINE: warning: ... otherwise)\n"
	"          and a summary; exit 1 if an entry is malformed\n"
	"search    print the entries whose What: or description matches the\n"
	"          extended regular expression REGEX; exit 1 if none does\n"
	"diff      judge how the entries moved between levels from REV1 to REV2\n"
	"          (or DIR1 to DIR2) by the policy of 'kabidiff diff'; exit 1\n"
	"          on a break (an entry demoted, dropped, or removed without\n"
	"          passing obsolete/)\n\n"
	"Options of validate and search:\n"
	OUTPUT_HELP "\n"
	"Options of diff:\n"
	"  --git REPO        REV1 and REV2 are revisions of the git repository\n"
	"                    REPO (branches, tags, commit ids, HEAD~3, ...), read\n"
	"                    without a checkout\n"
	DIFF_OPTIONS_HELP;

/* validate's product is its warnings: they go to stdout, errors to stderr. */
static void print_to_stdout(enum kabi_print_level level, const char *fmt,
			    va_list ap)
{
	FILE *f = level == KABI_WARN ? stdout : stderr;

	if (level <= KABI_WARN)
		kabi_vprint_line(f, level == KABI_ERROR ? "kabidiff: " : "",
				 fmt, ap);
}

int do_docs_validate(int argc, char **argv)
{
	const struct cli_option options[] = { OPT_OUTPUT(), OPT_END() };
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	struct snapshot *s;
	int first, err = 0, i;

	first = parse_options("docs", argc, argv, options, docs_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (argc == first || (argc - first > 1 && is_dir(argv[first])))
		return usage_error("docs", "docs validate needs one DIR, or FILEs");
	if (json_output)
		return usage_error("docs", "docs validate prints FILE:LINE: lines, not JSON: --json is not its");
	s = snapshot__new();
	if (!s)
		return EXIT_TROUBLE;
	/* its product: also under --quiet */
	kabi_set_print(print_to_stdout);
	kabi_print_upto(KABI_DEBUG);
	if (is_dir(argv[first]))
		err = collect_docs(argv[first], NULL, NULL, s, &st);
	for (i = first; !err && !is_dir(argv[first]) && i < argc; i++)
		err = abidocs__collect_file(argv[i], s, &st);
	/* what two of the files given document, as the tree would say */
	if (!err && !is_dir(argv[first]))
		err = abidocs__check_duplicates(s, &st);
	snapshot__free(s);
	if (err)
		return EXIT_TROUBLE;
	printf("%u files, %u entries: %u warnings, %u malformed entries\n",
	       st.files, st.entries, st.warnings, st.malformed);
	return st.malformed ? EXIT_BREAK : EXIT_OK;
}

static bool entry_matches(const struct doc_entry *d, const regex_t *re)
{
	size_t i;

	for (i = 0; i < d->nr_what; i++)
		if (!regexec(re, d->what[i], 0, NULL, 0))
			return true;
	return d->description && !regexec(re, d->description, 0, NULL, 0);
}

static void show_field(const char *label, const char *value)
{
	if (!value)
		return;
	printf("  %-9s", label);
	fputs_quoted(value, stdout);
	putchar('\n');
}

static void show_entry_text(const struct doc_entry *d)
{
	char where[4200];
	size_t i;

	for (i = 0; i < d->nr_what; i++) {
		fputs_quoted(d->what[i], stdout);
		putchar('\n');
	}
	snprintf(where, sizeof(where), "%s%s#%u", doc_entry__dir(d), d->file,
		 d->line);
	show_field("level", abi_level__name(d->level));
	show_field("file", where);
	show_field("contact", d->contact);
	show_field("users", d->users);
	putchar('\n');
}

static int show_matches(const struct snapshot *s, const regex_t *re)
{
	json_t *arr = json_output ? json_array() : NULL;
	size_t i, found = 0;
	int ret = EXIT_OK;

	for (i = 0; i < s->docs.nr; i++) {
		const struct doc_entry *d = &s->docs.v[i];

		if (!entry_matches(d, re))
			continue;
		found++;
		if (!json_output)
			show_entry_text(d);
		else if (json_array_append_new(arr, doc_entry__to_json(d)))
			ret = EXIT_TROUBLE;
	}
	if (json_output) {
		if (ret || json_dumpf(arr, stdout, JSON_INDENT(2)) ||
		    putchar('\n') == EOF)
			ret = EXIT_TROUBLE;
		json_decref(arr);
	}
	if (ret)
		pr_err("out of memory");
	return ret ? ret : found ? EXIT_OK : EXIT_BREAK;
}

/* Options may come anywhere; "--" before a REGEX starting with '-'. */
int do_docs_search(int argc, char **argv)
{
	const struct cli_option options[] = {
		OPT_JSON(),
		OPT_OUTPUT(),
		OPT_END(),
	};
	struct abidocs_stats st = { 0 };
	struct snapshot *s;
	char msg[256];
	regex_t re;
	int first, err, ret;

	first = parse_options("docs", argc, argv, options, docs_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 2)
		return usage_error("docs", "docs search needs REGEX and DIR");
	err = regcomp(&re, argv[first], REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, &re, msg, sizeof(msg));
		return usage_error("docs", "bad regular expression '%s': %s",
				   argv[first], msg);
	}
	s = snapshot__new();
	kabi_print_upto(KABI_ERROR);
	err = s ? collect_docs(argv[first + 1], NULL, NULL, s, &st) : -ENOMEM;
	ret = err ? EXIT_TROUBLE : show_matches(s, &re);
	regfree(&re);
	snapshot__free(s);
	return ret;
}

/* One side of docs diff: a tree, or revision @where of @repo. */
struct docs_side {
	const char *repo;
	const char *where;
};

static struct snapshot *load_docs(const struct judge_side *side)
{
	const struct docs_side *ds = side->data;

	return load_docs_snapshot(ds->where, ds->repo, ds->where, side->name);
}

static int diff_docs(const char *repo, char **sides,
		     const struct diff_options *o)
{
	const struct docs_side ds[2] = { { repo, sides[0] }, { repo, sides[1] } };
	char *names[2];
	int i, status = EXIT_TROUBLE;

	/* "REPO@REV" or "DIR" in the warnings */
	for (i = 0; i < 2; i++)
		names[i] = xasprintf("%s%s%s", repo ? repo : "", repo ? "@" : "",
				     sides[i]);
	if (names[0] && names[1])
		status = judge_sides(&(struct judge_side){ names[0], load_docs, &ds[0] },
				     &(struct judge_side){ names[1], load_docs, &ds[1] },
				     o);
	else
		pr_err("out of memory");
	free(names[0]);
	free(names[1]);
	return status;
}

int do_docs_diff(int argc, char **argv)
{
	struct diff_options o = DIFF_OPTIONS_INIT;
	const char *repo = NULL;
	const struct cli_option options[] = {
		OPT_STRING(0, "git", &repo),
		OPT_DIFF(&o),
		OPT_END(),
	};
	int first = parse_options("docs", argc, argv, options, docs_usage, 0);

	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 2)
		return usage_error("docs", repo ?
				   "docs diff --git REPO needs two revisions, REV1 and REV2" :
				   "docs diff needs two trees, DIR1 and DIR2, or --git REPO REV1 REV2");
	return diff_docs(repo, argv + first, &o);
}

/* "kabidiff docs" without a subcommand (the table of cli/ runs those). */
int do_docs(int argc, char **argv)
{
	const struct cli_option options[] = { OPT_END() };
	int first = parse_options("docs", argc, argv, options, docs_usage, 0);

	if (first < 0)
		return parse_options_exit(first);
	return usage_error("docs", "docs needs validate, search or diff");
}
