/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Diagnostics for library code.
 *
 * Library functions never print and never exit: they report through
 * kabi_pr(), which forwards to a callback the program installs with
 * kabi_set_print() (libbpf's libbpf_set_print() is the model).  Each message
 * is one complete line without the trailing newline.
 */
#ifndef KABIDIFF_PRINT_H
#define KABIDIFF_PRINT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "compiler.h"

enum kabi_print_level {
	KABI_ERROR,
	KABI_WARN,
	KABI_INFO,
	KABI_DEBUG,
};

typedef void (*kabi_print_fn_t)(enum kabi_print_level level,
				const char *fmt, va_list ap);

/*
 * kabi_set_print() - install @fn as the diagnostics callback.
 *
 * Returns the previous callback.  A NULL @fn silences all diagnostics.  The
 * default callback writes errors and warnings to stderr, and progress
 * (KABI_INFO) too when stderr is a terminal or KABIDIFF_VERBOSE is set.
 */
kabi_print_fn_t kabi_set_print(kabi_print_fn_t fn);

/*
 * kabi_print_as_json() - say whether the installed callback prints each
 * diagnostic as one JSON object a line on standard error (@on), as a
 * program's does when its output is JSON (--json, --format json), so that
 * whoever reads the output can read its errors.  kabi_print_is_json()
 * tells it to what else writes there: a progress meter keeps off JSON.
 */
void kabi_print_as_json(bool on);
bool kabi_print_is_json(void);

/*
 * kabi_print_upto() - from now on pass on only diagnostics of @level or a
 * more urgent one (KABI_DEBUG, the default: all), to mute the warnings of
 * a step that are another command's product.  Returns the level it
 * replaces, for the caller to put back.
 */
enum kabi_print_level kabi_print_upto(enum kabi_print_level level);

/*
 * kabi_print_wants_info() - whether progress (KABI_INFO) is for someone to
 * read: standard error is a terminal, or KABIDIFF_VERBOSE is set and not
 * "0".  The default callback prints it then, and so should a program's.
 */
bool kabi_print_wants_info(void);

/*
 * kabi_pr() - report one diagnostic line through the installed callback.
 *
 * errno is left as it was, whatever the callback does, so a caller may
 * report a failure and then return -errno:
 *
 *	pr_err("%s: %s", path, strerror(errno));
 *	return -errno;
 */
void __printf(2, 3) kabi_pr(enum kabi_print_level level, const char *fmt, ...);

/*
 * kabi_vprint_line() - write @prefix and the message to @f as one line.
 *
 * The message may show any input (a path, a value, a What: line): its
 * control bytes, DEL and bytes that are not UTF-8 are escaped as
 * fputs_escaped() does, so that it stays one line and cannot drive the
 * terminal.  Every print callback and every message printed outside
 * kabi_pr() goes through here.
 */
void kabi_vprint_line(FILE *f, const char *prefix, const char *fmt,
		      va_list ap) __printf(3, 0);
void kabi_print_line(FILE *f, const char *prefix, const char *fmt, ...)
	__printf(3, 4);

/* One thread's diagnostics, kept back: see kabi_print_hold(). */
struct kabi_held_line {
	enum kabi_print_level level;
	char *msg;
};

struct kabi_held_lines {
	struct kabi_held_line *v;
	size_t nr;
	size_t alloc;
	size_t lost;		/* not kept: out of memory */
};

/*
 * kabi_print_hold() - keep the calling thread's diagnostics in @h instead
 * of passing them to the callback, until kabi_print_hold(NULL).
 *
 * For work run in a thread beside another: its messages are passed on
 * later, with kabi_print_replay(), so that two threads' lines do not mix
 * and come in the order a single thread would print them.  The callback
 * is never called from a thread that holds.  @h starts zeroed.
 */
void kabi_print_hold(struct kabi_held_lines *h);

/*
 * kabi_print_replay() - pass the lines of @h to the callback, in the order
 * they were reported (and say how many were lost), then release @h.
 */
void kabi_print_replay(struct kabi_held_lines *h);

/* kabi_held_lines__release() - drop the lines of @h unprinted. */
void kabi_held_lines__release(struct kabi_held_lines *h);

#define pr_err(fmt, ...)	kabi_pr(KABI_ERROR, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	kabi_pr(KABI_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	kabi_pr(KABI_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	kabi_pr(KABI_DEBUG, fmt, ##__VA_ARGS__)

#endif /* KABIDIFF_PRINT_H */
