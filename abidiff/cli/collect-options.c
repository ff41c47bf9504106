// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/sysfs/machine.h"
#include "lib/print.h"
#include "cli.h"
#include "collect-options.h"

int parse_repo_rev(const char *cmd, const char *spec, char **repo,
		   const char **rev)
{
	char *buf = strdup(spec), *at;

	if (!buf) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	/* the last '@': a repository's path may hold one, a REV here not */
	at = strrchr(buf, '@');
	if (!at || at == buf || !at[1]) {
		free(buf);
		usage_error(cmd, "--docs-git takes REPO@REV, not '%s'", spec);
		return -EINVAL;
	}
	*at = '\0';
	*repo = buf;
	*rev = at + 1;
	return 0;
}

int collect_option__machine(const char *cmd, const struct cli_option *opt,
			    const char *arg)
{
	const struct machine_profile **machine = opt->value;

	*machine = machine_profile__find(arg);
	if (*machine)
		return 0;
	usage_error(cmd, "--machine is one of %s, not '%s'",
		    machine_profile__names(), arg);
	return -EINVAL;
}
