/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -o/--output FILE for the commands that print their data on standard
 * output: standard output becomes atomic_open()'s file for FILE, which
 * becomes FILE only when the command did its job (exit 0 or 1), so trouble
 * never leaves a partial FILE.  And -j/--json, for those that print it as
 * JSON.
 */
#ifndef KABIDIFF_CLI_OUTPUT_H
#define KABIDIFF_CLI_OUTPUT_H

#include "options.h"

/*
 * output_option() - the callback of -o FILE: note FILE ("-": standard
 * output stays where it is), for output_open().
 */
int output_option(const char *cmd, const struct cli_option *opt,
		  const char *arg);

/*
 * output_open() - once @cmd's options are parsed (parse_options() calls
 * it), send standard output to the file -o named, unless it is one of the
 * files the command reads: an argument in @argv, or an option's value, that
 * names the same file.  0 or -errno, reported.
 */
int output_open(const char *cmd, int argc, char **argv);

#define OPT_OUTPUT()	OPT_CALLBACK('o', "output", NULL, output_option)
#define OUTPUT_HELP \
	"  -o, --output FILE write FILE (whole, or not at all) instead of\n" \
	"                    standard output\n"

/*
 * json_option() - the callback of a command's -j/--json (OPT_JSON()): its
 * data as JSON (json_output), and so its diagnostics.
 */
int json_option(const char *cmd, const struct cli_option *opt,
		const char *arg);

#define OPT_JSON()	OPT_CALLBACK_NOARG_EARLY('j', "json", NULL, json_option)

/*
 * output_finish() - flush standard output, and when -o gave a file, commit
 * it if @status is 0 or 1, else abort it (atomic_commit(), atomic_abort()).
 * Returns @status, or EXIT_TROUBLE when writing failed (reported).
 */
int output_finish(int status);

#endif /* KABIDIFF_CLI_OUTPUT_H */
