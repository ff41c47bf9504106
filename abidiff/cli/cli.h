/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kabidiff program's command line: the command table and its dispatch
 * (commands.c), the usage errors and diagnostics every command shares, and
 * the commands themselves (abidiff/builtin/), which run the pipeline
 * (abidiff/pipeline/) on the inputs their options name.
 */
#ifndef KABIDIFF_CLI_H
#define KABIDIFF_CLI_H

#include <stdarg.h>
#include <stdbool.h>

#include "lib/compiler.h"
#include "lib/print.h"
#include "pipeline/exit-status.h"

/* Set by the global --json and by each command's own --json. */
extern bool json_output;

/*
 * run_command_line() - run the command @argv[0] names (argc >= 1) with its
 * arguments, or "kabidiff OLD NEW" as diff; EXIT_* or the command's own
 * status.  Unknown commands are usage errors, with the nearest name.
 */
int run_command_line(int argc, char **argv);

/* print_help() - the program's --help: usage, commands, global options. */
void print_help(void);

/*
 * usage_hint() - point at --help for @cmd (NULL: the program) after a
 * usage error printed as text (getopt_long()'s); EXIT_TROUBLE.
 */
int usage_hint(const char *cmd);

/*
 * usage_error() - report a usage error for command @cmd (NULL for the
 * program itself) with a hint at --help; returns EXIT_TROUBLE.
 */
int __printf(2, 3) usage_error(const char *cmd, const char *fmt, ...);

/*
 * cli_setup() - what the program sets once, first, before there is a
 * thread: where diagnostics go (print_messages()), and jansson's allocator
 * (model/json-arena.h).
 */
void cli_setup(void);

/*
 * print_messages() - the program's kabi_set_print() callback: errors and
 * warnings to stderr, and progress when kabi_print_wants_info(); as text
 * lines or as JSON (kabi_print_as_json()).
 */
void print_messages(enum kabi_print_level level, const char *fmt, va_list ap);

/* The commands: each gets its own argv (argv[0] is the command name). */
int do_bisect(int argc, char **argv);
int do_check(int argc, char **argv);
int do_collect(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_docs(int argc, char **argv);
int do_docs_diff(int argc, char **argv);
int do_docs_search(int argc, char **argv);
int do_docs_validate(int argc, char **argv);
int do_show(int argc, char **argv);
int do_undocumented(int argc, char **argv);
int do_waivers(int argc, char **argv);

#endif /* KABIDIFF_CLI_H */
