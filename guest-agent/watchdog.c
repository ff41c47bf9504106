// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a value without hanging the walk.  A sysfs attribute's show()
 * runs in the task that reads it and may sleep: usually briefly, but a
 * driver that waits for hardware that never answers sleeps as long as it
 * likes, and often uninterruptibly (mutex_lock(), wait_for_completion()),
 * where no signal reaches it: SIGALRM would only cover the polite cases.
 * O_NONBLOCK does not help either, kernfs and the sysctl files ignore it.
 * And handing each read to a helper process is too slow: under TCG the two
 * context switches per file cost 3.8 s of a 5 s walk of a Debian kernel.
 *
 * So the work is split in two processes that share one MAP_SHARED mapping of
 * state.  The walker (a child) walks, reads each value itself and writes
 * the stream.  The watchdog (the parent, PID 1 in the guest) mostly sleeps
 * in poll(): before each read the walker publishes the node and a new
 * sequence number in the shared state, and the watchdog looks at it ten
 * times a timeout.  When it has seen the same read in progress for
 * timeout_ms, it claims it with a compare-and-swap, SIGKILLs the walker
 * (one asleep in the kernel cannot die, and need not: it never runs our
 * code again), writes the node's record as timed out, and forks a new
 * walker that walks again from the start, skipping every node up to the
 * one that hung.  A walker whose read ends just as it is claimed sees its
 * own compare-and-swap fail and exits without touching the stream; one
 * that wins it goes on and the watchdog lets it.  The stream's buffer and
 * checksum live in the shared state, so the output is one stream whoever
 * wrote each part of it.  The walker never writes while it is claimable.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "say.h"
#include "walk.h"
#include "watchdog.h"

/* read_state: a sequence number, and these two bits */
#define READ_BUSY	1ull	/* the walker is reading */
#define READ_CLAIMED	2ull	/* the watchdog has taken that read over */
#define READ_SEQ	4ull	/* one step of the sequence number */

/* ---- the walker ---- */

/*
 * Read a value under the watchdog's eye (the node is already published in
 * the shared state).  Returns false when the watchdog has claimed the read:
 * the stream is no longer ours to write.
 */
