/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stream kabi-agent writes and the host reads, in C.  The specification,
 * with a worked example, is docs/agent-stream.md; this header is its
 * constants and the checksum.
 *
 * Exported to the host: one of the two headers of the agent's that the host
 * may include (with walk.h; make check-layers allows no other), for its
 * reader (collectors/sysfs/stream-reader.c).  It includes only libc headers
 * and defines no object, so the static agent and the host share it.
 *
 *	stream  := magic header node* module* trailer
 *	frame   := u8 type, u32 payload length, payload
 *
 * Integers are little-endian and unsigned.  A string is a u16 length and
 * that many bytes, with no terminating NUL (paths never hold NUL, values
 * may).
 */
#ifndef KABI_STREAM_H
#define KABI_STREAM_H

#include <stddef.h>
#include <stdint.h>

/*
 * The first 8 bytes.  As in PNG: the high byte catches a 7-bit channel, the
 * CR LF and the lone LF catch a line discipline that translates newlines.
 */
#define STREAM_MAGIC		"\x89KABI\r\n\n"
#define STREAM_MAGIC_LEN	8

/* version 2 added the module frames; a reader takes both */
#define STREAM_VERSION		2
#define STREAM_VERSION_MIN	1

/* a frame: type byte, payload length, payload */
#define STREAM_FRAME_HEAD	5
/* no frame of version 1 comes near this: a larger length is corruption */
#define STREAM_MAX_PAYLOAD	65536

enum stream_frame {
	STREAM_HEADER	= 'H',	/* once, first */
	STREAM_NODE	= 'N',	/* once per node */
	STREAM_MODULE	= 'M',	/* once per module load, after the nodes */
	STREAM_TRAILER	= 'T',	/* once, last */
};

/*
 * Header payload:
 *	u16 version		STREAM_VERSION
 *	u16 flags		STREAM_F_*
 *	u32 value_cap		STREAM_VALUE_CAP
 *	u32 timeout_ms		the agent's limit for reading one value
 *	str agent		the agent's version, "0.1"
 *	str release		uname -r
 *	str kversion		uname -v
 *	str machine		uname -m
 */
#define STREAM_HEADER_FIXED	12
#define STREAM_F_HOST		(1u << 0)	/* kabi-agent --root, not a guest */

/* at most this many bytes of a value are sent */
#define STREAM_VALUE_CAP	4096

/*
 * Node payload:
 *	u8  kind		enum stream_kind
 *	u8  value		enum stream_value: what the value string holds
 *	u16 mode		permission bits, 07777 at most
 *	u16 same		bytes of the previous node's path this one starts
 *				with (0 for the first node)
 *	str rest		the rest of the path: path = previous[0..same) + rest,
 *				"/sys/kernel/uevent_seqnum"
 *	str target		a link's contents, else empty
 *	str value		see enum stream_value
 */
#define STREAM_NODE_FIXED	6

enum stream_kind {
	STREAM_KIND_DIR		= 0,
	STREAM_KIND_FILE	= 1,
	STREAM_KIND_LINK	= 2,
	STREAM_KIND_OTHER	= 3,	/* FIFO, socket, device */
};

enum stream_value {
	STREAM_VAL_NONE		= 0,	/* not read (not a file); empty */
	STREAM_VAL_DATA		= 1,	/* the whole value */
	STREAM_VAL_TRUNCATED	= 2,	/* its first STREAM_VALUE_CAP bytes */
	STREAM_VAL_OPEN_ERROR	= 3,	/* open() failed: errno's name */
	STREAM_VAL_READ_ERROR	= 4,	/* read() failed: errno's name */
	STREAM_VAL_TIMEOUT	= 5,	/* no answer in timeout_ms; empty */
};
#define STREAM_VAL_MAX		STREAM_VAL_TIMEOUT

/*
 * Module payload (version 2): a module the agent, or the kernel through
 * /sbin/modprobe, loaded or tried to load
 *	u8  how			enum stream_load
 *	u32 error		0, or the errno finit_module() failed with
 *	str name		the module: "e1000e"
 *	str cause		what asked for it: a device's modalias, the
 *				module that depends on it, the name the kernel
 *				requested, "machine"
 */
#define STREAM_MODULE_FIXED	5

enum stream_load {
	STREAM_LOAD_DEVICE	= 0,	/* a device's modalias matched */
	STREAM_LOAD_DEPENDENCY	= 1,	/* a module loaded needs it */
	STREAM_LOAD_REQUEST	= 2,	/* the kernel's request_module() */
	STREAM_LOAD_BOOT	= 3,	/* the machine loads it, device or not */
};
#define STREAM_LOAD_MAX		STREAM_LOAD_BOOT

/*
 * Trailer payload:
 *	u64 nodes		how many node frames came before
 *	u32 crc			CRC-32 of every byte before this field
 */
#define STREAM_TRAILER_LEN	12

static inline void stream_put_le16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline void stream_put_le32(unsigned char *p, uint32_t v)
{
	stream_put_le16(p, v);
	stream_put_le16(p + 2, v >> 16);
}

static inline void stream_put_le64(unsigned char *p, uint64_t v)
{
	stream_put_le32(p, v);
	stream_put_le32(p + 4, v >> 32);
}

static inline uint16_t stream_get_le16(const unsigned char *p)
{
	return p[0] | (uint16_t)p[1] << 8;
}

static inline uint32_t stream_get_le32(const unsigned char *p)
{
	return stream_get_le16(p) | (uint32_t)stream_get_le16(p + 2) << 16;
}

static inline uint64_t stream_get_le64(const unsigned char *p)
{
	return stream_get_le32(p) | (uint64_t)stream_get_le32(p + 4) << 32;
}

/*
 * stream_crc32() - the CRC-32 of zlib, gzip and PNG (reflected polynomial
 * 0xedb88320), continued from @crc over @len bytes: start from 0, and
 * stream_crc32(stream_crc32(0, a, n), b, m) is the CRC of a and b together.
 * Python's zlib.crc32() gives the same numbers.
 *
 * Four bits at a time from a 16-entry table: small enough for a header,
 * fast enough for a few megabytes under TCG.
 */
static inline uint32_t stream_crc32(uint32_t crc, const void *buf, size_t len)
{
	static const uint32_t nibble[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
		0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
		0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return ~crc;
}

#endif /* KABI_STREAM_H */
