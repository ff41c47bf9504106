/* SPDX-License-Identifier: GPL-2.0-only */
/* The options that say what to collect, for the commands that take them. */
#ifndef KABIDIFF_CLI_COLLECT_OPTIONS_H
#define KABIDIFF_CLI_COLLECT_OPTIONS_H

#include "options.h"

/*
 * collect_option__machine() - the callback of --machine PROFILE: the
 * profile into *(const struct machine_profile **)@opt->value.
 */
int collect_option__machine(const char *cmd, const struct cli_option *opt,
			    const char *arg);

/*
 * parse_repo_rev() - split @spec, "REPO@REV" (--docs-git), at its last '@'
 * into @repo (malloc()ed, the caller frees it) and @rev (inside @repo's
 * allocation).  Returns 0, -EINVAL when a part is missing (reported as a
 * usage error of command @cmd) or -ENOMEM (reported).
 */
int parse_repo_rev(const char *cmd, const char *spec, char **repo,
		   const char **rev);

#endif /* KABIDIFF_CLI_COLLECT_OPTIONS_H */
