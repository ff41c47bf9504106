// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "value.h"

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
void value_read(const char *path, struct answer *ans)
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
