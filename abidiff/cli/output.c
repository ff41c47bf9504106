// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/atomic-file.h"
#include "lib/print.h"
#include "cli.h"
#include "output.h"

/*
 * The file -o named (a string of argv, which lives as long as we do), and
 * the file under way that standard output is once it is opened.
 */
static const char *output_path;
static struct atomic_file *output_file;

int output_option(const char *cmd, const struct cli_option *opt,
		  const char *arg)
{
	if (!strcmp(arg, "-"))
		return 0;
	if (output_path)
		return usage_error(cmd, "-o is given once"), -EINVAL;
	if (!*arg)
		return usage_error(cmd, "-o needs a file name, or - for standard output"),
		       -EINVAL;
	output_path = arg;
	return 0;
}

/*
 * The file an argument names: the word itself, or the value of a
 * "--option=VALUE".  NULL for the word that holds the -o value itself.
 */
static const char *named_file(const char *word)
{
	const char *eq;

	if (output_path >= word && output_path < word + strlen(word))
		return NULL;
	eq = strchr(word, '=');
	return !strncmp(word, "--", 2) && eq ? eq + 1 : word;
}

/* The argument in @argv that names the file @out is, or NULL. */
static const char *input_among(const struct stat *out, int argc, char **argv)
{
	struct stat st;
	int i;

	for (i = 1; i < argc; i++) {
		const char *path = named_file(argv[i]);

		if (path && !stat(path, &st) && st.st_dev == out->st_dev &&
		    st.st_ino == out->st_ino)
			return path;
	}
	return NULL;
}

int output_open(const char *cmd, int argc, char **argv)
{
	const char *input;
	struct stat out;
	int fd, err = 0;

	if (!output_path || output_file)
		return 0;
	/* a device or a FIFO is written in place, it replaces nothing */
	if (!stat(output_path, &out) && S_ISREG(out.st_mode)) {
		input = input_among(&out, argc, argv);
		if (input) {
			usage_error(cmd, "-o %s would replace %s, which the command reads",
				    output_path, input);
			return -EINVAL;
		}
	}
	fd = atomic_open(output_path, 0, &output_file);
	if (fd < 0)
		return fd;
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		err = -errno;
		pr_err("%s: %s", output_path, strerror(errno));
		atomic_abort(output_file);
		output_file = NULL;
	}
	close(fd);
	return err;
}

int json_option(const char *cmd, const struct cli_option *opt,
		const char *arg)
{
	json_output = true;
	kabi_print_as_json(true);
	return 0;
}

int output_finish(int status)
{
	struct atomic_file *af = output_file;
	int err = 0;

	/* what git's run_builtin() does: output that did not arrive is trouble */
	if (fflush(stdout) || ferror(stdout)) {
		err = errno ? -errno : -EIO;
		if (af)
			pr_err("%s: write failed: %s", output_path, strerror(-err));
		else
			pr_err("write error on standard output: %s", strerror(-err));
	}
	if (!af)
		return err ? EXIT_TROUBLE : status;
	output_file = NULL;
	if (err || status > EXIT_BREAK) {
		atomic_abort(af);
		return err ? EXIT_TROUBLE : status;
	}
	return atomic_commit(af, STDOUT_FILENO) ? EXIT_TROUBLE : status;
}
