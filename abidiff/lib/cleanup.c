// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "compiler.h"

/*
 * A command's -o, the cache entries written meanwhile, the two sides'
 * snapshots; and the two sides' collectors, each with its apt-get or QEMU.
 */
#define MAX_TEMPS	8
#define MAX_CHILDREN	8

/* How long a child has to end on our signal before SIGKILL: 5 s, in 10 ms. */
#define GRACE_STEPS	500

static struct {
	char path[PATH_MAX];
	volatile sig_atomic_t armed;	/* path names a file to remove */
	bool is_dir;			/* a directory of files: they go, then it */
} temps[MAX_TEMPS];

static struct {
	volatile pid_t pid;		/* 0: a free slot */
	bool own_group;
} children[MAX_CHILDREN];

/*
 * Slots are taken and freed under the lock too: the sides load in two
 * threads, each of which may write a cache entry.  The handler reads
 * without it.
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int nr_registered;	/* files and children: the handlers are in place */
static bool removal_at_exit;	/* remove_temps() is registered with atexit() */

static const int end_signals[] = { SIGHUP, SIGINT, SIGTERM };
static struct sigaction old_actions[ARRAY_SIZE(end_signals)];
static bool installed[ARRAY_SIZE(end_signals)];

void cleanup_block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(end_signals); i++)
		sigaddset(&set, end_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void cleanup_restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/*
 * Remove the directory @path and the files in it, with what a signal
 * handler may call: no opendir(), which allocates.  Entries removed while
 * the directory is read may make it skip some: it is read again until a
 * pass finds nothing.
 */
static void remove_dir_of_files(const char *path)
{
	char buf[4096];
	bool found = true;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n, off;

	while (fd >= 0 && found) {
		found = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n; ) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);

				off += d->d_reclen;
				if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
				    !unlinkat(fd, d->d_name, 0))
					found = true;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	rmdir(path);
}

static void remove_temp(size_t i)
{
	if (temps[i].is_dir)
		remove_dir_of_files(temps[i].path);
	else
		unlink(temps[i].path);
}

static void remove_temps(void)
{
	size_t i;

	for (i = 0; i < MAX_TEMPS; i++) {
		if (temps[i].armed)
			remove_temp(i);
		temps[i].armed = 0;
	}
}

/* Wait for child @i to end, killing it when it has not done so in time. */
static void reap_on_signal(size_t i)
{
	struct timespec step = { 0, 10 * 1000 * 1000 };
	pid_t pid = children[i].pid;
	int n;

	for (n = 0; n < GRACE_STEPS; n++) {
		pid_t done = waitpid(pid, NULL, WNOHANG);

		if (done == pid || (done < 0 && errno != EINTR))
			return;
		nanosleep(&step, NULL);
	}
	kill(children[i].own_group ? -pid : pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Give our children @sig (a collector of ours ends its own children the
 * same way), wait for them, remove the files, then die of @sig as we would
 * have without this handler: the default action back, @sig raised again
 * (it stays pending while the handler runs, and kills us when it returns).
 * Only async-signal-safe calls here.
 */
static void clean_up_on_signal(int sig)
{
	int saved_errno = errno;
	size_t i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid)
			kill(children[i].own_group ? -children[i].pid :
			     children[i].pid, sig);
	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i].pid)
			reap_on_signal(i);
		children[i].pid = 0;
	}
	remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved_errno;
}

/* Catch the signals whose action is the default (see cleanup.h). */
static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = clean_up_on_signal };
	size_t i;

	/* one clean-up at a time: a second signal waits for its end */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(end_signals); i++)
		sigaddset(&sa.sa_mask, end_signals[i]);
	for (i = 0; i < ARRAY_SIZE(end_signals); i++) {
		installed[i] = false;
		if (sigaction(end_signals[i], NULL, &old_actions[i]) ||
		    old_actions[i].sa_handler != SIG_DFL)
			continue;
		installed[i] = !sigaction(end_signals[i], &sa, NULL);
	}
}

