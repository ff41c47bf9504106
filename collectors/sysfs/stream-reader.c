// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the guest agent's stream.  Nothing in it is trusted: every length
 * is checked against what is left, every frame against its type's layout,
 * and the trailer's node count and CRC-32 against what came before, so a
 * truncated or damaged dump is an error and never a snapshot that lacks
 * nodes without saying so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guest-agent/stream.h"
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
	uint64_t nodes;
	/*
	 * the last node's path, which the next one's is written against: ""
	 * before the first, never NULL, so that copying its first 0 bytes
	 * is a copy from a valid pointer
	 */
	const char *prev;	/* owned by the snapshot, or a literal */
	size_t prev_len;
};

static int corrupt(const struct reader *r, const char *what)
{
	pr_err("%s: the agent's stream is corrupt or cut short: %s", r->origin,
	       what);
	return -EINVAL;
}

static int read_header(struct reader *r, struct cursor *payload)
{
	struct bytes agent, release, kversion, machine;
	const unsigned char *fixed;
	char *rel;

	if (!take(payload, STREAM_HEADER_FIXED, &fixed) ||
	    !take_str(payload, &agent) || !take_str(payload, &release) ||
	    !take_str(payload, &kversion) || !take_str(payload, &machine))
		return corrupt(r, "short header");
	if (stream_get_le16(fixed) != STREAM_VERSION) {
		pr_err("%s: the agent speaks stream version %u, this kabidiff %d: use the agent built with it",
		       r->origin, stream_get_le16(fixed), STREAM_VERSION);
		return -EINVAL;
	}
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

static int read_node(struct reader *r, struct cursor *payload)
{
	struct bytes rest, target, value;
	const unsigned char *fixed;
	struct sysfs_node *n;
	unsigned int kind, how;
	size_t same;
	char *path;

	if (!take(payload, STREAM_NODE_FIXED, &fixed) ||
	    !take_str(payload, &rest) || !take_str(payload, &target) ||
	    !take_str(payload, &value) || payload->p != payload->end)
		return corrupt(r, "a node frame of the wrong length");
	kind = fixed[0];
	how = fixed[1];
	same = stream_get_le16(fixed + 4);
	if (kind > STREAM_KIND_OTHER || how > STREAM_VAL_MAX ||
	    same > r->prev_len || !(same + rest.len) ||
	    memchr(rest.p, '\0', rest.len) || memchr(target.p, '\0', target.len))
		return corrupt(r, "a node with an impossible kind, value or path");
	path = node_path(r, same, &rest);
	n = path ? snapshot__add_sysfs_node(r->s) : NULL;
	if (!n) {
		free(path);
		return -ENOMEM;
	}
	n->kind = kinds[kind];
	n->mode = stream_get_le16(fixed + 2) & 07777;
	n->path = path;
	r->prev = path;
	r->prev_len = same + rest.len;
	if (n->kind == NODE_LINK) {
		n->target = bytes_dup(&target);
		if (!n->target)
			return -ENOMEM;
	}
	r->nodes++;
	return n->kind == NODE_FILE ? set_value(r, n, how, &value) : 0;
}

static int read_trailer(struct reader *r, struct cursor *payload,
			const unsigned char *start)
{
	const unsigned char *t;

	if (!take(payload, STREAM_TRAILER_LEN, &t))
		return corrupt(r, "short trailer");
	if (stream_get_le64(t) != r->nodes)
		return corrupt(r, "the trailer counts another number of nodes");
	if (stream_get_le32(t + 8) != stream_crc32(0, start, t + 8 - start))
		return corrupt(r, "checksum mismatch");
	return 0;
}

int sysfs_stream__read(const unsigned char *buf, size_t len,
		       const char *origin, bool keep_raw, struct snapshot *s)
{
	/* the first node's path is written against the empty path */
	struct reader r = { .origin = origin, .keep_raw = keep_raw, .s = s,
			    .prev = "" };
	struct cursor c = { .p = buf, .end = buf + len };
	const unsigned char *magic, *head;
	bool header = false;
	int err = 0;

	if (!take(&c, STREAM_MAGIC_LEN, &magic) ||
	    memcmp(magic, STREAM_MAGIC, STREAM_MAGIC_LEN)) {
		pr_err("%s: no agent stream (%zu bytes without the agent's magic): did the guest start the agent?",
		       origin, len);
		return -EINVAL;
	}
	s->sysfs.collected = true;
	while (!err) {
		struct cursor payload;
		uint32_t size;

		if (c.p == c.end)
			return corrupt(&r, "it ends before the trailer");
		if (!take(&c, STREAM_FRAME_HEAD, &head))
			return corrupt(&r, "a cut frame header");
		size = stream_get_le32(head + 1);
		if (size > STREAM_MAX_PAYLOAD || !take(&c, size, &payload.p))
			return corrupt(&r, "a frame longer than what is left");
		payload.end = payload.p + size;
		if (header == (head[0] == STREAM_HEADER))
			return corrupt(&r, header ? "a second header" :
					   "no header frame first");
		switch (head[0]) {
		case STREAM_HEADER:
			header = true;
			err = read_header(&r, &payload);
			break;
		case STREAM_NODE:
			err = read_node(&r, &payload);
			break;
		case STREAM_TRAILER:
			err = read_trailer(&r, &payload, buf);
			if (!err && c.p != c.end)
				err = corrupt(&r, "bytes after the trailer");
			return err;
		default:
			err = corrupt(&r, "a frame of unknown type");
		}
	}
	return err;
}
