// SPDX-License-Identifier: GPL-2.0-only
/*
 * A table of struct cli_option becomes a getopt_long() table: an option
 * with a short letter returns the letter, one without returns
 * OPT_LONG_ONLY plus its index in the table.  -h is always --help.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/print.h"
#include "cli.h"
#include "options.h"
#include "output.h"

#define OPT_LONG_ONLY	256

static bool takes_argument(const struct cli_option *o)
{
	return o->type == CLI_OPT_STRING || o->type == CLI_OPT_CALLBACK;
}

static size_t count_options(const struct cli_option *options)
{
	size_t n = 0;

	while (options[n].type != CLI_OPT_END)
		n++;
	return n;
}

/*
 * The getopt_long() tables of @options, plus -h/--help when @help: the
 * long ones in @longopts, the short ones in @shortopts.
 */
static int build_getopt_tables(const struct cli_option *options, size_t n,
			       bool help, unsigned int flags,
			       struct option **longopts, char **shortopts)
{
	/* the options, --help, the end; "+", "X::" per option, "h", NUL */
	struct option *lo = calloc(n + 2, sizeof(*lo));
	char *so = malloc(3 * n + 3);
	size_t i, len = 0;

	if (!lo || !so) {
		free(lo);
		free(so);
		return -ENOMEM;
	}
	if (flags & PARSE_OPT_STOP_AT_OPERAND)
		so[len++] = '+';
	for (i = 0; i < n; i++) {
		const struct cli_option *o = &options[i];

		lo[i].name = o->long_name;
		lo[i].has_arg = takes_argument(o) ? required_argument :
				o->type == CLI_OPT_CALLBACK_OPTARG ? optional_argument :
				no_argument;
		lo[i].val = o->short_name ? o->short_name : OPT_LONG_ONLY + (int)i;
		if (!o->short_name)
			continue;
		so[len++] = o->short_name;
		if (takes_argument(o))
			so[len++] = ':';
		else if (o->type == CLI_OPT_CALLBACK_OPTARG)
			so[len++] = ':', so[len++] = ':';
	}
	if (help) {
		lo[n].name = "help";
		lo[n].val = 'h';
		so[len++] = 'h';
	}
	so[len] = '\0';
	*longopts = lo;
	*shortopts = so;
	return 0;
}

static const struct cli_option *find_option(const struct cli_option *options,
					    size_t n, int val)
{
	size_t i;

	if (val >= OPT_LONG_ONLY && (size_t)(val - OPT_LONG_ONLY) < n)
		return &options[val - OPT_LONG_ONLY];
	for (i = 0; i < n; i++)
		if (options[i].short_name && options[i].short_name == val)
			return &options[i];
	return NULL;
}

static int take_option(const char *cmd, const struct cli_option *o,
		       const char *arg)
{
	switch (o->type) {
	case CLI_OPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_CALLBACK:
	case CLI_OPT_CALLBACK_OPTARG:
		return o->callback(cmd, o, arg);
	case CLI_OPT_CALLBACK_NOARG:
		return o->callback(cmd, o, NULL);
	default:
		return -EINVAL;
	}
}

/*
 * The early options first, in a pass of their own that takes no other and
 * says nothing of what it does not know: they say how to print, so that a
 * usage error before them on the command line is printed their way
 * (diff --verdict fatal --format json: the error is JSON).  The pass reads
 * a copy of @argv, which getopt_long() reorders as it goes: the second
 * pass must see the words in their order, "--waivers" at the end missing
 * its argument rather than taking an operand moved behind it.  Returns 0
 * or PARSE_OPT_ERROR, a handler's refusal (or no memory) reported.
 */
static int take_early_options(const char *cmd, int argc, char **argv,
			      const struct cli_option *options, size_t n,
			      const struct option *longopts,
			      const char *shortopts)
{
	char **words = malloc((argc + 1) * sizeof(*words));
	int c, result = 0;

	if (!words) {
		pr_err("out of memory");
		return PARSE_OPT_ERROR;
	}
	memcpy(words, argv, (argc + 1) * sizeof(*words));
	optind = 0;
	opterr = 0;
	while (!result &&
	       (c = getopt_long(argc, words, shortopts, longopts, NULL)) >= 0) {
		const struct cli_option *o = find_option(options, n, c);

		if (o && o->early && take_option(cmd, o, optarg))
			result = PARSE_OPT_ERROR;
	}
	free(words);
	return result;
}

/* Whether @name's first @len bytes begin two long options, naming none. */
static bool ambiguous(const struct cli_option *options, size_t n,
		      const char *name, size_t len)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++) {
		const char *long_name = options[i].long_name;

		if (!long_name || strncmp(long_name, name, len))
			continue;
		if (!long_name[len])
			return false;
		count++;
	}
	return count > 1;
}

/*
 * What getopt_long() says of an option it refuses, when it may not say it
 * itself (kabi_print_is_json()).  A short option's error leaves its letter
 * in optopt, a long one's the option's value when the option is known and
 * 0 when not, and its word at argv[optind - 1].
 */
static void report_refused(const char *cmd, char **argv,
			   const struct cli_option *options, size_t n)
{
	const struct cli_option *o = optopt ? find_option(options, n, optopt) :
				     NULL;
	const char *word = argv[optind - 1];
	size_t len = strcspn(word, "=");

	if (!optopt) {
		usage_error(cmd, len > 2 && ambiguous(options, n, word + 2, len - 2) ?
			    "option '%.*s' is ambiguous" : "unrecognized option '%.*s'",
			    (int)len, word);
	} else if (o && o->long_name && !strncmp(word, "--", 2) &&
		   !strncmp(word + 2, o->long_name, len - 2)) {
		usage_error(cmd, word[len] ? "option '--%s' doesn't allow an argument" :
			    "option '--%s' requires an argument", o->long_name);
	} else {
		usage_error(cmd, o ? "option requires an argument -- '%c'" :
			    "invalid option -- '%c'", optopt);
	}
}

int parse_options(const char *cmd, int argc, char **argv,
		  const struct cli_option *options, const char *usage,
		  unsigned int flags)
{
	size_t n = count_options(options);
	struct option *longopts;
	char *shortopts;
	int c, result;

	if (build_getopt_tables(options, n, usage, flags, &longopts,
				&shortopts)) {
		pr_err("out of memory");
		return PARSE_OPT_ERROR;
	}
	result = take_early_options(cmd, argc, argv, options, n, longopts,
				    shortopts);
	/* 0 starts getopt_long() afresh: each command parses its own argv */
	optind = 0;
	opterr = !kabi_print_is_json();
	while (!result && (c = getopt_long(argc, argv, shortopts, longopts,
					   NULL)) >= 0) {
		const struct cli_option *o = find_option(options, n, c);

		if (usage && c == 'h') {
			fputs(usage, stdout);
			result = PARSE_OPT_HELP;
		} else if (!o) {
			/* getopt_long() has said what is wrong, unless told not to */
			if (opterr)
				usage_hint(cmd);
			else
				report_refused(cmd, argv, options, n);
			result = PARSE_OPT_ERROR;
		} else if (take_option(cmd, o, optarg)) {
			result = PARSE_OPT_ERROR;
		}
	}
	free(longopts);
	free(shortopts);
	if (!result && output_open(cmd, argc, argv))
		result = PARSE_OPT_ERROR;
	return result ? result : optind;
}

int parse_options_exit(int result)
{
	return result == PARSE_OPT_HELP ? EXIT_OK : EXIT_TROUBLE;
}
