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
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "collectors/abidocs/abidocs.h"
#include "lib/bytes.h"
#include "lib/print.h"
#include "match/what-index.h"
#include "model/snapshot-json.h"

static const char docs_usage[] =
	"Usage: kabidiff docs validate DIR\n"
	"       kabidiff docs search [--json] REGEX DIR\n"
	"       kabidiff docs diff [OPTIONS] --git REPO REV1 REV2\n"
	"       kabidiff docs diff [OPTIONS] DIR1 DIR2\n\n"
	"DIR is a kernel tree or its Documentation/ABI directory.\n\n"
	"validate  print every warning about the entries (FILE#LINE: problem)\n"
	"          and a summary; exit 1 if an entry is malformed\n"
	"search    print the entries whose What: or description matches the\n"
	"          extended regular expression REGEX; exit 1 if none does\n"
	"diff      judge how the entries moved between levels from REV1 to REV2\n"
	"          (or DIR1 to DIR2) by the policy of 'kabidiff diff'; exit 1\n"
	"          on a break (an entry demoted, dropped, or removed without\n"
	"          passing obsolete/)\n\n"
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

	if (level > KABI_WARN)
		return;
	if (level == KABI_ERROR)
		fputs("kabidiff: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

static int do_validate(int argc, char **argv)
{
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	struct snapshot *s;
	int err;

	if (argc != 2)
		return usage_error("docs", "docs validate needs exactly one DIR");
	s = snapshot__new();
	if (!s)
		return EXIT_TROUBLE;
	kabi_set_print(print_to_stdout);
	err = abidocs__collect(argv[1], s, &st);
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
	snprintf(where, sizeof(where), "Documentation/ABI/%s#%u", d->file,
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
		fprintf(stderr, "kabidiff: out of memory\n");
	return ret ? ret : found ? EXIT_OK : EXIT_BREAK;
}

static int do_search(int argc, char **argv)
{
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	struct snapshot *s;
	char msg[256];
	regex_t re;
	int err, ret;

	if (argc != 3)
		return usage_error("docs", "docs search needs REGEX and DIR");
	err = regcomp(&re, argv[1], REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, &re, msg, sizeof(msg));
		return usage_error("docs", "bad regular expression '%s': %s",
				   argv[1], msg);
	}
	s = snapshot__new();
	kabi_set_print(print_errors_only);
	err = s ? abidocs__collect(argv[2], s, &st) : -ENOMEM;
	ret = err ? EXIT_TROUBLE : show_matches(s, &re);
	regfree(&re);
	snapshot__free(s);
	return ret;
}

/* One side of docs diff: the docs part of a tree, or of revision @where. */
static struct snapshot *load_docs(const char *repo, const char *where,
				  const char *name)
{
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	struct snapshot *s = snapshot__new();
	kabi_print_fn_t print;
	int err = -ENOMEM;

	if (s) {
		/* the entries' warnings belong to 'docs validate' */
		print = kabi_set_print(print_errors_only);
		err = repo ? abidocs__collect_git(repo, where, s, &st) :
		      abidocs__collect(where, s, &st);
		kabi_set_print(print);
	}
	if (!err)
		err = snapshot__sort(s, name);
	if (!err)
		return s;
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return NULL;
}

static int diff_docs(const char *repo, char **sides,
		     const struct diff_options *o)
{
	struct snapshot *old = NULL, *new = NULL;
	struct waivers w = { 0 };
	char names[2][4200];
	struct policy p;
	int i, status = EXIT_TROUBLE;

	for (i = 0; i < 2; i++)
		snprintf(names[i], sizeof(names[i]), "%s%s%s", repo ? repo : "",
			 repo ? "@" : "", sides[i]);
	if (load_policy(o, &p, &w))
		goto out;
	old = load_docs(repo, sides[0], names[0]);
	new = old ? load_docs(repo, sides[1], names[1]) : NULL;
	if (new)
		status = judge_snapshots(old, new, names[0], names[1], &p, &w,
					 o);
out:
	waivers__release(&w);
	snapshot__free(old);
	snapshot__free(new);
	return status;
}

/* argv[0] names the command; the options are those of diff, and --git. */
static int do_docs_diff(int argc, char **argv)
{
	static const struct option own[] = {
		{ "git",	required_argument,	NULL, 'g' },
		{ "help",	no_argument,		NULL, 'h' },
		{ 0 }
	};
	const struct option *options = diff_long_options(own);
	struct diff_options o = DIFF_OPTIONS_INIT;
	const char *repo = NULL;
	int opt, err;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		if (opt == 'h') {
			fputs(docs_usage, stdout);
			return EXIT_OK;
		}
		if (opt == 'g') {
			repo = optarg;
			continue;
		}
		err = parse_diff_option("docs", opt, optarg, &o);
		if (err)
			return err < 0 ? EXIT_TROUBLE : usage_hint("docs");
	}
	if (argc - optind != 2)
		return usage_error("docs", repo ?
				   "docs diff --git REPO needs two revisions, REV1 and REV2" :
				   "docs diff needs two trees, DIR1 and DIR2, or --git REPO REV1 REV2");
	return diff_docs(repo, argv + optind, &o);
}

int do_docs(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json",	no_argument,	NULL, 'j' },
		{ "help",	no_argument,	NULL, 'h' },
		{ 0 }
	};
	int opt;

	/* diff has options of its own */
	if (argc > 1 && !strcmp(argv[1], "diff")) {
		argv[1] = argv[0];
		return do_docs_diff(argc - 1, argv + 1);
	}
	/* options may come anywhere; "--" before a REGEX starting with '-' */
	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		switch (opt) {
		case 'j':
			json_output = true;
			break;
		case 'h':
			fputs(docs_usage, stdout);
			return EXIT_OK;
		default:
			return usage_hint("docs");
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return usage_error("docs", "docs needs validate, search or diff");
	if (!strcmp(argv[0], "validate"))
		return do_validate(argc, argv);
	if (!strcmp(argv[0], "search"))
		return do_search(argc, argv);
	return usage_error("docs", "'%s' is not a docs subcommand", argv[0]);
}
