// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command table and its dispatch, in the style of bpftool and git: a
 * command is looked up by name, a command with subcommands (docs) looks
 * the next word up in its own table, "help COMMAND" is "COMMAND --help",
 * and a name that is no command gets the nearest one as a suggestion.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;	/* NULL: the subcommands' lines say it */
	const char *summary;
	const struct command *subcommands;	/* ended by a NULL name */
};

static int do_help(int argc, char **argv);

static const struct command docs_commands[] = {
	{ "validate", do_docs_validate, "docs validate (DIR | FILE...)",
	  "check a tree's Documentation/ABI entries" },
	{ "search", do_docs_search, "docs search [--json] REGEX DIR",
	  "the entries whose What: or description matches REGEX" },
	{ "diff", do_docs_diff,
	  "docs diff [--format F] [--strict] (--git REPO REV1 REV2 | DIR1 DIR2)",
	  "judge how the entries moved between levels, reading nothing else" },
	{ NULL }
};

static const struct command commands[] = {
	{ "diff", do_diff,
	  "diff [--format text|json|markdown] [--strict] [--policy FILE] [--waivers FILE] OLD NEW",
	  "judge the ABI changes between two kernels (also: kabidiff OLD NEW)" },
	{ "bisect", do_bisect,
	  "bisect --repo DIR --good REV --bad REV [--config FRAGMENT] [--build-cmd CMD]",
	  "find the commit that broke a documented interface" },
	{ "check", do_check,
	  "check --baseline SNAPSHOT [--policy FILE] [--waivers FILE] [--strict] BUILD_DIR",
	  "for git bisect run: 0 no break, 1 break, 125 skip" },
	{ "collect", do_collect,
	  "collect [-o FILE] [--deb FILE]... [--vmlinux FILE] [--docs DIR | --docs-git REPO@REV] [--sysfs-dir DIR] [BUILD_DIR]",
	  "describe a kernel build as a snapshot" },
	{ "docs", do_docs, NULL, NULL, docs_commands },
	{ "show", do_show, "show [--json] SNAPSHOT",
	  "summarise a snapshot, or re-emit it as canonical JSON" },
	{ "undocumented", do_undocumented,
	  "undocumented (--docs DIR | --docs-git REPO@REV) (--sysfs-dir DIR | SNAPSHOT)",
	  "the sysfs attributes no entry documents, and the coverage" },
	{ "waivers", do_waivers, "waivers [--verdict V] [-o FILE] REPORT",
	  "a waiver file to fill in for the findings of a JSON report" },
	{ "help", do_help, "help [COMMAND]", "show the help of COMMAND" },
	{ NULL }
};

static void print_command_lines(const struct command *table)
{
	const struct command *c;

	for (c = table; c->name; c++) {
		if (!c->synopsis) {
			print_command_lines(c->subcommands);
			continue;
		}
		/* a long synopsis gets a line of its own */
		printf("  %-28s%s%s\n", c->synopsis,
		       strlen(c->synopsis) > 28 ?
		       "\n                               " : " ",
		       c->summary);
	}
}

void print_help(void)
{
	printf("Usage: kabidiff [--json] [--quiet] COMMAND [ARGS...]\n"
	       "       kabidiff --help | --version\n\n"
	       "Compare the userspace ABI of two Linux kernel builds.\n\n"
	       "Commands:\n");
	print_command_lines(commands);
	printf("\nOptions:\n"
	       "  -j, --json     print data as JSON where a command prints data, and\n"
	       "                 errors and warnings as JSON objects, one a line\n"
	       "  -q, --quiet    print errors only: no warnings, no progress\n"
	       "  -h, --help     show this help; 'kabidiff help COMMAND' for a command\n"
	       "  -V, --version  show the version\n\n"
	       "Exit status: 0 success, 1 an ABI break was found, 2 trouble\n"
	       "(check: 125, this build cannot be judged).\n");
}

