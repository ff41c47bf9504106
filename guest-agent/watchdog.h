/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walker and its watchdog: the stream of some trees, each value read
 * under a timeout (see the top of watchdog.c), and the agent's state.
 * Private to the agent.
 */
#ifndef KABI_WATCHDOG_H
#define KABI_WATCHDOG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coldplug.h"
#include "stream-writer.h"
#include "value.h"

/* one tree to walk */
struct tree {
	const char *root;	/* where it is */
	const char *prefix;	/* what its paths are called in the stream */
	bool optional;		/* a missing root is not trouble */
};

/* what the walker and the watchdog share: see the top of watchdog.c */
struct shared {
	struct out out;
	uint64_t timeouts;
	int error;		/* what stopped the walker, -errno */
	uint64_t read_state;	/* READ_*, atomic */
	/* the node being read, for the watchdog to record */
	size_t tree;
	enum stream_kind kind;
	unsigned int mode;
	size_t plen;
	char path[2 * PATH_MAX + 2];	/* its name in the stream */
	char rel[PATH_MAX];		/* its path below the root */
};

struct agent {
	struct shared *shared;
	const struct tree *trees;
	size_t nr_trees;
	unsigned int timeout_ms;
	bool read_other;	/* read FIFOs, sockets and devices too */
	bool host;		/* --root, not PID 1 */
	/* the walker's own */
	const struct tree *tree;	/* being walked */
	struct answer answer;
	char real[2 * PATH_MAX + 2];	/* where the node is here */
	/* where a new walker starts: after @resume in tree @resume_tree */
	size_t resume_tree;
	bool resuming;
	char resume[PATH_MAX];
	/* the modules loaded, sent after the nodes */
	struct loads loads;
	/* the watchdog's own */
	pid_t walker;
	int alive;		/* ends when the walker does */
	uint64_t stuck;		/* walkers killed but not gone */
	uint64_t seen_state;	/* the read seen in progress */
	uint64_t seen_at;	/* since then, ms */
};

/*
 * watchdog_dump() - write the whole stream of the @nr @trees to @fd, with
 * @a's options, and as PID 1 the modules loaded after the nodes.  Maps
 * @a->shared, which stays for the caller's summary.  Returns 0 or -errno;
 * the stream has its trailer only when it is 0.  A walk that fails still
 * sends the nodes it got to, so that the reader says where the stream ends
 * rather than that there is none.
 */
int watchdog_dump(struct agent *a, int fd, const struct tree *trees,
		  size_t nr);

#endif /* KABI_WATCHDOG_H */
