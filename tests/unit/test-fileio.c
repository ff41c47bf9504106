// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for fileio.c: read_file() returns -errno and reports nothing;
 * read_file_or_report() reports one "PATH: reason" line; neither reads past
 * its limit.  And for
 * atomic-file.c: a stream left in error is a failed write, whatever errno
 * says by then; a file keeps its mode; a name too long for ".NAME.XXXXXX"
 * still works; a signal during the write removes the temporary file and
 * kills the process as it would have, unless the program handles it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/atomic-file.h"
#include "lib/fileio.h"
#include "lib/print.h"

static char tmpdir[] = "/tmp/kabidiff-test-fileio.XXXXXX";
static char last_message[1024];
static int messages;

static void capture(enum kabi_print_level level, const char *fmt, va_list ap)
{
	messages++;
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
}

static const char *tmp_path(const char *name)
{
	static char path[sizeof(tmpdir) + NAME_MAX + 1];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static void write_tmp(const char *name, const char *data, size_t len)
{
	FILE *f = fopen(tmp_path(name), "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* read_file() of @path with limit @max, checking that it reports nothing */
static int read_silently_max(const char *path, size_t max, char **buf,
			     size_t *len)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	int err;

	messages = 0;
	err = read_file(path, max, buf, len);
	kabi_set_print(old);
	assert_int_equal(messages, 0);
	return err;
}

static int read_silently(const char *path, char **buf, size_t *len)
{
	return read_silently_max(path, SMALL_FILE_MAX, buf, len);
}

static void test_read_file_reads(void **state)
{
	static const char data[] = "line one\nline\0two\n";
	char *buf = NULL;
	size_t len = 0;

	write_tmp("data", data, sizeof(data) - 1);
	assert_int_equal(read_silently(tmp_path("data"), &buf, &len), 0);
	assert_int_equal(len, sizeof(data) - 1);
	assert_memory_equal(buf, data, sizeof(data));	/* and the NUL */
	free(buf);

	write_tmp("empty", "", 0);
	buf = NULL;
	assert_int_equal(read_silently(tmp_path("empty"), &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	free(buf);
	unlink(tmp_path("data"));
	unlink(tmp_path("empty"));
}

/* A file over the first 64 KiB buffer grows it. */
static void test_read_file_large(void **state)
{
	size_t size = 3 * 65536 + 17, len = 0, i;
	char *data = malloc(size), *buf = NULL;

	assert_non_null(data);
	for (i = 0; i < size; i++)
		data[i] = 'a' + i % 26;
	write_tmp("large", data, size);
	assert_int_equal(read_silently(tmp_path("large"), &buf, &len), 0);
	assert_int_equal(len, size);
	assert_memory_equal(buf, data, size);
	assert_int_equal(buf[size], '\0');
	free(buf);
	free(data);
	unlink(tmp_path("large"));
}

/* Failures come back as -errno, with nothing reported. */
static void test_read_file_fails_silently(void **state)
{
	char *buf = NULL;
	size_t len;

	assert_int_equal(read_silently(tmp_path("none"), &buf, &len), -ENOENT);
	assert_int_equal(read_silently(tmpdir, &buf, &len), -EISDIR);
	assert_int_equal(read_silently(tmp_path("none/x"), &buf, &len), -ENOENT);
	assert_null(buf);
}

/*
 * Nothing reads past its limit: a file of @max bytes is read, one byte more
 * is -EFBIG, whether fstat() knows the size (a regular file) or not (a
 * pipe); read_file_or_report() names the limit.
 */
static void test_read_file_limit(void **state)
{
	size_t max = 100000, len;
	char *data = calloc(1, max + 1), *buf = NULL;
	char expected[1200];
	kabi_print_fn_t old;
	int fds[2];

	assert_non_null(data);
	write_tmp("max", data, max);
	assert_int_equal(read_silently_max(tmp_path("max"), max, &buf, &len), 0);
	assert_int_equal(len, max);
	free(buf);
	buf = NULL;
	write_tmp("over", data, max + 1);
	assert_int_equal(read_silently_max(tmp_path("over"), max, &buf, &len),
			 -EFBIG);

	/* a pipe of more than @max bytes, the size unknown to fstat() */
	assert_int_equal(pipe(fds), 0);
	if (fork() == 0) {
		close(fds[0]);
		while (write(fds[1], data, max + 1) > 0)
			;
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read_fd(fds[0], max, 0, &buf, &len), -EFBIG);
	close(fds[0]);
	wait(NULL);
	assert_null(buf);

	old = kabi_set_print(capture);
	messages = 0;
	assert_int_equal(read_file_or_report(tmp_path("over"), (size_t)1 << 20,
					     &buf, &len), 0);
	free(buf);
	buf = NULL;
	assert_int_equal(truncate(tmp_path("over"), ((off_t)1 << 20) + 1), 0);
	assert_int_equal(read_file_or_report(tmp_path("over"), (size_t)1 << 20,
					     &buf, &len), -EFBIG);
	kabi_set_print(old);
	snprintf(expected, sizeof(expected),
		 "%s: larger than 1 MiB, the most kabidiff reads of such a file",
		 tmp_path("over"));
	assert_int_equal(messages, 1);
	assert_string_equal(last_message, expected);
	assert_null(buf);
	free(data);
	unlink(tmp_path("max"));
	unlink(tmp_path("over"));
}

/* read_file_or_report(): the line read_file() printed before, once. */
static void expect_report(const char *path, int err, const char *reason)
{
	kabi_print_fn_t old = kabi_set_print(capture);
	char expected[1200];
	char *buf = NULL;
	size_t len;

	messages = 0;
	assert_int_equal(read_file_or_report(path, SMALL_FILE_MAX, &buf, &len), err);
	kabi_set_print(old);
	snprintf(expected, sizeof(expected), "%s: %s", path, reason);
	assert_int_equal(messages, 1);
	assert_string_equal(last_message, expected);
	assert_null(buf);
}

/*
 * Only regular files are read: a FIFO without a writer (which a plain
 * open() would wait for) and a character device are refused at once.
 */
static void test_read_file_not_regular(void **state)
{
	char *buf = NULL;
	size_t len;

	assert_int_equal(mkfifo(tmp_path("fifo"), 0600), 0);
	assert_int_equal(read_silently(tmp_path("fifo"), &buf, &len), -EINVAL);
	unlink(tmp_path("fifo"));
	assert_int_equal(read_silently("/dev/zero", &buf, &len), -EINVAL);
	assert_null(buf);
	expect_report("/dev/zero", -EINVAL,
		      "not a regular file (a FIFO, a device, a socket): not read");
}

static void test_read_file_or_report(void **state)
{
	kabi_print_fn_t old;
	char *buf = NULL;
	size_t len;

	expect_report(tmp_path("none"), -ENOENT, "No such file or directory");
	expect_report(tmpdir, -EISDIR, "Is a directory");

	write_tmp("ok", "ok\n", 3);
	old = kabi_set_print(capture);
	messages = 0;
	assert_int_equal(read_file_or_report(tmp_path("ok"), SMALL_FILE_MAX, &buf,
					     &len), 0);
	kabi_set_print(old);
	assert_int_equal(messages, 0);
	assert_string_equal(buf, "ok\n");
	free(buf);
	unlink(tmp_path("ok"));
}

/* Leave @f in error as a failed write would, then lose errno. */
static int fail_quietly(FILE *f, void *ctx)
{
	fputs("partial", f);
	assert_int_equal(fgetc(f), EOF);	/* "w": EBADF, and the error flag */
	assert_true(ferror(f));
	errno = 0;
	return 0;
}

static int write_ok(FILE *f, void *ctx)
{
	return fputs("new\n", f) < 0 ? -EIO : 0;
}

static unsigned int dir_entries(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	unsigned int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_atomic_write_stream_error(void **state)
{
	kabi_print_fn_t old;
	char expected[1200];
	char *buf = NULL;
	size_t len;

	write_tmp("target", "old\n", 4);
	old = kabi_set_print(capture);
	messages = 0;
	assert_int_equal(atomic_write(tmp_path("target"), 0, fail_quietly, NULL),
			 -EIO);
	kabi_set_print(old);
	snprintf(expected, sizeof(expected), "%s: write failed: %s",
		 tmp_path("target"), strerror(EIO));
	assert_int_equal(messages, 1);
	assert_string_equal(last_message, expected);
	/* the old file is left as it was, and no temporary file */
	assert_int_equal(read_file(tmp_path("target"), SMALL_FILE_MAX, &buf,
				   &len), 0);
	assert_string_equal(buf, "old\n");
	free(buf);
	assert_int_equal(dir_entries(), 1);

	assert_int_equal(atomic_write(tmp_path("target"), 0, write_ok, NULL), 0);
	assert_int_equal(read_file(tmp_path("target"), SMALL_FILE_MAX, &buf,
				   &len), 0);
	assert_string_equal(buf, "new\n");
	free(buf);
	assert_int_equal(dir_entries(), 1);
	unlink(tmp_path("target"));
}

static void test_atomic_write_keeps_mode(void **state)
{
	struct stat st;

	write_tmp("target", "old\n", 4);
	assert_int_equal(chmod(tmp_path("target"), 0600), 0);
	assert_int_equal(atomic_write(tmp_path("target"), 0, write_ok, NULL), 0);
	assert_int_equal(stat(tmp_path("target"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(dir_entries(), 1);
	unlink(tmp_path("target"));
}

/* a cache file: a planted link is replaced, its target left alone */
static void test_atomic_write_own_file(void **state)
{
	char *buf = NULL, path[PATH_MAX];
	struct stat st;
	size_t len;

	write_tmp("victim", "old\n", 4);
	snprintf(path, sizeof(path), "%s", tmp_path("victim"));
	assert_int_equal(symlink(path, tmp_path("entry")), 0);
	assert_int_equal(atomic_write(tmp_path("entry"), ATOMIC_OWN_FILE,
				      write_ok, NULL), 0);
	assert_int_equal(lstat(tmp_path("entry"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(read_file(tmp_path("victim"), SMALL_FILE_MAX, &buf,
				   &len), 0);
	assert_string_equal(buf, "old\n");
	free(buf);
	assert_int_equal(dir_entries(), 2);
	unlink(tmp_path("entry"));
	unlink(tmp_path("victim"));
}

static void test_atomic_write_long_name(void **state)
{
	char name[NAME_MAX + 1];
	size_t len;

	/* NAME_MAX - 8 and more leave no room for ".NAME.XXXXXX" */
	for (len = NAME_MAX - 8; len <= NAME_MAX; len++) {
		memset(name, 'n', len);
		name[len] = '\0';
		assert_int_equal(atomic_write(tmp_path(name), 0, write_ok, NULL), 0);
		assert_int_equal(dir_entries(), 1);
		assert_int_equal(unlink(tmp_path(name)), 0);
	}
}

static int write_then_signal(FILE *f, void *ctx)
{
	fputs("partial", f);
	fflush(f);
	raise(*(int *)ctx);
	return fputs("rest\n", f) < 0 ? -EIO : 0;
}

static void test_atomic_write_signal(void **state)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int sig = sigs[i], status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			signal(sig, SIG_DFL);
			atomic_write(tmp_path("target"), 0, write_then_signal, &sig);
			_exit(0);	/* the signal did not kill us */
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sig);
		/* no temporary file, and no target */
		assert_int_equal(dir_entries(), 0);
	}
}

/*
 * Two files under way at once (a report on -o, a cache entry written
 * meanwhile): each becomes its file, and a signal removes both
 * temporary files.
 */
static void test_atomic_two_at_once(void **state)
{
	struct atomic_file *report, *entry;
	int fd1, fd2, status, sig = SIGTERM;
	pid_t pid;

	fd1 = atomic_open(tmp_path("report"), 0, &report);
	assert_true(fd1 >= 0);
	fd2 = atomic_open(tmp_path("entry"), ATOMIC_OWN_FILE, &entry);
	assert_true(fd2 >= 0);
	assert_int_equal(write(fd2, "e\n", 2), 2);
	assert_int_equal(atomic_commit(entry, fd2), 0);
	close(fd2);
	assert_int_equal(write(fd1, "r\n", 2), 2);
	assert_int_equal(atomic_commit(report, fd1), 0);
	close(fd1);
	assert_int_equal(dir_entries(), 2);
	unlink(tmp_path("report"));
	unlink(tmp_path("entry"));

	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		signal(sig, SIG_DFL);
		if (atomic_open(tmp_path("report"), 0, &report) < 0)
			_exit(1);
		atomic_write(tmp_path("entry"), ATOMIC_OWN_FILE,
			     write_then_signal, &sig);
		_exit(0);	/* the signal did not kill us */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(dir_entries(), 0);
}

static volatile sig_atomic_t caught;

static void catch(int sig)
{
	caught = sig;
}

/* A program that handles the signal itself (bisect) gets it. */
static void test_atomic_write_signal_handled(void **state)
{
	struct sigaction sa = { .sa_handler = catch }, old;
	int sig = SIGTERM;
	char *buf = NULL;
	size_t len;

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &sa, &old), 0);
	caught = 0;
	assert_int_equal(atomic_write(tmp_path("target"), 0, write_then_signal,
				      &sig), 0);
	assert_int_equal(caught, SIGTERM);
	assert_int_equal(read_file(tmp_path("target"), SMALL_FILE_MAX, &buf,
				   &len), 0);
	assert_string_equal(buf, "partialrest\n");
	free(buf);
	assert_int_equal(dir_entries(), 1);
	unlink(tmp_path("target"));
	/* and its handler is still there */
	assert_int_equal(sigaction(SIGTERM, &old, &sa), 0);
	assert_ptr_equal(sa.sa_handler, catch);
}

static int set_up(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int tear_down(void **state)
{
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_file_reads),
		cmocka_unit_test(test_read_file_large),
		cmocka_unit_test(test_read_file_fails_silently),
		cmocka_unit_test(test_read_file_limit),
		cmocka_unit_test(test_read_file_not_regular),
		cmocka_unit_test(test_read_file_or_report),
		cmocka_unit_test(test_atomic_write_stream_error),
		cmocka_unit_test(test_atomic_write_keeps_mode),
		cmocka_unit_test(test_atomic_write_own_file),
		cmocka_unit_test(test_atomic_write_long_name),
		cmocka_unit_test(test_atomic_write_signal),
		cmocka_unit_test(test_atomic_write_signal_handled),
		cmocka_unit_test(test_atomic_two_at_once),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, set_up, tear_down);
}
