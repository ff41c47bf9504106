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
 * How many files may be under way at once: a command's -o, and a cache
 * entry written while it runs, with room to spare.
 */
#define MAX_OPEN_FILES	4

struct atomic_file {
	char *shown_path;	/* as the caller named it, for messages */
	char *final_path;	/* what the temporary file becomes; NULL: in place */
	int slot;		/* its temporary file's slot, -1 for none */
};

/*
 * The temporary files that exist right now, for the signal handler to
 * remove: static buffers, since the handler may not call malloc() or
 * follow pointers that are being freed.  temp_armed[i] is set, with the
 * signals blocked, only while temp_paths[i] names a file that process
 * temp_owner[i] created: a child forked meanwhile leaves it alone.
 */
static char temp_paths[MAX_OPEN_FILES][PATH_MAX];
static volatile sig_atomic_t temp_armed[MAX_OPEN_FILES];
static pid_t temp_owner[MAX_OPEN_FILES];
static bool slot_taken[MAX_OPEN_FILES];
static int nr_taken;

static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGTERM };
static struct sigaction old_actions[ARRAY_SIZE(cleanup_signals)];
static bool installed[ARRAY_SIZE(cleanup_signals)];

/*
 * Remove the temporary files and die of @sig as we would have without this
 * handler: the default action back, the signal raised again (it stays
 * pending while the handler runs, and kills us when it returns).  Only
 * async-signal-safe calls here.
 */
