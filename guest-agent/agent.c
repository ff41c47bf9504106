// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-agent: the /init of the QEMU guest that dumps a kernel's sysfs.
 *
 * As PID 1 it mounts sysfs and procfs read-only, walks /sys and /proc/sys
 * without following links, sends one record per node on the second serial
 * port (/dev/ttyS1, raw), and powers the machine off.  The kernel console
 * (ttyS0) gets the messages for humans and nothing else; the data channel
 * gets the stream and nothing else.  The stream's format is
 * docs/agent-stream.md, in C stream.h.
 *
 * On the host, "kabi-agent --root DIR" walks DIR and writes the same stream
 * to standard output, for tests: no mounting, no power-off.
 *
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
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "stream.h"
#include "walk.h"
#include "agent.h"
#include "coldplug.h"

/* the stream being written, with its running checksum */
struct out {
	int fd;
	int error;		/* the first write error, -errno */
	uint32_t crc;		/* of every byte put so far */
	uint64_t bytes;		/* put so far */
	size_t len;		/* waiting in buf */
	unsigned char buf[1 << 16];
};

/* one file's value, as the stream carries it */
struct answer {
	unsigned int status;	/* enum stream_value */
	size_t len;
	char data[STREAM_VALUE_CAP + 1];	/* one more: is there more? */
};

/* one tree to walk */
struct tree {
	const char *root;	/* where it is */
	const char *prefix;	/* what its paths are called in the stream */
	bool optional;		/* a missing root is not trouble */
};

/* read_state: a sequence number, and these two bits */
#define READ_BUSY	1ull	/* the walker is reading */
#define READ_CLAIMED	2ull	/* the watchdog has taken that read over */
#define READ_SEQ	4ull	/* one step of the sequence number */

/* what the walker and the watchdog share: see the top of this file */
struct shared {
	struct out out;
	uint64_t nodes;		/* records written */
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
	/* the last record's path, which the next one's is relative to */
	size_t prev_len;
	char prev[2 * PATH_MAX + 2];
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

/* where messages for humans go: stderr on the host, the console as PID 1 */
static int msg_fd = STDERR_FILENO;

/*
 * Copy the @len bytes of @in to @out with control bytes and DEL as \xHH,
 * as kabidiff shows input in its messages: a name with a newline in it
 * cannot split a line, nor an escape sequence drive the console.  @out
 * has room for 4 * @len bytes.  Returns the length written.
 */
static size_t escape_controls(const char *in, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = in[i];

		if (c >= 0x20 && c != 0x7f) {
			out[n++] = c;
			continue;
		}
		out[n++] = '\\';
		out[n++] = 'x';
		out[n++] = hex[c >> 4];
		out[n++] = hex[c & 0xf];
	}
	return n;
}

/*
 * One line for humans.  Room for the longest a message names: a root and
 * a path below it, each up to PATH_MAX, and the reason after them.
 */
static void __printf(1, 2) say(const char *fmt, ...)
{
	char msg[3 * PATH_MAX], line[sizeof("kabi-agent: ") + 4 * sizeof(msg)];
	va_list ap;
	size_t n;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(msg))
		len = sizeof(msg) - 1;
	n = snprintf(line, sizeof(line), "kabi-agent: ");
	n += escape_controls(msg, len, line + n);
	line[n++] = '\n';
	if (write(msg_fd, line, n) < 0)
		return;	/* nowhere left to say it */
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/* ---- the stream ---- */

static void out_flush(struct out *o)
{
	if (!o->error && o->len)
		o->error = write_full(o->fd, o->buf, o->len);
	o->len = 0;
}

static void out_put(struct out *o, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t n;

	o->crc = stream_crc32(o->crc, data, len);
	o->bytes += len;
	while (len) {
		if (o->len == sizeof(o->buf))
			out_flush(o);
		n = sizeof(o->buf) - o->len;
		if (n > len)
			n = len;
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		p += n;
		len -= n;
	}
}

static void out_u8(struct out *o, unsigned int v)
{
	unsigned char b = v;

	out_put(o, &b, 1);
}

static void out_u16(struct out *o, uint16_t v)
{
	unsigned char b[2];

	stream_put_le16(b, v);
	out_put(o, b, sizeof(b));
}

static void out_u32(struct out *o, uint32_t v)
{
	unsigned char b[4];

	stream_put_le32(b, v);
	out_put(o, b, sizeof(b));
}

static void out_u64(struct out *o, uint64_t v)
{
	unsigned char b[8];

	stream_put_le64(b, v);
	out_put(o, b, sizeof(b));
}

