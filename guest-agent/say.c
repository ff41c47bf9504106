// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "say.h"

int say_fd = STDERR_FILENO;

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
void __printf(1, 2) say(const char *fmt, ...)
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
	if (write(say_fd, line, n) < 0)
		return;	/* nowhere left to say it */
}
