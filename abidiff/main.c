// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff: compare the userspace ABI of two Linux kernel builds.
 *
 * Command dispatch in the style of bpftool: global options first, then a
 * command looked up in a table; each command parses its own options.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "lib/compiler.h"
#include "lib/print.h"

bool json_output;

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
	const char *summary;
};

static const struct cmd commands[] = {
	{ "diff", do_diff,
	  "diff [--format text|json|markdown] [--strict] [--policy FILE] [--waivers FILE] OLD NEW",
	  "judge the ABI changes between two builds (also: kabidiff OLD NEW)" },
	{ "bisect", do_bisect,
	  "bisect --repo DIR --good REV --bad REV [--config FRAGMENT] [--build-cmd CMD]",
	  "find the commit that broke a documented interface" },
	{ "check", do_check,
	  "check --baseline SNAPSHOT [--policy FILE] [--waivers FILE] [--strict] BUILD_DIR",
	  "for git bisect run: 0 no break, 1 break, 125 skip" },
	{ "collect", do_collect,
	  "collect [-o FILE] [--vmlinux FILE] [--docs DIR | --docs-git REPO@REV] [--sysfs-dir DIR] [BUILD_DIR]",
	  "describe a kernel build as a snapshot" },
	{ "docs", do_docs, "docs validate DIR",
	  "check a tree's Documentation/ABI entries" },
	{ "docs", do_docs, "docs search [--json] REGEX DIR",
	  "the entries whose What: or description matches REGEX" },
	{ "docs", do_docs, "docs diff [--format F] [--strict] (--git REPO REV1 REV2 | DIR1 DIR2)",
	  "judge how the entries moved between levels, reading nothing else" },
	{ "show", do_show, "show [--json] SNAPSHOT",
	  "summarise a snapshot, or re-emit it as canonical JSON" },
	{ "undocumented", do_undocumented,
	  "undocumented (--docs DIR | --docs-git REPO@REV) (--sysfs-dir DIR | SNAPSHOT)",
	  "the sysfs attributes no entry documents, and the coverage" },
};

int usage_hint(const char *cmd)
{
	fprintf(stderr, "Try 'kabidiff %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return EXIT_TROUBLE;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("kabidiff: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return usage_hint(cmd);
}

static void print_help(void)
{
	size_t i;

	printf("Usage: kabidiff [--json] COMMAND [ARGS...]\n"
	       "       kabidiff --help | --version\n\n"
	       "Compare the userspace ABI of two Linux kernel builds.\n\n"
	       "Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		const char *syn = commands[i].synopsis;

		/* a long synopsis gets a line of its own */
		printf("  %-28s%s%s\n", syn,
		       strlen(syn) > 28 ? "\n                               " : " ",
		       commands[i].summary);
	}
	printf("\nOptions:\n"
	       "  -j, --json     print data as JSON where a command prints data\n"
	       "  -h, --help     show this help; 'kabidiff COMMAND --help' for a command\n"
	       "  -V, --version  show the version\n\n"
	       "Exit status: 0 success, 1 an ABI break was found, 2 trouble\n"
	       "(check: 125, this build cannot be judged).\n");
}

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void print_errors_only(enum kabi_print_level level, const char *fmt,
		       va_list ap)
{
	if (level != KABI_ERROR)
		return;
	fputs("kabidiff: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* What git's run_builtin() does: output that did not arrive is trouble. */
static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "kabidiff: write error on standard output: %s\n",
			strerror(errno));
		return EXIT_TROUBLE;
	}
	return status;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json",	no_argument,	NULL, 'j' },
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ 0 }
	};
	static char cmd_prog[64];
	const struct cmd *cmd;
	int opt;

	/* "+": stop at the command, whose options are its own */
	while ((opt = getopt_long(argc, argv, "+jhV", options, NULL)) >= 0) {
		switch (opt) {
		case 'j':
			json_output = true;
			break;
		case 'h':
			print_help();
			return finish_stdout(EXIT_OK);
		case 'V':
			printf("kabidiff %s\n", KABIDIFF_VERSION);
			return finish_stdout(EXIT_OK);
		default:	/* getopt_long() has said what is wrong */
			return usage_hint(NULL);
		}
	}
	if (optind == argc)
		return usage_error(NULL, "no command given");
	cmd = find_command(argv[optind]);
	if (!cmd && argc - optind == 2) {
		/* "kabidiff OLD NEW": argv[0] stands in for "diff" */
		cmd = find_command("diff");
		optind--;
	}
	if (!cmd)
		return usage_error(NULL, "'%s' is not a kabidiff command",
				   argv[optind]);
	argv += optind;
	argc -= optind;
	/* getopt_long() names argv[0] in its messages: "kabidiff show: ..." */
	snprintf(cmd_prog, sizeof(cmd_prog), "kabidiff %s", cmd->name);
	argv[0] = cmd_prog;
	optind = 0;
	return finish_stdout(cmd->fn(argc, argv));
}
