/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kabidiff program: shared by main.c and the commands (cmd-*.c).  Only
 * this layer calls collectors and the engine together and prints.
 */
#ifndef KABIDIFF_CLI_H
#define KABIDIFF_CLI_H

#include <stdbool.h>

#include "compiler.h"
#include "model.h"
#include "print.h"

/* Exit statuses, the same for every command (see kabidiff(1)). */
enum {
	EXIT_OK		= 0,
	EXIT_BREAK	= 1,	/* the answer is "no": an ABI break, ... */
	EXIT_TROUBLE	= 2,	/* bad usage, unreadable input, ... */
};

/* Set by the global --json and by each command's own --json. */
extern bool json_output;

/* usage_hint() - point at --help for @cmd (NULL: the program); EXIT_TROUBLE. */
int usage_hint(const char *cmd);

/*
 * usage_error() - report a usage error for command @cmd (NULL for the
 * program itself) with a hint at --help; returns EXIT_TROUBLE.
 */
int __printf(2, 3) usage_error(const char *cmd, const char *fmt, ...);

/*
 * print_errors_only() - a kabi_set_print() callback for commands whose
 * output warnings would only clutter: errors to stderr, nothing else.
 */
void print_errors_only(enum kabi_print_level level, const char *fmt,
		       va_list ap);

/*
 * collect_build() - a snapshot of the kernel build in @build_dir (the O=
 * directory), collected as 'kabidiff collect BUILD_DIR' does; NULL when
 * that failed (reported) or out of memory.
 */
struct snapshot *collect_build(const char *build_dir);

/* The commands: each gets its own argv (argv[0] is the command name). */
int do_collect(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_docs(int argc, char **argv);
int do_show(int argc, char **argv);
int do_undocumented(int argc, char **argv);

#endif /* KABIDIFF_CLI_H */
