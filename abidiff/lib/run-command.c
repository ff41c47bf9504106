// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "run-command.h"

/* The child being waited for, for run_command__stop(): negative, a group. */
static volatile pid_t running;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void redirect(int fd, int to, int devnull)
{
	if (fd == CHILD_DEVNULL)
		dup2(devnull, to);
	else if (fd != CHILD_INHERIT)
		dup2(fd, to);
}

/* In the child, after fork(): never returns. */
static void __noreturn exec_child(const struct child_process *cp)
{
	int devnull = open("/dev/null", O_RDWR);
	size_t i;

	if (cp->own_group)
		setpgid(0, 0);
	dup2(devnull, STDIN_FILENO);
	redirect(cp->out_fd, STDOUT_FILENO, devnull);
	redirect(cp->err_fd, STDERR_FILENO, devnull);
	if (cp->dir && chdir(cp->dir)) {
		fprintf(stderr, "kabidiff: %s: %s\n", cp->dir, strerror(errno));
		_exit(127);
	}
	/* the child's own environment: putenv() keeps the string */
	for (i = 0; cp->env && cp->env[i]; i++) {
		if (putenv((char *)cp->env[i])) {
			fprintf(stderr, "kabidiff: %s\n", strerror(errno));
			_exit(127);
		}
	}
	/* execvp() does not write to the vector, whatever its type */
	execvp(cp->argv[0], (char *const *)cp->argv);
	fprintf(stderr, "kabidiff: cannot run %s: %s\n", cp->argv[0],
		strerror(errno));
	_exit(127);
}

static void kill_child(const struct child_process *cp, pid_t pid, int sig)
{
	kill(cp->own_group ? -pid : pid, sig);
}

/* Wait for @pid, killing it once @cp's timeout has passed. */
static int wait_child(struct child_process *cp, pid_t pid)
{
	double deadline = now() + cp->timeout;

	for (;;) {
		pid_t done = waitpid(pid, &cp->status, cp->timeout ? WNOHANG : 0);

		if (done == pid)
			return 0;
		if (done < 0 && errno != EINTR)
			return -errno;
		if (cp->timeout && now() > deadline) {
			kill_child(cp, pid, SIGKILL);
			while (waitpid(pid, &cp->status, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		if (cp->timeout)
			usleep(50 * 1000);
	}
}

int run_command(struct child_process *cp)
{
	pid_t pid;
	int err;

	fflush(NULL);	/* or the child repeats what our buffers hold */
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		exec_child(cp);
	if (cp->own_group)
		setpgid(pid, pid);	/* both sides: whichever runs first */
	running = cp->own_group ? -pid : pid;
	/* a signal before running was set found nothing to stop */
	if (cp->cancelled && *cp->cancelled)
		kill_child(cp, pid, SIGTERM);
	err = wait_child(cp, pid);
	running = 0;
	return err;
}

bool child_succeeded(const struct child_process *cp)
{
	return WIFEXITED(cp->status) && !WEXITSTATUS(cp->status);
}

const char *describe_exit(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended with wait status %d", status);
	return buf;
}

void run_command__stop(void)
{
	pid_t pid = running;

	if (pid)
		kill(pid, SIGTERM);
}
