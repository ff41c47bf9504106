/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kabidiff program, above the library: the command table and its
 * dispatch (commands.c), the exit statuses and usage errors every command
 * shares, and the commands themselves (abidiff/builtin/).  Only this layer
 * calls collectors and the engine together and prints.
 */
#ifndef KABIDIFF_CLI_H
#define KABIDIFF_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <time.h>

#include "lib/compiler.h"
#include "lib/print.h"

/* Exit statuses, the same for every command (see kabidiff(1)). */
enum {
	EXIT_OK		= 0,
	EXIT_BREAK	= 1,	/* the answer is "no": an ABI break, ... */
	EXIT_TROUBLE	= 2,	/* bad usage, unreadable input, ... */
};

/* Set by the global --json and by each command's own --json. */
extern bool json_output;

/*
 * print_messages_json() - print diagnostics from now on as one JSON object
 * a line on standard error, {"level":"error","message":"...","file":
 * "x.waivers","line":3} (@on), or as "kabidiff: ..." lines (!@on): JSON
 * when the command prints JSON (--json, --format json), so that whoever
 * reads its output can read its errors.  Usage errors too; the callbacks
 * below, usage_error() and every message printed by the CLI obey it.
 */
void print_messages_json(bool on);

/* messages_are_json() - whether diagnostics are printed as JSON now. */
bool messages_are_json(void);

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
 * lines or as JSON (print_messages_json()).
 */
void print_messages(enum kabi_print_level level, const char *fmt, va_list ap);

/*
 * print_errors_only() - a kabi_set_print() callback for commands whose
 * output warnings would only clutter: errors to stderr, nothing else.
 */
void print_errors_only(enum kabi_print_level level, const char *fmt,
		       va_list ap);

/* seconds_since() - the time since @start, a CLOCK_MONOTONIC reading. */
double seconds_since(const struct timespec *start);

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
