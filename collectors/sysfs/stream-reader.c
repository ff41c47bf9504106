// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the guest agent's stream.  Nothing in it is trusted: every length
 * is checked against what is left, every frame against its type's layout,
 * and the trailer's node count and CRC-32 against what came before, so a
 * truncated or damaged dump is an error and never a snapshot that lacks
 * nodes without saying so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest-agent/stream.h"
#include "lib/array.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "stream-reader.h"

/* Where the reader is in the stream. */
struct cursor {
	const unsigned char *p, *end;
};

struct bytes {
	const unsigned char *p;
	size_t len;
};

static bool take(struct cursor *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	*out = c->p;
	c->p += n;
	return true;
}

static bool take_str(struct cursor *c, struct bytes *s)
{
	const unsigned char *len;

	if (!take(c, 2, &len))
		return false;
	s->len = stream_get_le16(len);
	return take(c, s->len, &s->p);
}

static char *bytes_dup(const struct bytes *b)
{
	char *s = malloc(b->len + 1);

	if (s) {
		memcpy(s, b->p, b->len);
		s[b->len] = '\0';
	}
	return s;
}

static bool is_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

static bool is_hex(const char *s, size_t len)
{
	size_t i;

	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (i = 2; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/*
 * Whether the words after the first are all KEY=VALUE breakdowns, as in
 * the slab statistics "34 N0=34" or "7(1) C0=7(1)": the kernel prints them
 * only when they are not zero, so they are not part of the shape.
 */
static bool only_breakdowns(const char *v, size_t len, size_t first)
{
	const char *p = v + first, *end = v + len;

	while (p < end) {
		const char *word;

		while (p < end && *p == ' ')
			p++;
		word = p;
		while (p < end && *p != ' ')
			p++;
		if (p > word && !memchr(word, '=', p - word))
			return false;
	}
	return true;
}

/* The shape of one line with no newline: a number, a word, a list. */
static enum value_shape line_shape(const char *v, size_t len)
{
	bool choice = false, several = false;
	size_t i, first = len;

	for (i = 0; i < len; i++) {
		if ((v[i] == ' ' || v[i] == '\t') && !several) {
			several = true;
			first = i;
		}
		if (v[i] == '[')
			choice = true;
	}
	if (several && !choice && only_breakdowns(v, len, first)) {
		len = first;
		several = false;
	}
	if (several)
		return choice ? SHAPE_CHOICE : SHAPE_LIST;
	if (is_digits(v, len))
		return SHAPE_UINT;
	if (len > 1 && v[0] == '-' && is_digits(v + 1, len - 1))
		return SHAPE_INT;
	if (is_hex(v, len))
		return SHAPE_HEX;
	return choice ? SHAPE_CHOICE : SHAPE_WORD;
}

enum value_shape value__shape(const char *v, size_t len)
{
	const char *nl;
	size_t i;

	while (len && (v[len - 1] == '\n' || v[len - 1] == ' '))
		len--;
	while (len && v[0] == ' ') {
		v++;
		len--;
	}
	if (!len)
		return SHAPE_EMPTY;
	for (i = 0; i < len; i++) {
		unsigned char c = v[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return SHAPE_BINARY;
	}
	nl = memchr(v, '\n', len);
	return nl ? SHAPE_TEXT : line_shape(v, len);
}

struct reader {
	const char *origin;
	bool keep_raw;
	struct snapshot *s;
	const unsigned char *buf;
	uint64_t nodes;
	/*
	 * the last node's path, which the next one's is written against: ""
	 * before the first, never NULL, so that copying its first 0 bytes
	 * is a copy from a valid pointer
	 */
	const char *prev;	/* owned by the snapshot, or a literal */
	size_t prev_len;
	size_t first;		/* the first node's index in s->sysfs */
	size_t *offsets;	/* each node's frame, for check_unique() */
	size_t nr_offsets, alloc_offsets;
	unsigned int version;	/* the header's */
	uint64_t modules;	/* module frames read: no node may follow */
};

/*
 * bad() - report that the stream is refused because of what is at byte @off
 * (the frame at fault, or the end of a stream cut short): "ORIGIN: byte N:
 * WHAT", WHAT worded as tests/agent/stream.py words it, so that the two
 * readers can be compared message for message.  Returns -EINVAL.
 */
static int __printf(3, 4) bad(const struct reader *r, size_t off,
			      const char *fmt, ...)
{
	va_list ap;
	char *what;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (n < 0) {
		pr_err("%s: byte %zu: the agent's stream is corrupt", r->origin,
		       off);
		return -EINVAL;
	}
	pr_err("%s: byte %zu: %s", r->origin, off, what);
	free(what);
	return -EINVAL;
}

/*
 * A path for a message, as stream.py's esc() writes it: printable ASCII but
 * the space as it is, a backslash doubled, any other byte as \xHH.
 */
static char *escape(const char *p, size_t len)
{
	char *out = malloc(4 * len + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else if (c > 0x20 && c < 0x7f) {
			*o++ = c;
		} else {
			snprintf(o, 5, "\\x%02x", c);
			o += 4;
		}
	}
	*o = '\0';
	return out;
}

static int read_header(struct reader *r, size_t off, struct cursor *payload)
{
	struct bytes agent, release, kversion, machine;
	const unsigned char *fixed;
	unsigned int version, flags;
	uint32_t cap;
	char *rel;

	if (!take(payload, STREAM_HEADER_FIXED, &fixed))
		return bad(r, off, "header: its fields run past its length");
	version = stream_get_le16(fixed);
	flags = stream_get_le16(fixed + 2);
	cap = stream_get_le32(fixed + 4);
	if (version < STREAM_VERSION_MIN || version > STREAM_VERSION)
		return bad(r, off, "format version %u, this reader knows %d to %d",
			   version, STREAM_VERSION_MIN, STREAM_VERSION);
	r->version = version;
	if (flags & ~STREAM_F_HOST)
		return bad(r, off, "unknown flags 0x%04x", flags);
	if (cap != STREAM_VALUE_CAP)
		return bad(r, off, "value cap %" PRIu32 ", expected %d", cap,
			   STREAM_VALUE_CAP);
	if (!take_str(payload, &agent) || !take_str(payload, &release) ||
	    !take_str(payload, &kversion) || !take_str(payload, &machine))
		return bad(r, off, "header: its fields run past its length");
	if (payload->p != payload->end)
		return bad(r, off, "header: %td bytes left over after its fields",
			   payload->end - payload->p);
	if (r->s->kernel.release)
		return 0;
	rel = bytes_dup(&release);
	if (!rel)
		return -ENOMEM;
	r->s->kernel.release = rel;
	return 0;
}

static const enum node_kind kinds[] = {
	[STREAM_KIND_DIR]	= NODE_DIR,
	[STREAM_KIND_FILE]	= NODE_FILE,
	[STREAM_KIND_LINK]	= NODE_LINK,
	[STREAM_KIND_OTHER]	= NODE_OTHER,
};

/* the names of docs/agent-stream.md and stream.py, for messages */
static const char *const kind_names[] = {
	[STREAM_KIND_DIR]	= "dir",
	[STREAM_KIND_FILE]	= "file",
	[STREAM_KIND_LINK]	= "link",
	[STREAM_KIND_OTHER]	= "other",
};

static const char *const value_names[] = {
	[STREAM_VAL_NONE]	= "none",
	[STREAM_VAL_DATA]	= "data",
	[STREAM_VAL_TRUNCATED]	= "truncated",
	[STREAM_VAL_OPEN_ERROR]	= "open-error",
	[STREAM_VAL_READ_ERROR]	= "read-error",
	[STREAM_VAL_TIMEOUT]	= "timeout",
};

/* The value of a file node: its shape, the error, the raw bytes. */
static int set_value(const struct reader *r, struct sysfs_node *n,
		     unsigned int how, const struct bytes *value)
{
	switch (how) {
	case STREAM_VAL_NONE:
		return 0;
	case STREAM_VAL_DATA:
	case STREAM_VAL_TRUNCATED:
		n->value.shape = value__shape((const char *)value->p, value->len);
		if (r->keep_raw && n->value.shape != SHAPE_BINARY &&
		    !memchr(value->p, '\0', value->len)) {
			n->value.raw = bytes_dup(value);
			if (!n->value.raw)
				return -ENOMEM;
		}
		return 0;
	case STREAM_VAL_TIMEOUT:
		n->value.shape = SHAPE_UNREADABLE;
		n->value.error = strdup("ETIMEDOUT");
		return n->value.error ? 0 : -ENOMEM;
	default:
		n->value.shape = SHAPE_UNREADABLE;
		n->value.error = bytes_dup(value);
		return n->value.error ? 0 : -ENOMEM;
	}
}

/*
 * A node's path comes as how many bytes it shares with the previous one and
 * the rest (docs/agent-stream.md): sorted paths share long prefixes.
 */
static char *node_path(struct reader *r, size_t same, const struct bytes *rest)
{
	char *path = malloc(same + rest->len + 1);

	if (!path)
		return NULL;
	memcpy(path, r->prev, same);
	memcpy(path + same, rest->p, rest->len);
	path[same + rest->len] = '\0';
	return path;
}

/* absolute and clean: starts with '/', no NUL, no "//", no final '/' */
static bool clean_path(const char *p, size_t len)
{
	size_t i;

	if (!len || p[0] != '/' || p[len - 1] == '/')
		return false;
	for (i = 0; i < len; i++)
		if (!p[i] || (p[i] == '/' && i + 1 < len && p[i + 1] == '/'))
			return false;
	return true;
}

/* an errno's name or number: letters and digits, at least one */
static bool errno_name(const struct bytes *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (!((b->p[i] >= '0' && b->p[i] <= '9') ||
		      (b->p[i] >= 'A' && b->p[i] <= 'Z') ||
		      (b->p[i] >= 'a' && b->p[i] <= 'z')))
			return false;
	return b->len > 0;
}

/*
 * Whether a node's fields agree with one another and with the spec, in the
 * order stream.py checks them; reports the first that does not.
 */
static int check_node(struct reader *r, size_t off, const unsigned char *fixed,
		      const char *path, size_t len, const struct bytes *target,
		      const struct bytes *value)
{
	unsigned int kind = fixed[0], how = fixed[1];
	unsigned int mode = stream_get_le16(fixed + 2);
	uint64_t n = r->nodes;

	if (kind > STREAM_KIND_OTHER)
		return bad(r, off, "node %" PRIu64 ": unknown kind %u", n, kind);
	if (how > STREAM_VAL_MAX)
		return bad(r, off, "node %" PRIu64 ": unknown value status %u",
			   n, how);
	if (mode & ~07777)
		return bad(r, off, "node %" PRIu64 ": mode 0%o is more than permission bits",
			   n, mode);
	if (!clean_path(path, len)) {
		char *e = escape(path, len);
		int err;

		if (!e)
			return -ENOMEM;
		err = bad(r, off, "node %" PRIu64 ": path \"%s\" is not a clean absolute path",
			  n, e);
		free(e);
		return err;
	}
	if (target->len && kind != STREAM_KIND_LINK)
		return bad(r, off, "node %" PRIu64 ": a %s with a target", n,
			   kind_names[kind]);
	if (memchr(target->p, '\0', target->len))
		return bad(r, off, "node %" PRIu64 ": a target holding a NUL byte",
			   n);
	if ((how == STREAM_VAL_NONE || how == STREAM_VAL_TIMEOUT) && value->len)
		return bad(r, off, "node %" PRIu64 ": %s with a value", n,
			   value_names[how]);
	if (how == STREAM_VAL_TRUNCATED && value->len != STREAM_VALUE_CAP)
		return bad(r, off, "node %" PRIu64 ": truncated at %zu bytes, not %d",
			   n, value->len, STREAM_VALUE_CAP);
	if (how == STREAM_VAL_DATA && value->len > STREAM_VALUE_CAP)
		return bad(r, off, "node %" PRIu64 ": data of %zu bytes, over the cap of %d",
			   n, value->len, STREAM_VALUE_CAP);
	if ((how == STREAM_VAL_OPEN_ERROR || how == STREAM_VAL_READ_ERROR) &&
	    !errno_name(value))
		return bad(r, off, "node %" PRIu64 ": %s without an errno name",
			   n, value_names[how]);
	if ((kind == STREAM_KIND_DIR || kind == STREAM_KIND_LINK) &&
	    how != STREAM_VAL_NONE)
		return bad(r, off, "node %" PRIu64 ": a %s with a value", n,
			   kind_names[kind]);
	return 0;
}

static int read_node(struct reader *r, size_t off, struct cursor *payload)
{
	struct bytes rest, target, value;
	const unsigned char *fixed;
	struct sysfs_node *n;
	size_t same, len, *offset;
	char *path;
	int err;

	if (!take(payload, STREAM_NODE_FIXED, &fixed) ||
	    !take_str(payload, &rest) || !take_str(payload, &target) ||
	    !take_str(payload, &value))
		return bad(r, off, "node %" PRIu64 ": its fields run past its length",
			   r->nodes);
	if (payload->p != payload->end)
		return bad(r, off, "node %" PRIu64 ": %td bytes left over after its fields",
			   r->nodes, payload->end - payload->p);
	same = stream_get_le16(fixed + 4);
	if (same > r->prev_len)
		return bad(r, off, "node %" PRIu64 ": shares %zu bytes with a previous path of %zu",
			   r->nodes, same, r->prev_len);
	len = same + rest.len;
	path = node_path(r, same, &rest);
	if (!path)
		return -ENOMEM;
	err = check_node(r, off, fixed, path, len, &target, &value);
	offset = err ? NULL : ARRAY_APPEND(r->offsets, r->nr_offsets,
					   r->alloc_offsets);
	n = offset ? snapshot__add_sysfs_node(r->s) : NULL;
	if (!n) {
		free(path);
		return err ? err : -ENOMEM;
	}
	*offset = off;
	n->kind = kinds[fixed[0]];
	n->mode = stream_get_le16(fixed + 2);
	n->path = path;
	r->prev = path;
	r->prev_len = len;
	if (n->kind == NODE_LINK) {
		n->target = bytes_dup(&target);
		if (!n->target)
			return -ENOMEM;
	}
	r->nodes++;
	return n->kind == NODE_FILE ? set_value(r, n, fixed[1], &value) : 0;
}

static const enum module_how hows[] = {
	[STREAM_LOAD_DEVICE]		= MODULE_FOR_DEVICE,
	[STREAM_LOAD_DEPENDENCY]	= MODULE_FOR_DEPENDENCY,
	[STREAM_LOAD_REQUEST]		= MODULE_FOR_REQUEST,
	[STREAM_LOAD_BOOT]		= MODULE_FOR_BOOT,
};

/* A module the guest loaded: into the machine's list, as it comes. */
static int read_module(struct reader *r, size_t off, struct cursor *payload)
{
	struct bytes name, cause;
	const unsigned char *fixed;
	struct module_load *m;
	uint32_t err;

	if (r->version < 2)
		return bad(r, off, "a module frame in a stream of version %u",
			   r->version);
	if (!take(payload, STREAM_MODULE_FIXED, &fixed) ||
	    !take_str(payload, &name) || !take_str(payload, &cause))
		return bad(r, off, "module %" PRIu64 ": its fields run past its length",
			   r->modules);
	if (payload->p != payload->end)
		return bad(r, off, "module %" PRIu64 ": %td bytes left over after its fields",
			   r->modules, payload->end - payload->p);
	if (fixed[0] > STREAM_LOAD_MAX)
		return bad(r, off, "module %" PRIu64 ": unknown cause %u",
			   r->modules, fixed[0]);
	if (!name.len)
		return bad(r, off, "module %" PRIu64 ": no name", r->modules);
	m = machine__add_module(&r->s->machine);
	if (!m)
		return -ENOMEM;
	r->s->machine.recorded = true;
	r->modules++;
	m->how = hows[fixed[0]];
	err = stream_get_le32(fixed + 1);
	m->name = bytes_dup(&name);
	m->cause = bytes_dup(&cause);
	m->error = err ? strdup(strerrorname_np(err) ?: "an unknown error") : NULL;
	return m->name && m->cause && (!err || m->error) ? 0 : -ENOMEM;
}

static int read_trailer(struct reader *r, size_t off, struct cursor *payload)
{
	const unsigned char *t = payload->p;
	uint64_t count;
	uint32_t crc, mine;

	if (payload->end - payload->p != STREAM_TRAILER_LEN)
		return bad(r, off, "trailer of %td bytes, not %d",
			   payload->end - payload->p, STREAM_TRAILER_LEN);
	count = stream_get_le64(t);
	crc = stream_get_le32(t + 8);
	mine = stream_crc32(0, r->buf, t + 8 - r->buf);
	if (crc != mine)
		return bad(r, off, "checksum mismatch: the trailer says 0x%08" PRIx32 ", the bytes give 0x%08" PRIx32,
			   crc, mine);
	if (count != r->nodes)
		return bad(r, off, "the trailer counts %" PRIu64 " nodes, the stream holds %" PRIu64,
			   count, r->nodes);
	return 0;
}

static int node_cmp(const void *a, const void *b, void *ctx)
{
	const struct sysfs_node *v = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(v[i].path, v[j].path);

	return c ? c : i < j ? -1 : i > j;
}

/*
 * No path comes twice: refuse the first node, in stream order, whose path
 * an earlier node had.  Checked once the stream is whole, as stream.py
 * does, so that both readers name the same fault.
 */
static int check_unique(struct reader *r)
{
	const struct sysfs_node *v = r->s->sysfs.v + r->first;
	size_t *order = malloc((r->nodes + 1) * sizeof(*order));
	size_t i, repeat = SIZE_MAX, before = 0;
	char *path;
	int err;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < r->nodes; i++)
		order[i] = i;
	qsort_r(order, r->nodes, sizeof(*order), node_cmp, (void *)v);
	/* in a run of one path, by position: the second is its first repeat */
	for (i = 1; i < r->nodes; i++)
		if (!strcmp(v[order[i - 1]].path, v[order[i]].path) &&
		    (i < 2 || strcmp(v[order[i - 2]].path, v[order[i]].path)) &&
		    order[i] < repeat) {
			repeat = order[i];
			before = order[i - 1];
		}
	free(order);
	if (repeat == SIZE_MAX)
		return 0;
	path = escape(v[repeat].path, strlen(v[repeat].path));
	err = path ? bad(r, r->offsets[repeat],
			 "node %zu: path \"%s\" came before, as node %zu",
			 repeat, path, before) : -ENOMEM;
	free(path);
	return err;
}

/* The frames after the magic, up to the trailer and what follows it. */
static int read_frames(struct reader *r, size_t len)
{
	const unsigned char *buf = r->buf;
	size_t pos = STREAM_MAGIC_LEN;
	bool header = false;

	while (pos < len) {
		struct cursor payload;
		size_t off = pos;
		unsigned int type;
		uint32_t size;
		int err;

		if (len - pos < STREAM_FRAME_HEAD)
			return bad(r, off, "truncated inside a frame's head");
		type = buf[pos];
		size = stream_get_le32(buf + pos + 1);
		if (size > STREAM_MAX_PAYLOAD)
			return bad(r, off, "frame length %" PRIu32 " is over %d: corrupt",
				   size, STREAM_MAX_PAYLOAD);
		if (len - pos - STREAM_FRAME_HEAD < size)
			return bad(r, off, "truncated: the frame needs %" PRIu32 " bytes, %zu remain",
				   size, len - pos - STREAM_FRAME_HEAD);
		payload.p = buf + pos + STREAM_FRAME_HEAD;
		payload.end = payload.p + size;
		pos += STREAM_FRAME_HEAD + size;
		if (type == STREAM_HEADER) {
			if (header)
				return bad(r, off, "a header that is not first");
			header = true;
			err = read_header(r, off, &payload);
		} else if (!header) {
			return bad(r, off, "the first frame is not the header");
		} else if (type == STREAM_NODE && r->modules) {
			return bad(r, off, "a node after the modules");
		} else if (type == STREAM_NODE) {
			err = read_node(r, off, &payload);
		} else if (type == STREAM_MODULE) {
			err = read_module(r, off, &payload);
		} else if (type == STREAM_TRAILER) {
			err = read_trailer(r, off, &payload);
			if (!err && pos != len)
				err = bad(r, pos, "%zu bytes after the trailer",
					  len - pos);
			return err ? err : check_unique(r);
		} else {
			return bad(r, off, "unknown frame type 0x%02x", type);
		}
		if (err)
			return err;
	}
	if (!header)
		return bad(r, len, "truncated: no header");
	return bad(r, len, "no trailer: the stream ends after %" PRIu64 " nodes",
		   r->nodes);
}

int sysfs_stream__read(const unsigned char *buf, size_t len,
		       const char *origin, bool keep_raw, struct snapshot *s)
{
	/* the first node's path is written against the empty path */
	struct reader r = { .origin = origin, .keep_raw = keep_raw, .s = s,
			    .buf = buf, .prev = "", .first = s->sysfs.nr };
	int err;

	/* checked before any pointer arithmetic: @buf may be NULL when @len is 0 */
	if (len < STREAM_MAGIC_LEN ||
	    memcmp(buf, STREAM_MAGIC, STREAM_MAGIC_LEN)) {
		pr_err("%s: no agent stream (%zu bytes without the agent's magic): did the guest start the agent?",
		       origin, len);
		return -EINVAL;
	}
	s->sysfs.collected = true;
	err = read_frames(&r, len);
	free(r.offsets);
	return err;
}
