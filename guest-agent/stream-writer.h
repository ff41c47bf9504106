/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing the stream of stream.h: its frames, buffered, with the running
 * checksum and the node count the trailer carries.  The host's reader is
 * collectors/sysfs/stream-reader.c.  Private to the agent.
 */
#ifndef KABI_STREAM_WRITER_H
#define KABI_STREAM_WRITER_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "stream.h"

struct answer;
struct load;
struct utsname;

/* the stream being written, with its running checksum */
struct out {
	int fd;
	int error;		/* the first write error, -errno */
	uint32_t crc;		/* of every byte put so far */
	uint64_t bytes;		/* put so far */
	uint64_t nodes;		/* node records written */
	/* the last record's path, which the next one's is relative to */
	size_t prev_len;
	char prev[2 * PATH_MAX + 2];
	size_t len;		/* waiting in buf */
	unsigned char buf[1 << 16];
};

/*
 * out_flush() - write what waits in @o's buffer to its fd.  After the first
 * failed write, nothing more is written and @o->error says why.
 */
void out_flush(struct out *o);

/*
 * out_header() - the magic and the header frame: @u's release, version
 * and machine, @flags (STREAM_F_*) and the agent's @timeout_ms.
 */
void out_header(struct out *o, const struct utsname *u, unsigned int flags,
		unsigned int timeout_ms);

/*
 * out_node() - a node's record: its @kind, @mode, the @plen bytes of its
 * @path in the stream, a link's @tlen bytes of @target, and its value
 * @ans.  Counts it in @o->nodes.
 */
void out_node(struct out *o, enum stream_kind kind, unsigned int mode,
	      const char *path, size_t plen, const char *target, size_t tlen,
	      const struct answer *ans);

/* out_load() - a module load's record */
void out_load(struct out *o, const struct load *l);

/* out_trailer() - the trailer: the number of node records, and the checksum */
void out_trailer(struct out *o);

#endif /* KABI_STREAM_WRITER_H */