/*
 * What install_handlers() replaced, where ours is still in place: a
 * handler the program put there since stays.
 */
static void restore_handlers(void)
{
	struct sigaction now;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(end_signals); i++) {
		if (installed[i] && !sigaction(end_signals[i], NULL, &now) &&
		    now.sa_handler == clean_up_on_signal)
			sigaction(end_signals[i], &old_actions[i], NULL);
		installed[i] = false;
	}
}

/* A slot filled (@delta 1) or freed (-1), with the signals blocked. */
static void registered(int delta)
{
	if (delta > 0 && !nr_registered++)
		install_handlers();
	else if (delta < 0 && !--nr_registered)
		restore_handlers();
}

/*
 * Register the temporary file or directory (@fdp NULL) that @template
 * names once made: its slot, or -errno.
 */
static int create_temp(char *template, int *fdp)
{
	size_t len = strlen(template) + 1;
	sigset_t mask;
	int i, fd = -1;

	if (len > sizeof(temps[0].path))
		return -ENAMETOOLONG;
	if (!removal_at_exit && atexit(remove_temps))
		return -ENOMEM;
	removal_at_exit = true;
	cleanup_block_signals(&mask);
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_TEMPS && temps[i].armed; i++)
		;
	if (i == MAX_TEMPS) {
		errno = EMFILE;
	} else {
		memcpy(temps[i].path, template, len);
		if (fdp)
			fd = mkostemp(temps[i].path, O_CLOEXEC);
		else if (mkdtemp(temps[i].path))
			fd = 0;
	}
	if (fd >= 0) {
		temps[i].is_dir = !fdp;
		temps[i].armed = 1;
		registered(1);
		memcpy(template, temps[i].path, len);
	}
	pthread_mutex_unlock(&lock);
	cleanup_restore_signals(&mask);
	if (fd < 0)
		return -errno;
	if (fdp)
		*fdp = fd;
	return i;
}

int cleanup_temp_create(char *template, int *fdp)
{
	return create_temp(template, fdp);
}

int cleanup_dir_create(char *template)
{
	return create_temp(template, NULL);
}

const char *cleanup_temp_path(int slot)
{
	return temps[slot].path;
}

/* Free @slot, its file renamed or removed; the signals blocked. */
static void free_temp(int slot)
{
	temps[slot].armed = 0;
	registered(-1);
}

int cleanup_temp_rename(int slot, const char *path)
{
	sigset_t mask;
	int err = 0;

	cleanup_block_signals(&mask);
	pthread_mutex_lock(&lock);
	if (rename(temps[slot].path, path))
		err = -errno;
	else
		free_temp(slot);
	pthread_mutex_unlock(&lock);
	cleanup_restore_signals(&mask);
	return err;
}

void cleanup_temp_remove(int slot)
{
	sigset_t mask;

	cleanup_block_signals(&mask);
	pthread_mutex_lock(&lock);
	if (temps[slot].armed) {
		remove_temp(slot);
		free_temp(slot);
	}
	pthread_mutex_unlock(&lock);
	cleanup_restore_signals(&mask);
}

int cleanup_child_add(pid_t pid, bool own_group)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_CHILDREN && children[i].pid; i++)
		;
	if (i < MAX_CHILDREN) {
		children[i].own_group = own_group;
		children[i].pid = pid;
		registered(1);
	}
	pthread_mutex_unlock(&lock);
	return i < MAX_CHILDREN ? 0 : -EAGAIN;
}

void cleanup_child_forget(pid_t pid)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i].pid == pid) {
			children[i].pid = 0;
			registered(-1);
		}
	}
	pthread_mutex_unlock(&lock);
}

void cleanup_forget_parents(void)
{
	size_t i;

	/* another thread may have held it when we were forked */
	pthread_mutex_init(&lock, NULL);
	for (i = 0; i < MAX_TEMPS; i++)
		temps[i].armed = 0;
	for (i = 0; i < MAX_CHILDREN; i++)
		children[i].pid = 0;
	if (nr_registered)
		restore_handlers();
	nr_registered = 0;
}
