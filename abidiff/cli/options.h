/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Option parsing for every command, from one table per command (the idea is
 * git's parse-options): each entry names a long option, its short letter if
 * any, and where its value goes.  getopt_long() does the parsing, so the
 * syntax and the messages are the usual ones; options may come anywhere
 * among the operands, and "--" ends them.
 */
#ifndef KABIDIFF_CLI_OPTIONS_H
#define KABIDIFF_CLI_OPTIONS_H

#include <stdbool.h>

struct cli_option;

/*
 * An option's handler: take @arg (NULL for an option without one) for
 * option @opt of command @cmd.  Returns 0, or -EINVAL after reporting a
 * usage error (usage_error()).
 */
typedef int (*cli_option_fn)(const char *cmd, const struct cli_option *opt,
			     const char *arg);

enum cli_option_type {
	CLI_OPT_END,
	CLI_OPT_BOOL,		/* no argument: *(bool *)value = true */
	CLI_OPT_STRING,		/* *(const char **)value = the argument */
	CLI_OPT_CALLBACK,	/* callback(cmd, opt, argument) */
	CLI_OPT_CALLBACK_NOARG,	/* callback(cmd, opt, NULL) */
	/* callback(cmd, opt, argument or NULL): "--name=ARG" or "--name" */
	CLI_OPT_CALLBACK_OPTARG,
};

struct cli_option {
	enum cli_option_type type;
	const char *long_name;
	int short_name;		/* a letter, or 0 */
	void *value;
	cli_option_fn callback;
	/*
	 * Taken before the others, wherever it is (--json, --format): it says
	 * how the command prints, its usage errors included.
	 */
	bool early;
};

#define OPT_BOOL(s, l, v)	{ CLI_OPT_BOOL, (l), (s), (v), NULL }
#define OPT_STRING(s, l, v)	{ CLI_OPT_STRING, (l), (s), (v), NULL }
#define OPT_CALLBACK(s, l, v, fn) { CLI_OPT_CALLBACK, (l), (s), (v), (fn) }
#define OPT_CALLBACK_NOARG(s, l, v, fn) \
	{ CLI_OPT_CALLBACK_NOARG, (l), (s), (v), (fn) }
#define OPT_CALLBACK_OPTARG(s, l, v, fn) \
	{ CLI_OPT_CALLBACK_OPTARG, (l), (s), (v), (fn) }
#define OPT_CALLBACK_EARLY(s, l, v, fn) \
	{ CLI_OPT_CALLBACK, (l), (s), (v), (fn), true }
#define OPT_CALLBACK_NOARG_EARLY(s, l, v, fn) \
	{ CLI_OPT_CALLBACK_NOARG, (l), (s), (v), (fn), true }
#define OPT_END()		{ CLI_OPT_END, NULL, 0, NULL, NULL }

/* What parse_options() returns instead of an index. */
enum {
	PARSE_OPT_HELP	= -1,	/* --help was asked for and printed */
	PARSE_OPT_ERROR	= -2,	/* a usage error, reported */
};

/* Flags of parse_options(). */
enum {
	/* the first operand ends the options: the program's, before a command */
	PARSE_OPT_STOP_AT_OPERAND = 1 << 0,
};

/*
 * parse_options() - parse the options of command @cmd (NULL: the program
 * itself) in @argv, @argv[0] naming the command in getopt_long()'s messages.
 *
 * With a @usage text, -h and --help print it to standard output.  An
 * unknown option, a missing argument or a handler's refusal is reported
 * with a pointer at --help, as JSON when kabi_print_is_json() once the
 * early options are taken.  Returns the index in @argv of the first
 * operand (the operands are moved to the end, in their order), or
 * PARSE_OPT_HELP or PARSE_OPT_ERROR.
 */
int parse_options(const char *cmd, int argc, char **argv,
		  const struct cli_option *options, const char *usage,
		  unsigned int flags);

/* parse_options_exit() - the exit status for a PARSE_OPT_* result. */
int parse_options_exit(int result);

#endif /* KABIDIFF_CLI_OPTIONS_H */
