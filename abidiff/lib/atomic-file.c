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

/*
 * Flush @f (to disk when @sync) and close it; 0 or -errno, reported
 * against @path.
 */
static int flush_and_close(FILE *f, const char *path, bool sync)
{
	int err = 0;

	/*
	 * A write that failed before this flush left @f in error, and errno
	 * as it set it unless something changed it since: never take a 0
	 * from there for success.
	 */
	if (fflush(f))
		err = -errno;
	else if (ferror(f))
		err = errno ? -errno : -EIO;
	else if (sync && fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		pr_err("%s: write failed: %s", path, strerror(-err));
	return err;
}

/*
 * @path is a device, a FIFO, a socket: there is nothing to replace, write
 * to it as a plain open would.  Its errors (ENOSPC from /dev/full) are ours
 * to report.
 */
static int write_through(const char *path,
			 int (*write_fn)(FILE *f, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	err = write_fn(f, ctx);
	if (err) {
		fclose(f);
		return err;
	}
	return flush_and_close(f, path, false);
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

/* Replace the regular file (or no file) @path with a renamed temporary. */
static int write_replace(const char *path, const struct stat *old,
			 int (*write_fn)(FILE *f, void *ctx), void *ctx)
{
	sigset_t mask;
	FILE *f;
	int fd, err;

	err = temp_name_for(path);
	if (err) {
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	install_handlers();
	block_signals(&mask);
	fd = mkstemp(temp_path);
	if (fd >= 0)
		temp_armed = 1;
	else
		err = -errno;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (fd < 0) {
		pr_err("%s: cannot create a file in its directory: %s", path,
		       strerror(-err));
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f || copy_attributes(fd, old)) {
		err = -errno;
		pr_err("%s: %s", temp_path, strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		goto out_unlink;
	}
	err = write_fn(f, ctx);
	if (err) {
		fclose(f);
		goto out_unlink;
	}
	err = flush_and_close(f, path, true);
	if (err)
		goto out_unlink;
	block_signals(&mask);
	if (rename(temp_path, path)) {
		err = -errno;
		pr_err("%s: cannot rename %s into place: %s", path, temp_path,
		       strerror(errno));
		unlink(temp_path);
	}
	temp_armed = 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	goto out;

out_unlink:
	block_signals(&mask);
	unlink(temp_path);
	temp_armed = 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
out:
	restore_handlers();
	return err;
}

int atomic_write(const char *path, int (*write_fn)(FILE *f, void *ctx),
		 void *ctx)
{
	struct stat st, real_st;
	bool exists;
	char *real;
	int err;

	if (!strcmp(path, "-"))
		return write_through("/dev/stdout", write_fn, ctx);
	exists = !stat(path, &st);
	if (!exists && errno != ENOENT) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	if (exists && !S_ISREG(st.st_mode))
		return write_through(path, write_fn, ctx);

	/* a symbolic link stays one: its target is the file to replace */
	real = resolve_links(path);
	if (!real) {
		err = -errno;
		pr_err("%s: %s", path, strerror(errno));
		return err;
	}
	if (!exists)
		err = write_replace(real, NULL, write_fn, ctx);
	else if (stat(real, &real_st) || real_st.st_dev != st.st_dev ||
		 real_st.st_ino != st.st_ino)
		/* a link that names no path (/proc/self/fd/N): write to it */
		err = write_through(path, write_fn, ctx);
	else
		err = write_replace(real, &st, write_fn, ctx);
	free(real);
	return err;
}
