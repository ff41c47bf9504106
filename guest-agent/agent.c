// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-agent: the /init of the QEMU guest that dumps a kernel's sysfs.
 *
 * As PID 1 it mounts sysfs and procfs read-only, walks /sys and /proc/sys
 * without following links, sends one record per node on the second serial
 * port (/dev/ttyS1, raw), and powers the machine off.  The kernel console
 * (ttyS0) gets the messages for humans and nothing else; the data channel
 * gets the stream and nothing else.  The stream's format is
 * docs/agent-stream.md, in C stream.h.
 *
 * On the host, "kabi-agent --root DIR" walks DIR and writes the same stream
 * to standard output, for tests: no mounting, no power-off.
 *
 * The parts: the walker and its watchdog (watchdog.c), which read the
 * values (value.c) and write the stream (stream-writer.c); PID 1's setup
 * and power-off (pid1.c); the modules (coldplug.c); messages (say.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "coldplug.h"
#include "pid1.h"
#include "say.h"
#include "watchdog.h"

static const char usage[] =
"usage: kabi-agent --root DIR [--prefix PATH] [--read-timeout MSEC] [--read-other]\n"
"\n"
"Walks DIR without following links and writes the stream that the guest\n"
"agent sends from inside QEMU to standard output (docs/agent-stream.md).\n"
"As PID 1, the /init of a guest, it ignores its arguments, mounts sysfs and\n"
"procfs read-only, sends the stream of /sys and /proc/sys on /dev/ttyS1 and\n"
"powers the machine off.\n"
"\n"
"  --root DIR           the directory to walk\n"
"  --prefix PATH        what DIR is called in the stream (default: /sys)\n"
"  --read-timeout MSEC  give up reading a value after MSEC ms (default: 1000)\n"
"  --read-other         also read FIFOs, sockets and devices (tests the timeout)\n"
"  -h, --help           show this help\n"
"  --version            show the version\n";

static int bad_usage(const char *what, const char *arg)
{
	say("%s%s; try --help", what, arg);
	return 2;
}

static int run_host(struct agent *a, int argc, char **argv)
{
	enum { OPT_ROOT = 256, OPT_PREFIX, OPT_TIMEOUT, OPT_OTHER, OPT_VERSION };
	static const struct option options[] = {
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ "read-timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "read-other", no_argument, NULL, OPT_OTHER },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct tree tree = { .prefix = "/sys" };
	unsigned long ms;
	char *end;
	int opt;

	opterr = 0;
	for (;;) {
		opt = getopt_long(argc, argv, "h", options, NULL);
		if (opt == -1)
			break;
		switch (opt) {
		case OPT_ROOT:
			tree.root = optarg;
			break;
		case OPT_PREFIX:
			tree.prefix = optarg;
			break;
		case OPT_TIMEOUT:
			errno = 0;
			ms = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !ms || ms > 600000)
				return bad_usage("--read-timeout wants milliseconds from 1 to 600000, not ", optarg);
			a->timeout_ms = ms;
			break;
		case OPT_OTHER:
			a->read_other = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return fflush(stdout) || ferror(stdout) ? 2 : 0;
		case OPT_VERSION:
			printf("kabi-agent %s\n", KABIDIFF_VERSION);
			return fflush(stdout) || ferror(stdout) ? 2 : 0;
		default:
			return bad_usage("unknown option ", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument ", argv[optind]);
	if (!tree.root)
		return bad_usage("--root DIR is needed", "");
	if (tree.prefix[0] != '/' || strlen(tree.prefix) >= PATH_MAX ||
	    (tree.prefix[1] && tree.prefix[strlen(tree.prefix) - 1] == '/') ||
	    !strcmp(tree.prefix, "/"))
		return bad_usage("--prefix wants an absolute path without a trailing '/', not ", tree.prefix);
	if (strlen(tree.root) >= PATH_MAX)
		return bad_usage("--root is too long", "");
	if (isatty(STDOUT_FILENO))
		return bad_usage("the stream is binary: redirect standard output", "");

	return watchdog_dump(a, STDOUT_FILENO, &tree, 1) ? 2 : 0;
}

int main(int argc, char **argv)
{
	static struct agent agent = { .timeout_ms = AGENT_TIMEOUT_MS };

	const char *self = strrchr(argv[0], '/');

	/* the kernel's request_module() runs /sbin/modprobe, a link to us */
	if (!strcmp(self ? self + 1 : argv[0], "modprobe"))
		return modprobe_main(argc, argv);
	/* a closed standard output is an error to report, not a death */
	signal(SIGPIPE, SIG_IGN);
	if (getpid() == 1) {
		pid1_run(&agent);
		pid1_power_off();
	}
	agent.host = true;
	return run_host(&agent, argc, argv);
}
