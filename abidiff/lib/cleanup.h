/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a signal that kills us takes along: the temporary files that exist
 * right now (the writer's, lib/atomic-file.c, the snapshots the sides of a
 * diff are collected into, the files of a boot) and the children that are to die with us
 * (lib/run-command.c's fork_child()).
 *
 * While anything is registered here, SIGHUP, SIGINT and SIGTERM, where
 * their action is the default, first pass the signal on to each child (to
 * its group, for one in a group of its own; SIGKILL after 5 s), wait for
 * it, remove the files, and then kill us as they would have.  A signal the
 * program ignores (nohup) stays ignored, and a handler of the program's
 * own stays in place (bisect stops its work on SIGINT and SIGTERM and
 * cleans up on its way out).  The files still there at exit go then.
 *
 * One handler for all: a second one for files, or for children, would
 * have to chain with this one, and a signal would run only one of them.
 * The tables are static, for the handler, which may not call malloc() or
 * follow pointers that are being freed; they are changed with the signals
 * blocked.  The main thread's: a forked child forgets its parent's.
 */
#ifndef KABIDIFF_CLEANUP_H
#define KABIDIFF_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * cleanup_temp_create() - mkostemp(@template, O_CLOEXEC), the file
 * registered: returns its slot, with the descriptor in *@fdp, or -errno
 * (-EMFILE: too many files under way, -ENAMETOOLONG).
 */
int cleanup_temp_create(char *template, int *fdp);

/*
 * cleanup_dir_create() - mkdtemp(@template), registered: a directory of
 * files (no deeper tree), which go with it.  Its slot, or -errno.
 */
int cleanup_dir_create(char *template);

/* cleanup_temp_path() - the name of @slot's file. */
const char *cleanup_temp_path(int slot);

/*
 * cleanup_temp_rename() - rename @slot's file to @path, where no signal
 * then removes it, and free the slot: 0, or -errno with the slot as it was.
 */
int cleanup_temp_rename(int slot, const char *path);

/*
 * cleanup_temp_remove() - remove @slot's file, or directory and the files
 * in it, and free the slot.
 */
void cleanup_temp_remove(int slot);

/*
 * The children: registered and forgotten with the signals blocked
 * (cleanup_block_signals()), so that the handler never signals a pid that
 * has been reaped and may be another process's by now.
 */
void cleanup_block_signals(sigset_t *old);
void cleanup_restore_signals(const sigset_t *old);

/* cleanup_child_add() - @pid is to die with us: 0, or -EAGAIN (8 already). */
int cleanup_child_add(pid_t pid, bool own_group);

/* cleanup_child_forget() - @pid has ended, or is about to be reaped. */
void cleanup_child_forget(pid_t pid);

/*
 * cleanup_forget_parents() - in a new child, its signals still blocked:
 * what its parent registered is not its own, nor are the handlers.
 */
void cleanup_forget_parents(void);

#endif /* KABIDIFF_CLEANUP_H */
