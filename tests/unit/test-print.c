// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for print.c: kabi_pr() leaves errno as it found it, whatever
 * the callback does, so "pr_err(...); return -errno;" returns the error
 * that was reported; a thread that holds its messages back passes them on
 * later, in order; a line goes out in one write, so that two processes
 * sharing stderr do not interleave theirs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/print.h"

static int calls;

/* A callback that sets errno as a failing stdio call would. */
static void clobber(enum kabi_print_level level, const char *fmt, va_list ap)
{
	calls++;
	errno = EIO;
}

/* A callback whose stdio really fails: writing to a read-only stream. */
static void write_read_only(enum kabi_print_level level, const char *fmt,
			    va_list ap)
{
	FILE *f = fopen("/dev/null", "r");

	calls++;
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_true(vfprintf(f, fmt, ap) < 0);
	fclose(f);
}

/* The pattern the library uses: report, then return -errno. */
static int fail_with(int err)
{
	errno = err;
	pr_err("something: %s", strerror(errno));
	return -errno;
}

static void test_callback_clobbers_errno(void **state)
{
	kabi_print_fn_t old = kabi_set_print(clobber);

	calls = 0;
	errno = ENOENT;
	pr_err("x");
	assert_int_equal(errno, ENOENT);
	pr_warn("x");
	pr_info("x");
	pr_debug("x");
	assert_int_equal(errno, ENOENT);
	assert_int_equal(calls, 4);
	assert_int_equal(fail_with(EACCES), -EACCES);
	kabi_set_print(old);
}

static void test_callback_stdio_fails(void **state)
{
	kabi_print_fn_t old = kabi_set_print(write_read_only);

	calls = 0;
	assert_int_equal(fail_with(ENOSPC), -ENOSPC);
	assert_int_equal(calls, 1);
	kabi_set_print(old);
}

/* The default callback writing to a closed stderr sets EBADF inside. */
static void test_default_to_closed_stderr(void **state)
{
	int saved = dup(STDERR_FILENO), after, ret;

	assert_true(saved >= 0);
	fflush(stderr);
	close(STDERR_FILENO);
	errno = ENOTDIR;
	pr_err("to a closed stderr");
	pr_warn("to a closed stderr");
	after = errno;
	ret = fail_with(EROFS);
	/* stderr back before asserting: cmocka reports failures there */
	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
	clearerr(stderr);
	assert_int_equal(after, ENOTDIR);
	assert_int_equal(ret, -EROFS);
}

/* No callback: nothing is called, errno is left alone. */
static void test_silenced(void **state)
{
	kabi_print_fn_t old = kabi_set_print(NULL);

	errno = EPERM;
	pr_err("x");
	assert_int_equal(errno, EPERM);
	kabi_set_print(old);
}

/* The lines a callback got, as "LEVEL:message". */
static char got[8][64];

static void record(enum kabi_print_level level, const char *fmt, va_list ap)
{
	assert_true(calls < 8);
	snprintf(got[calls], sizeof(got[calls]), "%d:", level);
	vsnprintf(got[calls] + 2, sizeof(got[calls]) - 2, fmt, ap);
	calls++;
}

static void *report_held(void *arg)
{
	kabi_print_hold(arg);
	errno = EROFS;
	pr_warn("held %d", 1);
	pr_err("held %s", "two");
	assert_int_equal(errno, EROFS);
	kabi_print_hold(NULL);
	return NULL;
}

/* The holding thread calls no callback; the replay does, in order. */
static void test_hold_and_replay(void **state)
{
	kabi_print_fn_t old = kabi_set_print(record);
	struct kabi_held_lines h = { 0 };
	pthread_t t;

	calls = 0;
	assert_int_equal(pthread_create(&t, NULL, report_held, &h), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	pr_info("first");
	assert_int_equal(calls, 1);
	assert_int_equal(h.nr, 2);
	kabi_print_replay(&h);
	assert_int_equal(calls, 3);
	assert_string_equal(got[0], "2:first");
	assert_string_equal(got[1], "1:held 1");
	assert_string_equal(got[2], "0:held two");
	assert_null(h.v);
	assert_int_equal(h.nr, 0);
	kabi_set_print(old);
}

/* Dropped lines are never printed. */
static void test_hold_and_drop(void **state)
{
	kabi_print_fn_t old = kabi_set_print(record);
	struct kabi_held_lines h = { 0 };

	calls = 0;
	kabi_print_hold(&h);
	pr_err("never shown");
	kabi_print_hold(NULL);
	kabi_held_lines__release(&h);
	assert_int_equal(calls, 0);
	pr_err("shown");
	assert_int_equal(calls, 1);
	kabi_set_print(old);
}

/* Under kabi_print_upto(KABI_ERROR) only errors reach the callback. */
static void test_upto_passes_errors_only(void **state)
{
	kabi_print_fn_t old = kabi_set_print(record);
	enum kabi_print_level was;

	calls = 0;
	was = kabi_print_upto(KABI_ERROR);
	assert_int_equal(was, KABI_DEBUG);
	pr_warn("muted");
	pr_info("muted too");
	pr_err("passed");
	assert_int_equal(kabi_print_upto(was), KABI_ERROR);
	pr_warn("passed again");
	assert_int_equal(calls, 2);
	assert_string_equal(got[0], "0:passed");
	assert_string_equal(got[1], "1:passed again");
	kabi_set_print(old);
}

/*
 * On a SOCK_SEQPACKET socket every write() is one record: the first
 * record must be the whole line, escapes and all.
 */
static void test_line_in_one_write(void **state)
{
	static const char want[] = "kabidiff: /x/zz.deb\\x01: not a package\n";
	char record[256];
	ssize_t n;
	int sv[2];
	FILE *f;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	f = fdopen(sv[0], "w");
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	kabi_print_line(f, "kabidiff: ", "%s: not a package", "/x/zz.deb\001");
	fclose(f);
	n = recv(sv[1], record, sizeof(record) - 1, 0);
	close(sv[1]);
	assert_true(n >= 0);
	record[n] = '\0';
	assert_string_equal(record, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callback_clobbers_errno),
		cmocka_unit_test(test_callback_stdio_fails),
		cmocka_unit_test(test_default_to_closed_stderr),
		cmocka_unit_test(test_silenced),
		cmocka_unit_test(test_hold_and_replay),
		cmocka_unit_test(test_hold_and_drop),
		cmocka_unit_test(test_upto_passes_errors_only),
		cmocka_unit_test(test_line_in_one_write),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