static bool read_watched(struct agent *a)
{
	struct shared *s = a->shared;
	uint64_t busy, idle;

	idle = __atomic_load_n(&s->read_state, __ATOMIC_RELAXED) + READ_SEQ;
	busy = idle | READ_BUSY;
	__atomic_store_n(&s->read_state, busy, __ATOMIC_RELEASE);
	value_read(a->real, &a->answer);
	return __atomic_compare_exchange_n(&s->read_state, &busy, idle, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static enum stream_kind stream_kind(enum walk_kind kind)
{
	switch (kind) {
	case WALK_DIR:
		return STREAM_KIND_DIR;
	case WALK_FILE:
		return STREAM_KIND_FILE;
	case WALK_LINK:
		return STREAM_KIND_LINK;
	default:
		return STREAM_KIND_OTHER;
	}
}

/* @base, and "/@rel" unless @rel is empty, into @buf; returns the length */
static size_t join(char *buf, size_t size, const char *base, const char *rel)
{
	int n = snprintf(buf, size, "%s%s%s", base, *rel ? "/" : "", rel);

	return n < (int)size ? (size_t)n : size - 1;
}

/* a byte's place in walk order: the end of a name sorts before anything */
static int walk_rank(unsigned char c)
{
	return c == '\0' ? 0 : c == '/' ? 1 : c + 2;
}

/*
 * Compare two paths below a root in the order walk_tree() visits them:
 * parents first, the entries of a directory in strcmp() order.  So the
 * first byte that differs decides, except that a name ending ('/' or the
 * end) sorts before any byte: "a/z" comes before "a-b" and "ab".
 */
static int walk_order(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return walk_rank(*a) - walk_rank(*b);
}

static int visit(const struct walk_node *node, void *ctx)
{
	struct agent *a = ctx;
	struct shared *s = a->shared;
	enum stream_kind kind = stream_kind(node->kind);
	const char *target = node->target ? node->target : "";

	if (a->resuming) {
		if (walk_order(node->path, a->resume) <= 0)
			return 0;	/* recorded before */
		a->resuming = false;
	}
	s->plen = join(s->path, sizeof(s->path), a->tree->prefix, node->path);
	a->answer.status = STREAM_VAL_NONE;
	a->answer.len = 0;
	if (kind == STREAM_KIND_FILE ||
	    (kind == STREAM_KIND_OTHER && a->read_other)) {
		s->kind = kind;
		s->mode = node->mode;
		snprintf(s->rel, sizeof(s->rel), "%s", node->path);
		join(a->real, sizeof(a->real), a->tree->root, node->path);
		if (!read_watched(a))
			_exit(0);	/* claimed: the watchdog goes on */
	}
	out_node(&s->out, kind, node->mode, s->path, s->plen,
		 target, strlen(target), &a->answer);
	return s->out.error ? 1 : 0;
}

/* The walker's life: walk the trees from where the last one stopped. */
static void __noreturn walker(struct agent *a)
{
	struct shared *s = a->shared;
	struct walk_stop stop;
	size_t i;
	int ret;

	for (i = a->resume_tree; i < a->nr_trees; i++) {
		a->tree = &a->trees[i];
		s->tree = i;
		ret = walk_tree(a->tree->root, WALK_FILE_MODES, visit, a, &stop);
		a->resuming = false;
		if (ret > 0) {
			s->error = s->out.error;
			_exit(1);
		}
		if (ret == -ENOENT && !*stop.path && a->tree->optional) {
			say("no %s in this kernel", a->tree->root);
		} else if (ret < 0) {
			if (*stop.path)
				say("%s/%s: %s", a->tree->root, stop.path,
				    stop.reason);
			else
				say("cannot read %s: %s", a->tree->root,
				    stop.reason);
			s->error = ret;
			_exit(1);
		}
	}
	out_flush(&s->out);
	s->error = s->out.error;
	_exit(s->error ? 1 : 0);
}

/* ---- the watchdog ---- */

static int start_walker(struct agent *a)
{
	pid_t parent = getpid();
	int alive[2];

	if (pipe2(alive, O_CLOEXEC))
		return -errno;
	a->walker = fork();
	if (a->walker < 0) {
		close(alive[0]);
		close(alive[1]);
		return -errno;
	}
	if (!a->walker) {
		/* die with the watchdog: nobody else would stop us */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(alive[0]);
		walker(a);
	}
	close(alive[1]);
	a->alive = alive[0];
	return 0;
}

/*
 * The read in progress has lasted too long and is ours: kill its walker,
 * record the node as timed out, and have the next walker start after it.
 * Returns 0, or -ELOOP if the walk went backwards (which would never end).
 */
static int take_over(struct agent *a)
{
	const struct timespec tick = { .tv_nsec = 1000000 };
	struct shared *s = a->shared;
	struct answer timeout = { .status = STREAM_VAL_TIMEOUT };
	uint64_t end = now_ms() + 100;

	kill(a->walker, SIGKILL);
	close(a->alive);
	while (waitpid(a->walker, NULL, WNOHANG) != a->walker) {
		if (now_ms() >= end) {
			a->stuck++;
			say("the walker reading %s is stuck in the kernel, left behind",
			    s->path);
			break;
		}
		nanosleep(&tick, NULL);
	}
	if (a->resuming && (s->tree < a->resume_tree ||
			    (s->tree == a->resume_tree &&
			     walk_order(s->rel, a->resume) <= 0))) {
		say("the walk went back to %s after a timeout", s->path);
		return -ELOOP;
	}
	/* a new sequence number: the next walker's reads are not claimed */
	__atomic_store_n(&s->read_state,
			 (s->read_state & ~(READ_SEQ - 1)) + READ_SEQ,
			 __ATOMIC_RELEASE);
	out_node(&s->out, s->kind, s->mode, s->path, s->plen, "", 0, &timeout);
	s->timeouts++;
	a->resume_tree = s->tree;
	a->resuming = true;
	memcpy(a->resume, s->rel, sizeof(a->resume));
	return 0;
}

/*
 * How long the watchdog may sleep before it looks at the read in progress
 * again; 0 when that read has overrun and the watchdog has claimed it.
 *
 * The walker does not say when a read began (a clock_gettime() per file
 * costs 0.3 s of a 1.4 s walk under TCG): the watchdog looks every tenth
 * of the timeout, and a read seen in progress for the whole timeout has
 * overrun.  So a read is given up after timeout_ms, and at most a tenth
 * more.
 */
static uint64_t claim_overrun(struct agent *a)
{
	struct shared *s = a->shared;
	uint64_t state, now, period = a->timeout_ms / 10 + 1;

	state = __atomic_load_n(&s->read_state, __ATOMIC_ACQUIRE);
	now = now_ms();
	if (!(state & READ_BUSY))
		return period;
	if (state != a->seen_state) {
		a->seen_state = state;
		a->seen_at = now;
		return period;
	}
	if (now < a->seen_at + a->timeout_ms)
		return period < a->seen_at + a->timeout_ms - now ?
		       period : a->seen_at + a->timeout_ms - now;
	if (__atomic_compare_exchange_n(&s->read_state, &state,
					state | READ_CLAIMED, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 0;
	return period;	/* it ended just now */
}

/* The walker has ended: 0 if it finished the walk, else -errno. */
static int reap_walker(struct agent *a)
{
	int status;

	close(a->alive);
	if (waitpid(a->walker, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		say("the walker died of signal %d", WTERMSIG(status));
	return a->shared->error ? a->shared->error : -ECHILD;
}

/*
 * Start a walker and wait for the walk to end, taking over each read that
 * overruns.  Returns 0 when the walk is complete, or -errno.
 */
static int watch(struct agent *a)
{
	struct pollfd pfd = { .events = POLLIN };
	uint64_t wait;
	int ret;

	ret = start_walker(a);
	while (!ret) {
		wait = claim_overrun(a);
		if (!wait) {
			ret = take_over(a);
			if (!ret)
				ret = start_walker(a);
			continue;
		}
		pfd.fd = a->alive;
		if (poll(&pfd, 1, wait) < 0 && errno != EINTR) {
			ret = -errno;
			kill(a->walker, SIGKILL);
		} else if (pfd.revents) {
			return reap_walker(a);
		}
	}
	return ret;
}

int watchdog_dump(struct agent *a, int fd, const struct tree *trees,
		  size_t nr)
{
	struct shared *s;
	struct utsname u;
	int ret;

	if (uname(&u))
		return -errno;
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return -errno;
	a->shared = s;
	a->trees = trees;
	a->nr_trees = nr;
	s->out.fd = fd;
	out_header(&s->out, &u, a->host ? STREAM_F_HOST : 0, a->timeout_ms);
	ret = watch(a);
	if (!ret && !a->host) {
		size_t i;

		coldplug_requests(&a->loads);
		for (i = 0; i < a->loads.nr; i++)
			out_load(&s->out, &a->loads.v[i]);
	}
	if (!ret)
		out_trailer(&s->out);
	out_flush(&s->out);
	if (!ret)
		ret = s->out.error;
	if (s->out.error)
		say("cannot write the stream: %s", strerror(-s->out.error));
	return ret;
}
