// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"
#include "coldplug.h"
#include "stream-writer.h"
#include "value.h"

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

void out_flush(struct out *o)
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

void out_header(struct out *o, const struct utsname *u, unsigned int flags,
		unsigned int timeout_ms)
{
	static const char version[] = KABIDIFF_VERSION;
	size_t lr = strlen(u->release), lv = strlen(u->version);
	size_t lm = strlen(u->machine);

	out_put(o, STREAM_MAGIC, STREAM_MAGIC_LEN);
	out_frame(o, STREAM_HEADER, STREAM_HEADER_FIXED +
		  2 + strlen(version) + 2 + lr + 2 + lv + 2 + lm);
	out_u16(o, STREAM_VERSION);
	out_u16(o, flags);
	out_u32(o, STREAM_VALUE_CAP);
	out_u32(o, timeout_ms);
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
void out_node(struct out *o, enum stream_kind kind, unsigned int mode,
	      const char *path, size_t plen, const char *target, size_t tlen,
	      const struct answer *ans)
{
	size_t same = 0;

	while (same < plen && same < o->prev_len &&
	       same < UINT16_MAX && path[same] == o->prev[same])
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
	memcpy(o->prev + same, path + same, plen - same);
	o->prev_len = plen;
	o->nodes++;
}

void out_load(struct out *o, const struct load *l)
{
	size_t ln = strlen(l->name), lc = strlen(l->cause);

	out_frame(o, STREAM_MODULE, STREAM_MODULE_FIXED + 2 + ln + 2 + lc);
	out_u8(o, l->how);
	out_u32(o, l->err);
	out_str(o, l->name, ln);
	out_str(o, l->cause, lc);
}

void out_trailer(struct out *o)
{
	unsigned char crc[4];

	out_frame(o, STREAM_TRAILER, STREAM_TRAILER_LEN);
	out_u64(o, o->nodes);
	stream_put_le32(crc, o->crc);
	out_put(o, crc, sizeof(crc));
}
