/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking a sysfs-like tree without following links and without writing.
 *
 * Exported to the host: one of the two headers of the agent's that the host
 * may include (with stream.h; make check-layers allows no other).  The host
 * walks a live or copied tree with it (collectors/sysfs/sysfs-dir.c) and
 * links walk.c.  It includes nothing of kabidiff's and needs only libc, so
 * it builds static for the guest.
 */
#ifndef KABI_WALK_H
#define KABI_WALK_H

#include <limits.h>

enum walk_kind {
	WALK_DIR,
	WALK_FILE,
	WALK_LINK,
	WALK_OTHER,
};

struct walk_node {
	/* relative to the root: "" for the root, else "kernel/uevent_seqnum" */
	const char *path;
	enum walk_kind kind;
	/* permission bits; 0 for a file unless WALK_FILE_MODES is given */
	unsigned int mode;
	const char *target;	/* links: what the link holds, else NULL */
};

/*
 * Also stat every file, for its permission bits.  Without it, files cost no
 * system call of their own: the kind comes from readdir(), a directory's
 * mode from the descriptor the walk opens anyway, a link's is always 0777.
 */
#define WALK_FILE_MODES		(1u << 0)

/*
 * The limits of a walk.  Meeting either stops it with an error that names
 * the node (struct walk_stop), never a silent skip and never a crash: a
 * node deeper or longer than this is not one a kernel made.
 *
 * WALK_DEPTH_MAX: a node may be at most 128 levels below the root.  A real
 * sysfs is under 40 deep, its deepest paths a device's chain of bridges,
 * switches and hubs; 128 leaves room for three times that, and bounds what
 * the walk holds: one descriptor and a few hundred bytes of stack per
 * level, 130 descriptors at most, well within the usual limit of 1024.
 *
 * WALK_PATH_MAX: a node's path below the root may be at most PATH_MAX - 1
 * bytes, the longest a system call takes, so that every node can be named.
 */
#define WALK_DEPTH_MAX		128
#define WALK_PATH_MAX		4095	/* PATH_MAX - 1, as a number for messages */

/*
 * Why and where a walk stopped on an error of its own, for a message:
 * "ROOT/PATH: REASON", or "ROOT: REASON" when @path is "".
 */
struct walk_stop {
	/* "deeper than 128 levels ...", or strerror(); NULL if @visit stopped it */
	const char *reason;
	/*
	 * the node's path below the root, as in struct walk_node, cut short
	 * and ended with "..." when it does not fit (as a path too long to
	 * walk does not)
	 */
	char path[PATH_MAX];
};

/*
 * walk_tree() - call @visit for @root and every node below it, parents
 * before children, each directory's entries in name order.
 *
 * Links are reported, never followed; directories on another filesystem
 * than @root (mount points) are reported but not entered.  A directory the
 * walk may not open (EACCES, or gone since readdir()) is reported and its
 * contents skipped; another node gone between readdir() and its stat or
 * readlink() is skipped.  Running out of descriptors or memory, any other
 * failure and a node beyond the limits above stop the walk: nothing is
 * left out without a word.
 *
 * Returns 0; -errno when the walk stops on an error of its own, with @stop
 * saying why and where: -ELOOP for a node deeper than WALK_DEPTH_MAX,
 * -ENAMETOOLONG for a path longer than WALK_PATH_MAX, or the error of the
 * system call that failed (-EMFILE when out of descriptors, -ENOENT for a
 * missing @root, ...); or the first non-zero value @visit returned, which
 * stops the walk (@stop's reason is then NULL).
 */
int walk_tree(const char *root, unsigned int flags,
	      int (*visit)(const struct walk_node *node, void *ctx), void *ctx,
	      struct walk_stop *stop);

#endif /* KABI_WALK_H */