/* a string: u16 length, bytes; every caller's string fits in 16 bits */
static void out_str(struct out *o, const void *s, size_t len)
{
	out_u16(o, len);
	out_put(o, s, len);
}

static void out_frame(struct out *o, enum stream_frame type, size_t len)
{
	out_u8(o, type);
	out_u32(o, len);
}

static void put_header(struct agent *a, const struct utsname *u)
{
	static const char version[] = KABIDIFF_VERSION;
	struct out *o = &a->shared->out;
	size_t lr = strlen(u->release), lv = strlen(u->version);
	size_t lm = strlen(u->machine);

	out_put(o, STREAM_MAGIC, STREAM_MAGIC_LEN);
	out_frame(o, STREAM_HEADER, STREAM_HEADER_FIXED +
		  2 + strlen(version) + 2 + lr + 2 + lv + 2 + lm);
	out_u16(o, STREAM_VERSION);
	out_u16(o, a->host ? STREAM_F_HOST : 0);
	out_u32(o, STREAM_VALUE_CAP);
	out_u32(o, a->timeout_ms);
	out_str(o, version, strlen(version));
	out_str(o, u->release, lr);
	out_str(o, u->version, lv);
	out_str(o, u->machine, lm);
}

/*
 * A node's record.  Its path is sent as the number of bytes it shares with
 * the previous record's path and the rest: the walk visits neighbours in
 * turn, so this halves the stream and the time the serial line takes.
 */
static void put_node(struct shared *s, enum stream_kind kind,
		     unsigned int mode, const char *path, size_t plen,
		     const char *target, size_t tlen, const struct answer *ans)
{
	struct out *o = &s->out;
	size_t same = 0;

	while (same < plen && same < s->prev_len &&
	       same < UINT16_MAX && path[same] == s->prev[same])
		same++;
	out_frame(o, STREAM_NODE, STREAM_NODE_FIXED +
		  2 + plen - same + 2 + tlen + 2 + ans->len);
	out_u8(o, kind);
	out_u8(o, ans->status);
	out_u16(o, mode & 07777);
	out_u16(o, same);
	out_str(o, path + same, plen - same);
	out_str(o, target, tlen);
	out_str(o, ans->data, ans->len);
	memcpy(s->prev + same, path + same, plen - same);
	s->prev_len = plen;
	s->nodes++;
}

static void put_load(struct out *o, const struct load *l)
{
	size_t ln = strlen(l->name), lc = strlen(l->cause);

	out_frame(o, STREAM_MODULE, STREAM_MODULE_FIXED + 2 + ln + 2 + lc);
	out_u8(o, l->how);
	out_u32(o, l->err);
	out_str(o, l->name, ln);
	out_str(o, l->cause, lc);
}

static void put_trailer(struct out *o, uint64_t nodes)
{
	unsigned char crc[4];

	out_frame(o, STREAM_TRAILER, STREAM_TRAILER_LEN);
	out_u64(o, nodes);
	stream_put_le32(crc, o->crc);
	out_put(o, crc, sizeof(crc));
}

/* ---- the walker ---- */

/* errno's name, "EACCES", or its number when libc has no name for it */
static void answer_error(struct answer *ans, unsigned int status, int err)
{
	const char *name = strerrorname_np(err);

	ans->status = status;
	if (name)
		ans->len = snprintf(ans->data, sizeof(ans->data), "%s", name);
	else
		ans->len = snprintf(ans->data, sizeof(ans->data), "%d", err);
}

/*
 * Open and read @path, at most STREAM_VALUE_CAP bytes of it and one more to
 * tell a value that fills the cap from a longer one.  Read-only, never
 * through a link.
 */
static void read_value(const char *path, struct answer *ans)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	ssize_t n;

	ans->status = STREAM_VAL_DATA;
	ans->len = 0;
	if (fd < 0) {
		answer_error(ans, STREAM_VAL_OPEN_ERROR, errno);
		return;
	}
	while (ans->len < sizeof(ans->data)) {
		n = read(fd, ans->data + ans->len, sizeof(ans->data) - ans->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			answer_error(ans, STREAM_VAL_READ_ERROR, errno);
			break;
		}
		if (n == 0)
			break;
		ans->len += n;
	}
	if (ans->len > STREAM_VALUE_CAP) {
		ans->status = STREAM_VAL_TRUNCATED;
		ans->len = STREAM_VALUE_CAP;
	}
	close(fd);
}

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
	read_value(a->real, &a->answer);
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
	put_node(s, kind, node->mode, s->path, s->plen,
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
	put_node(s, s->kind, s->mode, s->path, s->plen, "", 0, &timeout);
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

/*
 * Write the whole stream for @trees to @fd.  Returns 0 or -errno; the
 * stream has its trailer only when it is 0.  A walk that fails still sends
 * the nodes it got to, so that the reader says where the stream ends
 * rather than that there is none.
 */
static int dump(struct agent *a, int fd, const struct tree *trees, size_t nr)
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
	put_header(a, &u);
	ret = watch(a);
	if (!ret && !a->host) {
		size_t i;

		coldplug_requests(&a->loads);
		for (i = 0; i < a->loads.nr; i++)
			put_load(&s->out, &a->loads.v[i]);
	}
	if (!ret)
		put_trailer(&s->out, s->nodes);
	out_flush(&s->out);
	if (!ret)
		ret = s->out.error;
	if (s->out.error)
		say("cannot write the stream: %s", strerror(-s->out.error));
	return ret;
}