/*
 * The edit distance of @a and @b, a transposition of two neighbours
 * counting as one edit (the optimal string alignment distance), so that
 * "shwo" is one edit from "show".
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	/* three rows of the table: two back, one back, this one */
	size_t rows[3][64], *prev2 = rows[0], *prev = rows[1], *row = rows[2];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t *t;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			row[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[lb];
}

/* The name in @table nearest @name, if it is near enough to be a typo. */
static const char *nearest(const struct command *table, const char *name)
{
	const struct command *c;
	const char *best = NULL;
	size_t best_d = 3;	/* at most two edits */

	for (c = table; c->name; c++) {
		size_t d = edit_distance(name, c->name);

		if (d < best_d && d < strlen(c->name)) {
			best = c->name;
			best_d = d;
		}
	}
	return best;
}

static const struct command *find(const struct command *table,
				  const char *name)
{
	const struct command *c;

	for (c = table; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* @name is not in @table, the commands of @parent (NULL: the program's). */
static int unknown_command(const struct command *table, const char *parent,
			   const char *name)
{
	const char *guess = nearest(table, name);

	if (guess)
		return usage_error(parent, "unknown %s%scommand '%s'; did you mean '%s'?",
				   parent ? parent : "", parent ? " " : "",
				   name, guess);
	return usage_error(parent, "unknown %s%scommand '%s'", parent ? parent : "",
			   parent ? " " : "", name);
}

/*
 * Run @c with @argv, @argv[0] its name: a command with subcommands runs the
 * one @argv[1] names; itself when there is none, for --help and the usage
 * error.
 */
static int run(const struct command *c, int argc, char **argv,
	       const char *prog)
{
	/* getopt_long() names argv[0] in its messages: "kabidiff show: ..." */
	static char names[2][64];
	const struct command *sub;

	snprintf(names[0], sizeof(names[0]), "kabidiff %s", prog);
	argv[0] = names[0];
	if (!c->subcommands || argc < 2 || argv[1][0] == '-')
		return c->fn(argc, argv);
	sub = find(c->subcommands, argv[1]);
	if (!sub)
		return unknown_command(c->subcommands, c->name, argv[1]);
	snprintf(names[1], sizeof(names[1]), "kabidiff %s %s", c->name,
		 sub->name);
	argv[1] = names[1];
	return sub->fn(argc - 1, argv + 1);
}

/* "help [COMMAND [SUBCOMMAND]]": the program's help, or COMMAND --help. */
static int do_help(int argc, char **argv)
{
	static char help_option[] = "--help";
	char *args[4];
	const struct command *c;
	int n = 0;

	if (argc < 2) {
		print_help();
		return EXIT_OK;
	}
	if (argc > 3)
		return usage_error("help", "help takes a command and, for docs, a subcommand");
	c = find(commands, argv[1]);
	if (!c || c->fn == do_help)
		return c ? do_help(1, argv) : unknown_command(commands, NULL, argv[1]);
	args[n++] = argv[1];
	if (argc == 3)
		args[n++] = argv[2];
	args[n++] = help_option;
	args[n] = NULL;
	return run(c, n, args, c->name);
}

/*
 * "kabidiff OLD NEW" is diff: two operands, the first not a command's name.
 * A word that names no file and could be a command is taken for a mistyped
 * command instead.
 */
static bool looks_like_command(const char *word)
{
	return word[strspn(word, "abcdefghijklmnopqrstuvwxyz-")] == '\0' &&
	       access(word, F_OK);
}

int run_command_line(int argc, char **argv)
{
	const struct command *c = find(commands, argv[0]);

	if (c)
		return run(c, argc, argv, c->name);
	if (argc == 2 && !looks_like_command(argv[0]) && argv[1][0] != '-') {
		char *diff_argv[] = { NULL, argv[0], argv[1], NULL };

		return run(find(commands, "diff"), 3, diff_argv, "diff");
	}
	return unknown_command(commands, NULL, argv[0]);
}
