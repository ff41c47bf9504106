/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a program and waiting for it: QEMU for a boot, the build command
 * of a bisect step, apt-get; and the children that die with us.  The
 * child's standard input is /dev/null, so it never takes the terminal.
 */
#ifndef KABIDIFF_RUN_COMMAND_H
#define KABIDIFF_RUN_COMMAND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where a child's output goes, besides a file descriptor of ours. */
enum {
	CHILD_INHERIT	= -1,	/* ours */
	CHILD_DEVNULL	= -2,	/* nowhere */
};

struct child_process {
	const char *const *argv;	/* argv[0] is looked up in $PATH */
	const char *dir;		/* where it runs; NULL: here */
	const char *const *env;		/* "NAME=VALUE" to set, NULL-ended */
	int out_fd, err_fd;		/* a descriptor, or CHILD_* */
	/*
	 * In a process group of its own, so that stopping it stops what it
	 * started (a build's make and compilers).
	 */
	bool own_group;
	unsigned int timeout;		/* seconds; 0: none */
	/* set by a signal handler: the child is stopped as soon as it runs */
	volatile sig_atomic_t *cancelled;
	int status;			/* out: its wait status */
};

/*
 * run_command() - run @cp and wait for it.
 *
 * Returns 0 when it ran and ended (@cp->status says how), -ETIMEDOUT when it
 * was killed at its timeout, or -errno when it could not be started.  A
 * program that cannot be executed ends with status 127, after a message.
 */
int run_command(struct child_process *cp);

/* child_succeeded() - whether @cp ended by itself with status 0. */
bool child_succeeded(const struct child_process *cp);

/*
 * describe_exit() - how wait status @status ended a process, in words:
 * "exited with status 1", "was killed by signal 9 (Killed)"; in @buf.
 */
const char *describe_exit(int status, char *buf, size_t size);

/*
 * fork_child() - fork() for a child that is to end when we do, whatever
 * of: run_command()'s, and the collectors of the sides of a diff.  In the
 * child, PR_SET_PDEATHSIG has the kernel send it SIGTERM when we die (of
 * SIGKILL too; SIGKILL where SIGTERM is ignored), and it is in a process
 * group of its own with @own_group; in us, a signal that kills us ends it
 * first (lib/cleanup.h).  A child that forks with it does the same for
 * its own: a collector ends its apt-get or QEMU before it dies.  Returns
 * what fork() does; -1 with errno EAGAIN: 8 children already.  From the
 * main thread, or from a thread that outlives the child: PR_SET_PDEATHSIG
 * is the forking thread's.
 */
pid_t fork_child(bool own_group);

/*
 * child_wait() - wait for @pid, a child of fork_child(), to end, and forget
 * it: 0 with its wait status in *@status, -EAGAIN with @nohang when it is
 * still running, or -errno.
 */
int child_wait(pid_t pid, int *status, bool nohang);

/*
 * run_command__stop() - send SIGTERM to the child run_command() is waiting
 * for, if any (its group, with own_group).  Safe in a signal handler.
 */
void run_command__stop(void);

#endif /* KABIDIFF_RUN_COMMAND_H */