/* ---- PID 1 ---- */

static const struct tree guest_trees[] = {
	{ .root = "/sys", .prefix = "/sys" },
	/* a kernel without CONFIG_PROC_SYSCTL has none */
	{ .root = "/proc/sys", .prefix = "/proc/sys", .optional = true },
};

static void make_chardev(const char *path, unsigned int major,
			 unsigned int minor)
{
	mknod(path, S_IFCHR | 0600, makedev(major, minor));
}

/*
 * /dev from devtmpfs when the kernel has it, else the nodes we need made
 * in the initramfs; then make sure fds 0-2 are the console, as the kernel
 * leaves them closed when the initramfs has no /dev/console.
 */
static void setup_dev(void)
{
	int fd;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID | MS_NOEXEC, NULL);
	make_chardev("/dev/console", 5, 1);
	make_chardev("/dev/null", 1, 3);
	make_chardev(AGENT_CHANNEL, AGENT_CHANNEL_MAJOR, AGENT_CHANNEL_MINOR);
	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* sysfs and procfs, read-only: nothing the agent does can write to them */
static int mount_trees(void)
{
	static const struct {
		const char *fs, *dir;
	} mounts[] = {
		{ "proc", "/proc" },
		{ "sysfs", "/sys" },
	};
	unsigned long flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		mkdir(mounts[i].dir, 0555);
		if (mount(mounts[i].fs, mounts[i].dir, mounts[i].fs, flags, NULL)) {
			say("cannot mount %s on %s: %s", mounts[i].fs,
			    mounts[i].dir, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/* the data channel: the serial port in raw mode, 8 bits, no flow control */
static int open_channel(void)
{
	struct termios t;
	int fd, flags;

	/* O_NONBLOCK: do not wait for a carrier before CLOCAL is set */
	fd = open(AGENT_CHANNEL, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (tcgetattr(fd, &t))
		goto fail_close;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL;
	t.c_cflag &= ~CRTSCTS;
	cfsetspeed(&t, B115200);	/* QEMU ignores it, hardware would not */
	if (tcsetattr(fd, TCSANOW, &t))
		goto fail_close;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK))
		goto fail_close;
	return fd;

fail_close:
	flags = errno;
	close(fd);
	errno = flags;
fail:
	say("cannot open the data channel %s: %s (is QEMU started with a second -serial?)",
	    AGENT_CHANNEL, strerror(errno));
	return -1;
}

/*
 * End QEMU.  RB_POWER_OFF on a kernel with no way to power off (no ACPI,
 * as in a tinyconfig build) does not fail: sys_reboot() turns it into a
 * halt, which never returns and leaves QEMU running.  So ask for it only
 * when ACPI is there; otherwise reboot, which QEMU's -no-reboot turns into
 * an exit.  PID 1 must never exit: that would be a panic.
 */
static void __noreturn power_off(void)
{
	sync();
	if (!access("/sys/firmware/acpi", F_OK))
		reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	say("cannot power off or reboot: %s", strerror(errno));
	for (;;)
		pause();
}

static void run_guest(struct agent *a)
{
	uint64_t start = now_ms(), ms;
	struct shared *s;
	int fd, ret;

	setup_dev();
	msg_fd = STDOUT_FILENO;
	if (mount_trees())
		return;
	fd = open_channel();
	if (fd < 0)
		return;
	if (!access(COLDPLUG_TABLE, R_OK))
		say("%s: loaded %zu modules for the devices, in %llu ms",
		    KABIDIFF_VERSION, coldplug(&a->loads),
		    (unsigned long long)(now_ms() - start));
	say("%s: streaming /sys and /proc/sys to %s", KABIDIFF_VERSION,
	    AGENT_CHANNEL);
	/* the summary below times the walk, not the loading before it */
	start = now_ms();
	ret = dump(a, fd, guest_trees, ARRAY_SIZE(guest_trees));
	/* every byte on the wire before power-off, a failed walk's too */
	if (a->shared && !a->shared->out.error)
		tcdrain(fd);
	close(fd);
	if (!a->shared)
		return;
	s = a->shared;
	ms = now_ms() - start;
	say("%s: %llu nodes, %llu bytes in %llu.%03llu s, %llu reads timed out%s",
	    ret ? "failed" : "done",
	    (unsigned long long)s->nodes, (unsigned long long)s->out.bytes,
	    (unsigned long long)ms / 1000, (unsigned long long)ms % 1000,
	    (unsigned long long)s->timeouts,
	    a->stuck ? ", some stuck in the kernel" : "");
}

/* ---- the host ---- */

static const char usage[] =
"usage: kabi-agent --root DIR [--prefix PATH] [--read-timeout MSEC] [--read-other]\n"
"\n"
"Walks DIR without following links and writes the stream that the guest\n"
"agent sends from inside QEMU to standard output (docs/agent-stream.md).\n"
"As PID 1, the /init of a guest, it ignores its arguments, mounts sysfs and\n"
"procfs read-only, sends the stream of /sys and /proc/sys on /dev/ttyS1 and\n"
"powers the machine off.\n"
"\n"
"  --root DIR           the directory to walk\n"
"  --prefix PATH        what DIR is called in the stream (default: /sys)\n"
"  --read-timeout MSEC  give up reading a value after MSEC ms (default: 1000)\n"
"  --read-other         also read FIFOs, sockets and devices (tests the timeout)\n"
"  -h, --help           show this help\n"
"  --version            show the version\n";

static int bad_usage(const char *what, const char *arg)
{
	say("%s%s; try --help", what, arg);
	return 2;
}

static int run_host(struct agent *a, int argc, char **argv)
{
	enum { OPT_ROOT = 256, OPT_PREFIX, OPT_TIMEOUT, OPT_OTHER, OPT_VERSION };
	static const struct option options[] = {
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ "read-timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "read-other", no_argument, NULL, OPT_OTHER },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct tree tree = { .prefix = "/sys" };
	unsigned long ms;
	char *end;
	int opt;

	opterr = 0;
	for (;;) {
		opt = getopt_long(argc, argv, "h", options, NULL);
		if (opt == -1)
			break;
		switch (opt) {
		case OPT_ROOT:
			tree.root = optarg;
			break;
		case OPT_PREFIX:
			tree.prefix = optarg;
			break;
		case OPT_TIMEOUT:
			errno = 0;
			ms = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !ms || ms > 600000)
				return bad_usage("--read-timeout wants milliseconds from 1 to 600000, not ", optarg);
			a->timeout_ms = ms;
			break;
		case OPT_OTHER:
			a->read_other = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return fflush(stdout) || ferror(stdout) ? 2 : 0;
		case OPT_VERSION:
			printf("kabi-agent %s\n", KABIDIFF_VERSION);
			return fflush(stdout) || ferror(stdout) ? 2 : 0;
		default:
			return bad_usage("unknown option ", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument ", argv[optind]);
	if (!tree.root)
		return bad_usage("--root DIR is needed", "");
	if (tree.prefix[0] != '/' || strlen(tree.prefix) >= PATH_MAX ||
	    (tree.prefix[1] && tree.prefix[strlen(tree.prefix) - 1] == '/') ||
	    !strcmp(tree.prefix, "/"))
		return bad_usage("--prefix wants an absolute path without a trailing '/', not ", tree.prefix);
	if (strlen(tree.root) >= PATH_MAX)
		return bad_usage("--root is too long", "");
	if (isatty(STDOUT_FILENO))
		return bad_usage("the stream is binary: redirect standard output", "");

	return dump(a, STDOUT_FILENO, &tree, 1) ? 2 : 0;
}

int main(int argc, char **argv)
{
	static struct agent agent = { .timeout_ms = AGENT_TIMEOUT_MS };

	const char *self = strrchr(argv[0], '/');

	/* the kernel's request_module() runs /sbin/modprobe, a link to us */
	if (!strcmp(self ? self + 1 : argv[0], "modprobe"))
		return modprobe_main(argc, argv);
	/* a closed standard output is an error to report, not a death */
	signal(SIGPIPE, SIG_IGN);
	if (getpid() == 1) {
		run_guest(&agent);
		power_off();
	}
	agent.host = true;
	return run_host(&agent, argc, argv);
}
