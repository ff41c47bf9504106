// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff: compare the userspace ABI of two Linux kernel builds.
 *
 * The global options come first, then a command (cli/commands.c), which
 * parses its own options.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"

int main(int argc, char **argv)
{
	bool help = false, version = false, quiet = false;
	const struct cli_option options[] = {
		OPT_JSON(),
		OPT_BOOL('q', "quiet", &quiet),
		OPT_BOOL('h', "help", &help),
		OPT_BOOL('V', "version", &version),
		OPT_END(),
	};
	int first;

	cli_setup();
	/* stop at the command, whose options are its own */
	first = parse_options(NULL, argc, argv, options, NULL,
			      PARSE_OPT_STOP_AT_OPERAND);
	if (first < 0)
		return EXIT_TROUBLE;
	if (help) {
		print_help();
		return output_finish(EXIT_OK);
	}
	if (version) {
		printf("kabidiff %s\n", KABIDIFF_VERSION);
		return output_finish(EXIT_OK);
	}
	if (first == argc)
		return usage_error(NULL, "no command given");
	/* warnings and progress off; a command whose product they are keeps them */
	if (quiet)
		kabi_print_upto(KABI_ERROR);
	return output_finish(run_command_line(argc - first, argv + first));
}
