/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading one file's value for the stream: capped, read-only, never
 * through a link.  Private to the agent.
 */
#ifndef KABI_VALUE_H
#define KABI_VALUE_H

#include <stddef.h>

#include "stream.h"

/* one file's value, as the stream carries it */
struct answer {
	unsigned int status;	/* enum stream_value */
	size_t len;
	char data[STREAM_VALUE_CAP + 1];	/* one more: is there more? */
};

/*
 * value_read() - open and read @path into @ans: at most STREAM_VALUE_CAP
 * bytes of it (STREAM_VAL_DATA or STREAM_VAL_TRUNCATED), or the name of
 * the errno that open() or read() failed with (STREAM_VAL_OPEN_ERROR,
 * STREAM_VAL_READ_ERROR).  May sleep as long as the file's show() does.
 */
void value_read(const char *path, struct answer *ans);

#endif /* KABI_VALUE_H */
