// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the reader of the guest agent's stream
 * (collectors/sysfs/stream-reader.c, docs/agent-stream.md).
 *
 * The first input byte chooses how the rest is read; the rest is the
 * stream, handed to sysfs_stream__read() as collect --sysfs-stream hands it
 * a file's bytes.  Bit 0 set: the last 4 bytes are first overwritten with
 * the CRC-32 of all before them, as the spec defines the trailer's crc for
 * a stream that ends in its trailer.  The reader checks the CRC last, at
 * the trailer, so the records are parsed either way; but nearly every
 * mutation changes the CRC, and without the fix-up almost no mutated input
 * would be accepted, so what follows acceptance (the node count, bytes
 * after the trailer, sorting and writing what was read) would only ever
 * see the seeds.  Bit 0 clear: the bytes as they are, so a wrong CRC is
 * exercised too.  Bit 1 asks the reader to keep raw values.
 *
 * Besides what ASan and UBSan catch, the harness aborts when the reader
 * returns anything but 0, -EINVAL or -ENOMEM; refuses without exactly one
 * message of the documented form ("fuzz: byte N: what" with N at most the
 * length, or "fuzz: no agent stream (N bytes ..."), or succeeds with one;
 * accepts a node whose path is not clean and absolute, whose mode is more
 * than permission bits, or a stream it says it verified that has no
 * trailer.  What it accepts must sort (no path twice: the reader refuses
 * that) and be written as JSON (to /dev/null).
 *
 *   make fuzz-build && build/fuzz/fuzz-stream build/fuzz/corpus-stream
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/sysfs/stream-reader.h"
#include "guest-agent/stream.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "model/model.h"
#include "model/snapshot-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the first byte's bits */
#define FIX_CRC		0x01
#define KEEP_RAW	0x02

#define TRAILER_FRAME	(STREAM_FRAME_HEAD + STREAM_TRAILER_LEN)

static FILE *devnull;
static unsigned int errors;
static char first_error[512];

static void count_errors(enum kabi_print_level level, const char *fmt,
			 va_list ap)
{
	if (level == KABI_ERROR && !errors++)
		vsnprintf(first_error, sizeof(first_error), fmt, ap);
}

static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz-stream: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The refusal was said once, as docs/agent-stream.md words it. */
static void check_refusal(size_t len)
{
	unsigned long long at;
	int end = 0;

	if (errors != 1)
		fail("refused with %u messages, the first '%s'", errors,
		     first_error);
	if (!strncmp(first_error, "fuzz: no agent stream (", 23))
		return;
	if (sscanf(first_error, "fuzz: byte %llu: %n", &at, &end) != 1 ||
	    !end || !first_error[end] || at > len)
		fail("refused a stream of %zu bytes with '%s'", len,
		     first_error);
}

static bool clean_path(const char *p)
{
	size_t len = strlen(p);

	return p[0] == '/' && p[len - 1] != '/' && !strstr(p, "//");
}

static void check_nodes(const struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->sysfs.nr; i++) {
		const struct sysfs_node *n = &s->sysfs.v[i];

		if (!n->path || !clean_path(n->path) || n->mode > 07777 ||
		    n->kind > NODE_OTHER || (n->kind == NODE_LINK && !n->target))
			fail("accepted node %zu: kind %d mode 0%o path %s", i,
			     n->kind, n->mode, n->path ? n->path : "(none)");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf;
	struct snapshot *s;
	size_t len;
	int err, mode;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}
	if (!size)
		return 0;
	mode = data[0];
	len = size - 1;
	/* a copy of just the stream's bytes, so ASan sees any overrun */
	buf = malloc(len ? len : 1);
	s = snapshot__new();
	if (!buf || !s)
		abort();
	memcpy(buf, data + 1, len);
	if ((mode & FIX_CRC) && len >= STREAM_MAGIC_LEN + 4)
		stream_put_le32(buf + len - 4, stream_crc32(0, buf, len - 4));

	kabi_set_print(count_errors);
	errors = 0;
	err = sysfs_stream__read(buf, len, "fuzz", mode & KEEP_RAW, s);
	if (err && err != -EINVAL && err != -ENOMEM)
		fail("sysfs_stream__read returned %d", err);
	if (err == -EINVAL)
		check_refusal(len);
	if (!err && errors)
		fail("accepted the stream but said '%s'", first_error);
	if (!err) {
		check_nodes(s);
		if (len < STREAM_MAGIC_LEN + TRAILER_FRAME ||
		    buf[len - TRAILER_FRAME] != STREAM_TRAILER)
			fail("accepted a stream of %zu bytes that ends in no trailer",
			     len);
		kabi_set_print(NULL);
		err = snapshot__sort(s, "fuzz");
		if (err && err != -ENOMEM)
			fail("snapshot__sort returned %d", err);
	}
	if (!err) {
		err = snapshot__write(s, devnull);
		if (err && err != -ENOMEM)
			fail("snapshot__write returned %d", err);
		fflush(devnull);
		clearerr(devnull);
	}
	snapshot__free(s);
	free(buf);
	return 0;
}
