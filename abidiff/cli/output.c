// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/bytes.h"
#include "lib/print.h"
#include "cli.h"
#include "output.h"

/* the file -o named, and the temporary one standing in for it */
static char *final_path, *tmp_path;

/* ".NAME.XXXXXX" in the directory of @path */
static char *temporary_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xasprintf(".%s.XXXXXX", path);
	return xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
}

int output_option(const char *cmd, const struct cli_option *opt,
		  const char *arg)
{
	int fd;

	if (!strcmp(arg, "-"))
		return 0;
	if (final_path)
		return usage_error(cmd, "-o is given once"), -EINVAL;
	final_path = strdup(arg);
	tmp_path = temporary_name(arg);
	if (!final_path || !tmp_path) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		pr_err("%s: %s", arg, strerror(errno));
		return -errno;
	}
	/* the mode a plain create would give, not mkstemp()'s 0600 */
	fchmod(fd, 0666 & ~umask(umask(0)));
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		pr_err("%s: %s", arg, strerror(errno));
		close(fd);
		unlink(tmp_path);
		return -errno;
	}
	close(fd);
	return 0;
}

int json_option(const char *cmd, const struct cli_option *opt,
		const char *arg)
{
	json_output = true;
	print_messages_json(true);
	return 0;
}

int output_finish(int status)
{
	int err = 0;

	/* what git's run_builtin() does: output that did not arrive is trouble */
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (!final_path) {
		if (err) {
			pr_err("write error on standard output: %s",
			       strerror(err));
			return EXIT_TROUBLE;
		}
		return status;
	}
	if (!err && status <= EXIT_BREAK && fsync(STDOUT_FILENO))
		err = errno;
	if (!err && status <= EXIT_BREAK && rename(tmp_path, final_path))
		err = errno;
	if (err)
		pr_err("%s: %s", final_path, strerror(err));
	if (err || status > EXIT_BREAK)
		unlink(tmp_path);
	free(final_path);
	free(tmp_path);
	final_path = tmp_path = NULL;
	return err ? EXIT_TROUBLE : status;
}
