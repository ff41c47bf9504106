// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "compiler.h"
#include "print.h"

#define TEMP_SUFFIX	".XXXXXX"
#define SHORT_TEMP	".kabidiff" TEMP_SUFFIX

/*
 * The temporary file that exists right now, for the signal handler to
 * remove: a static buffer, since the handler may not call malloc() or
 * follow pointers that are being freed.  temp_armed is set, with the
 * signals blocked, only while temp_path names a file that we created.
 */
static char temp_path[PATH_MAX];
static volatile sig_atomic_t temp_armed;

/*
 * The file being written: the path as the caller named it, for messages,
 * and the file the temporary one becomes (NULL when written in place).
 */
static char *shown_path, *final_path;

static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGTERM };
static struct sigaction old_actions[ARRAY_SIZE(cleanup_signals)];
static bool installed[ARRAY_SIZE(cleanup_signals)];

/*
 * Remove the temporary file and die of @sig as we would have without this
 * handler: the default action back, the signal raised again (it stays
 * pending while the handler runs, and kills us when it returns).  Only
 * async-signal-safe calls here.
 */
static void remove_temp_on_signal(int sig)
{
	int saved_errno = errno;

	if (temp_armed) {
		unlink(temp_path);
		temp_armed = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved_errno;
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(cleanup_signals); i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Catch the signals that kill us by default: one the program ignores, or
 * handles itself (bisect stops its work on SIGINT and SIGTERM and cleans up
 * on its way out), is left to it.
 */
static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = remove_temp_on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(cleanup_signals); i++) {
		installed[i] = false;
		if (sigaction(cleanup_signals[i], NULL, &old_actions[i]) ||
		    old_actions[i].sa_handler != SIG_DFL)
			continue;
		installed[i] = !sigaction(cleanup_signals[i], &sa, NULL);
	}
}

static void restore_handlers(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cleanup_signals); i++)
		if (installed[i])
			sigaction(cleanup_signals[i], &old_actions[i], NULL);
}

/*
 * Fill temp_path with a mkstemp() template for @path: "dir/.name.XXXXXX", a
 * hidden sibling, or "dir/.kabidiff.XXXXXX" when the name is too long for
 * that to fit in NAME_MAX.  0 or -ENAMETOOLONG.
 */
static int temp_name_for(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? slash - path + 1 : 0;
	const char *base = path + dirlen;
	int n;

	if (1 + strlen(base) + strlen(TEMP_SUFFIX) <= NAME_MAX)
		n = snprintf(temp_path, sizeof(temp_path), "%.*s.%s" TEMP_SUFFIX,
			     (int)dirlen, path, base);
	else
		n = snprintf(temp_path, sizeof(temp_path), "%.*s" SHORT_TEMP,
			     (int)dirlen, path);
	return n < 0 || (size_t)n >= sizeof(temp_path) ? -ENAMETOOLONG : 0;
}

/*
 * Follow @path while it is a symbolic link, as open() would, to the name
 * of the file itself (which need not exist: a dangling link names the file
 * to create).  Returns a malloc()ed path, NULL with errno set.
 */
static char *resolve_links(const char *path)
{
	char *cur = strdup(path);
	int depth;

	for (depth = 0; cur; depth++) {
		char target[PATH_MAX], *next;
		const char *slash;
		struct stat st;
		ssize_t len;
		int dirlen;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;	/* absent, or not a link: the file */
		if (depth == 40) {
			errno = ELOOP;
			break;
		}
		len = readlink(cur, target, sizeof(target) - 1);
		if (len < 0)
			break;
		target[len] = '\0';
		slash = strrchr(cur, '/');
		dirlen = target[0] != '/' && slash ? slash - cur + 1 : 0;
		next = malloc(dirlen + len + 1);
		if (!next)
			break;
		snprintf(next, dirlen + len + 1, "%.*s%s", dirlen, cur, target);
		free(cur);
		cur = next;
	}
	free(cur);
	return NULL;
}

static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* Report @err (a positive errno) against @path; returns -@err. */
static int report(const char *path, int err)
{
	pr_err("%s: %s", path, strerror(err));
	return -err;
}

/*
 * Give the temporary file @fd what @path has: its mode, and its owner when
 * we may (root, or a group we are in); a new file gets the mode a plain
 * create would.  The owner first: chown() clears the set-id bits.
 */
static int copy_attributes(int fd, const struct stat *st)
{
	if (!st)
		return fchmod(fd, creation_mode());
	if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) && errno != EPERM)
		return -1;
	return fchmod(fd, st->st_mode & 07777);
}

