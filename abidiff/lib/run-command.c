// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "compiler.h"
#include "run-command.h"

/* The child being waited for, for run_command__stop(): negative, a group. */
static volatile pid_t running;

/* What the kernel sends a child of ours when we die: one it acts on. */
static int death_signal(void)
{
	struct sigaction sa;

	if (!sigaction(SIGTERM, NULL, &sa) && sa.sa_handler == SIG_IGN)
		return SIGKILL;
	return SIGTERM;
}

pid_t fork_child(bool own_group)
{
	pid_t parent = getpid(), pid;
	sigset_t mask;
	int err;

	fflush(NULL);	/* or the child repeats what our buffers hold */
	cleanup_block_signals(&mask);
	pid = fork();
	if (!pid) {
		cleanup_forget_parents();
		/* dies with us, whatever kills us; we may be gone already */
		prctl(PR_SET_PDEATHSIG, death_signal());
		if (getppid() != parent)
			_exit(127);
		if (own_group)
			setpgid(0, 0);
	} else if (pid > 0) {
		if (own_group)
			setpgid(pid, pid);	/* both sides: whichever runs first */
		err = cleanup_child_add(pid, own_group);
		if (err) {
			kill(own_group ? -pid : pid, SIGKILL);
			waitpid(pid, NULL, 0);
			pid = -1;
			errno = -err;
		}
	}
	cleanup_restore_signals(&mask);
	return pid;
}

int child_wait(pid_t pid, int *status, bool nohang)
{
	siginfo_t info;
	sigset_t mask;
	int err = 0;

	/* ended, but not reaped until forgotten: see cleanup.h */
	for (;;) {
		info.si_pid = 0;
		if (!waitid(P_PID, pid, &info,
			    WEXITED | WNOWAIT | (nohang ? WNOHANG : 0)))
			break;
		if (errno != EINTR)
			return -errno;
	}
	if (!info.si_pid)
		return -EAGAIN;
	cleanup_block_signals(&mask);
	cleanup_child_forget(pid);
	if (waitpid(pid, status, 0) < 0)
		err = -errno;
	cleanup_restore_signals(&mask);
	return err;
}

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
		int err = child_wait(pid, &cp->status, cp->timeout != 0);

		if (err != -EAGAIN)
			return err;
		if (now() > deadline) {
			kill_child(cp, pid, SIGKILL);
			child_wait(pid, &cp->status, false);
			return -ETIMEDOUT;
		}
		usleep(50 * 1000);
	}
}

int run_command(struct child_process *cp)
{
	pid_t pid;
	int err;

	pid = fork_child(cp->own_group);
	if (pid < 0)
		return -errno;
	if (!pid)
		exec_child(cp);
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
