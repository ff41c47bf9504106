/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host side of the guest agent's stream (guest-agent/stream.h,
 * docs/agent-stream.md): verify it and turn it into the sysfs part of a
 * snapshot, values classified into shapes.
 */
#ifndef KABIDIFF_SYSFS_STREAM_H
#define KABIDIFF_SYSFS_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "model/snapshot-json.h"

/* The largest agent stream kabidiff reads: as large as a snapshot. */
#define STREAM_FILE_MAX		SNAPSHOT_FILE_MAX

/*
 * value__shape() - what kind of content the @len bytes at @v are: an
 * unsigned or signed number, a hex number, a word, a choice list
 * ("a [b] c"), a list, several lines of text, empty, or binary.  A final
 * newline is not content.
 */
enum value_shape value__shape(const char *v, size_t len);

/*
 * sysfs_stream__read() - verify the stream of @len bytes at @buf and add
 * its nodes to @s (marking the sysfs part collected), each value as its
 * shape, and the raw value too with @keep_raw.  Sets the kernel release
 * from the header when @s has none.
 *
 * Returns 0; -EINVAL for a stream that breaks any rule of "What a reader
 * must refuse" in docs/agent-stream.md (truncated, corrupt, of another
 * format version, a trailer's count or checksum that does not match), with
 * one message through kabi_pr(), "@origin: byte N: what", worded as
 * tests/agent/stream.py words it; -ENOMEM.
 */
int sysfs_stream__read(const unsigned char *buf, size_t len,
		       const char *origin, bool keep_raw, struct snapshot *s);

#endif /* KABIDIFF_SYSFS_STREAM_H */