/* Remove the temporary file, if there is one, with the signals held. */
static void remove_temp(void)
{
	sigset_t mask;

	block_signals(&mask);
	if (temp_armed)
		unlink(temp_path);
	temp_armed = 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
}

/* Forget the file being written; the handlers are no longer needed. */
static void end_file(void)
{
	remove_temp();
	restore_handlers();
	free(shown_path);
	free(final_path);
	shown_path = final_path = NULL;
}

/*
 * Create the temporary file that will become @real (the regular file, or
 * no file, that @path names), with the attributes of @old.
 */
static int open_temp(const char *path, char *real, const struct stat *old)
{
	sigset_t mask;
	int fd, err;

	err = temp_name_for(real);
	if (err) {
		free(real);
		return report(path, -err);
	}
	shown_path = strdup(path);
	final_path = real;
	if (!shown_path) {
		end_file();
		return report(path, ENOMEM);
	}
	install_handlers();
	block_signals(&mask);
	fd = mkostemp(temp_path, O_CLOEXEC);
	if (fd >= 0)
		temp_armed = 1;
	else
		err = -errno;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (fd < 0) {
		pr_err("%s: cannot create a file in its directory: %s", path,
		       strerror(-err));
		end_file();
		return err;
	}
	if (copy_attributes(fd, old)) {
		err = report(temp_path, errno);
		close(fd);
		end_file();
		return err;
	}
	return fd;
}

/*
 * @path is a device, a FIFO, a socket: there is nothing to replace, write
 * to it as a plain open would.
 */
static int open_in_place(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	return fd < 0 ? report(path, errno) : fd;
}

/* One of our own files: @path itself is replaced, whatever it is. */
static int open_own_file(const char *path)
{
	struct stat st;
	char *real = strdup(path);

	if (!real)
		return report(path, ENOMEM);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		return open_temp(path, real, &st);
	return open_temp(path, real, NULL);
}

/* A file the user named: see atomic-file.h for what is replaced. */
static int open_user_file(const char *path)
{
	struct stat st, real_st;
	bool exists;
	char *real;

	exists = !stat(path, &st);
	if (!exists && errno != ENOENT)
		return report(path, errno);
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(path);
	/* a symbolic link stays one: its target is the file to replace */
	real = resolve_links(path);
	if (!real)
		return report(path, errno);
	if (!exists)
		return open_temp(path, real, NULL);
	if (stat(real, &real_st) || real_st.st_dev != st.st_dev ||
	    real_st.st_ino != st.st_ino) {
		/* a link that names no path (/proc/self/fd/N): write to it */
		free(real);
		return open_in_place(path);
	}
	return open_temp(path, real, &st);
}

int atomic_open(const char *path, unsigned int flags)
{
	size_t len = strlen(path);
	int fd;

	if (final_path)
		return report(path, EBUSY);
	if (!strcmp(path, "-")) {
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? report("standard output", errno) : fd;
	}
	if (!len)
		return report("''", ENOENT);
	if (path[len - 1] == '/')
		return report(path, EISDIR);
	return flags & ATOMIC_OWN_FILE ? open_own_file(path) :
					 open_user_file(path);
}

int atomic_commit(int fd)
{
	sigset_t mask;
	int err = 0;

	if (!final_path)
		return 0;	/* written in place */
	if (fsync(fd)) {
		err = -errno;
		pr_err("%s: write failed: %s", shown_path, strerror(errno));
		goto out;
	}
	block_signals(&mask);
	if (rename(temp_path, final_path)) {
		err = -errno;
		pr_err("%s: cannot rename %s into place: %s", shown_path,
		       temp_path, strerror(errno));
	} else {
		temp_armed = 0;
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
out:
	end_file();
	return err;
}

void atomic_abort(void)
{
	end_file();
}

/*
 * Flush @f and tell whether everything written to it arrived: 0 or -errno,
 * reported against @path.  A write that failed before this flush left @f
 * in error, and errno as it set it unless something changed it since:
 * never take a 0 from there for success.
 */
static int flush_stream(FILE *f, const char *path)
{
	int err = 0;

	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = errno ? -errno : -EIO;
	if (err)
		pr_err("%s: write failed: %s", path, strerror(-err));
	return err;
}

int atomic_write(const char *path, unsigned int flags,
		 int (*write_fn)(FILE *f, void *ctx), void *ctx)
{
	int fd = atomic_open(path, flags), err;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = report(path, errno);
		close(fd);
		atomic_abort();
		return err;
	}
	err = write_fn(f, ctx);
	if (!err)
		err = flush_stream(f, path);
	if (!err)
		err = atomic_commit(fd);
	else
		atomic_abort();
	if (fclose(f) && !err)
		err = report(path, errno);
	return err;
}