static void remove_temps_on_signal(int sig)
{
	pid_t self = getpid();
	int saved_errno = errno, i;

	for (i = 0; i < MAX_OPEN_FILES; i++) {
		if (temp_armed[i] && temp_owner[i] == self) {
			unlink(temp_paths[i]);
			temp_armed[i] = 0;
		}
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
	struct sigaction sa = { .sa_handler = remove_temps_on_signal };
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

	for (i = 0; i < ARRAY_SIZE(cleanup_signals); i++) {
		if (installed[i])
			sigaction(cleanup_signals[i], &old_actions[i], NULL);
		installed[i] = false;
	}
}

/* A free slot for a temporary file, the handlers in place; -1: none. */
static int take_slot(void)
{
	int i;

	for (i = 0; i < MAX_OPEN_FILES && slot_taken[i]; i++)
		;
	if (i == MAX_OPEN_FILES)
		return -1;
	if (!nr_taken++)
		install_handlers();
	slot_taken[i] = true;
	return i;
}

/* Remove @slot's temporary file, if it has one, and free the slot. */
static void release_slot(int slot)
{
	sigset_t mask;

	block_signals(&mask);
	if (temp_armed[slot] && temp_owner[slot] == getpid())
		unlink(temp_paths[slot]);
	temp_armed[slot] = 0;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	slot_taken[slot] = false;
	if (!--nr_taken)
		restore_handlers();
}

/*
 * Fill @temp (PATH_MAX bytes) with a mkstemp() template for @path:
 * "dir/.name.XXXXXX", a hidden sibling, or "dir/.kabidiff.XXXXXX" when the
 * name is too long for that to fit in NAME_MAX.  0 or -ENAMETOOLONG.
 */
static int temp_name_for(char *temp, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? slash - path + 1 : 0;
	const char *base = path + dirlen;
	int n;

	if (1 + strlen(base) + strlen(TEMP_SUFFIX) <= NAME_MAX)
		n = snprintf(temp, PATH_MAX, "%.*s.%s" TEMP_SUFFIX,
			     (int)dirlen, path, base);
	else
		n = snprintf(temp, PATH_MAX, "%.*s" SHORT_TEMP, (int)dirlen,
			     path);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
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

/* Forget @af: its temporary file, if it is still there, goes. */
static void free_file(struct atomic_file *af)
{
	if (af->slot >= 0)
		release_slot(af->slot);
	free(af->shown_path);
	free(af->final_path);
	free(af);
}

/*
 * A new struct atomic_file for @path, which becomes @real (taken; NULL:
 * written in place); NULL when out of memory or out of slots, reported.
 */
static struct atomic_file *new_file(const char *path, char *real)
{
	struct atomic_file *af = calloc(1, sizeof(*af));

	if (af) {
		af->shown_path = strdup(path);
		af->final_path = real;
		af->slot = real ? take_slot() : -1;
	}
	if (!af || !af->shown_path) {
		report(path, ENOMEM);
	} else if (real && af->slot < 0) {
		pr_err("%s: more than %d files written at once", path,
		       MAX_OPEN_FILES);
	} else {
		return af;
	}
	if (af)
		free_file(af);
	else
		free(real);
	return NULL;
}

/*
 * Create the temporary file that will become @real (the regular file, or
 * no file, that @path names), with the attributes of @old.
 */
static int open_temp(const char *path, char *real, const struct stat *old,
		     struct atomic_file **afp)
{
	struct atomic_file *af = new_file(path, real);
	char *temp;
	sigset_t mask;
	int fd, err;

	if (!af)
		return -ENOMEM;
	temp = temp_paths[af->slot];
	err = temp_name_for(temp, real);
	if (err) {
		free_file(af);
		return report(path, -err);
	}
	block_signals(&mask);
	fd = mkostemp(temp, O_CLOEXEC);
	if (fd >= 0) {
		temp_owner[af->slot] = getpid();
		temp_armed[af->slot] = 1;
	}
	else
		err = -errno;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (fd < 0) {
		pr_err("%s: cannot create a file in its directory: %s", path,
		       strerror(-err));
		free_file(af);
		return err;
	}
	if (copy_attributes(fd, old)) {
		err = report(temp, errno);
		close(fd);
		free_file(af);
		return err;
	}
	*afp = af;
	return fd;
}

/*
 * @path is a device, a FIFO, a socket, standard output ("-"): there is
 * nothing to replace, write to it as a plain open would.
 */
static int open_in_place(const char *path, struct atomic_file **afp)
{
	struct atomic_file *af = new_file(path, NULL);
	int fd;

	if (!af)
		return -ENOMEM;
	if (!strcmp(path, "-"))
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		fd = report(path, errno);
		free_file(af);
		return fd;
	}
	*afp = af;
	return fd;
}

/* One of our own files: @path itself is replaced, whatever it is. */
static int open_own_file(const char *path, struct atomic_file **afp)
{
	struct stat st;
	char *real = strdup(path);

	if (!real)
		return report(path, ENOMEM);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		return open_temp(path, real, &st, afp);
	return open_temp(path, real, NULL, afp);
}

/* A file the user named: see atomic-file.h for what is replaced. */
static int open_user_file(const char *path, struct atomic_file **afp)
{
	struct stat st, real_st;
	bool exists;
	char *real;

	exists = !stat(path, &st);
	if (!exists && errno != ENOENT)
		return report(path, errno);
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(path, afp);
	/* a symbolic link stays one: its target is the file to replace */
	real = resolve_links(path);
	if (!real)
		return report(path, errno);
	if (!exists)
		return open_temp(path, real, NULL, afp);
	if (stat(real, &real_st) || real_st.st_dev != st.st_dev ||
	    real_st.st_ino != st.st_ino) {
		/* a link that names no path (/proc/self/fd/N): write to it */
		free(real);
		return open_in_place(path, afp);
	}
	return open_temp(path, real, &st, afp);
}

int atomic_open(const char *path, unsigned int flags,
		struct atomic_file **afp)
{
	size_t len = strlen(path);

	*afp = NULL;
	if (!strcmp(path, "-"))
		return open_in_place(path, afp);
	if (!len)
		return report("''", ENOENT);
	if (path[len - 1] == '/')
		return report(path, EISDIR);
	return flags & ATOMIC_OWN_FILE ? open_own_file(path, afp) :
					 open_user_file(path, afp);
}

int atomic_commit(struct atomic_file *af, int fd)
{
	char *temp = af->slot >= 0 ? temp_paths[af->slot] : NULL;
	sigset_t mask;
	int err = 0;

	if (!temp)
		goto out;	/* written in place */
	if (fsync(fd)) {
		err = -errno;
		pr_err("%s: write failed: %s", af->shown_path, strerror(errno));
		goto out;
	}
	block_signals(&mask);
	if (rename(temp, af->final_path)) {
		err = -errno;
		pr_err("%s: cannot rename %s into place: %s", af->shown_path,
		       temp, strerror(errno));
	} else {
		temp_armed[af->slot] = 0;
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
out:
	free_file(af);
	return err;
}

void atomic_abort(struct atomic_file *af)
{
	free_file(af);
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
	struct atomic_file *af;
	int fd = atomic_open(path, flags, &af), err;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = report(path, errno);
		close(fd);
		atomic_abort(af);
		return err;
	}
	err = write_fn(f, ctx);
	if (!err)
		err = flush_stream(f, path);
	if (!err)
		err = atomic_commit(af, fd);
	else
		atomic_abort(af);
	if (fclose(f) && !err)
		err = report(path, errno);
	return err;
}
