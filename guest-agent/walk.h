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
 * walk_tree() - call @visit for @root and every node below it, parents
 * before children, each directory's entries in name order.
 *
 * Links are reported, never followed; directories on another filesystem
 * than @root (mount points) are reported but not entered.  A directory that
 * cannot be read is reported and its contents skipped.  Returns 0, -errno
 * when @root itself cannot be read, or the first non-zero value @visit
 * returned, which stops the walk.
 */
int walk_tree(const char *root, unsigned int flags,
	      int (*visit)(const struct walk_node *node, void *ctx), void *ctx);

#endif /* KABI_WALK_H */
