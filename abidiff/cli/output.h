/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -o/--output FILE for the commands that print their data on standard
 * output: the data goes to a temporary file beside FILE, which becomes
 * FILE only when the command did its job (exit 0 or 1), so trouble never
 * leaves a partial FILE.  And -j/--json, for those that print it as JSON.
 */
#ifndef KABIDIFF_CLI_OUTPUT_H
#define KABIDIFF_CLI_OUTPUT_H

#include "options.h"

/*
 * output_option() - the callback of -o FILE: standard output goes to a
 * temporary file beside @arg from now on ("-": it stays where it is).
 */
int output_option(const char *cmd, const struct cli_option *opt,
		  const char *arg);

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
 * output_finish() - flush standard output, and when -o gave a file, rename
 * the temporary one into place if @status is 0 or 1, else remove it.
 * Returns @status, or EXIT_TROUBLE when writing failed (reported).
 */
int output_finish(int status);

#endif /* KABIDIFF_CLI_OUTPUT_H */
