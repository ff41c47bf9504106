// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "print.h"

static void default_print(enum kabi_print_level level, const char *fmt,
			  va_list ap)
{
	if (level > KABI_WARN)
		return;
	fputs(level == KABI_ERROR ? "kabidiff: " : "kabidiff: warning: ",
	      stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static kabi_print_fn_t print_fn = default_print;

kabi_print_fn_t kabi_set_print(kabi_print_fn_t fn)
{
	kabi_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void kabi_pr(enum kabi_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}
