// SPDX-License-Identifier: GPL-2.0-only
/*
 * maintainers-lookup MAINTAINERS PATH...: for each PATH (relative to the
 * top of the tree), what abidiff/notify/ says of it, on stdout:
 *
 *	PATH
 *		section RANK TITLE	(maintainers__match(), in order)
 *		list ADDRESS		(maintainers__lists(), in order)
 *
 * Warnings and errors on stderr.  Exit status 0, 1 when the file could
 * not be read or a lookup failed, 2 for bad usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "notify/maintainers.h"

static int lookup(const struct maintainers *m, const char *path)
{
	const struct maintainers_list **lists;
	struct maintainers_match *match;
	size_t nr, i;

	if (maintainers__match(m, path, &match, &nr))
		return 1;
	printf("%s\n", path);
	for (i = 0; i < nr; i++)
		printf("\tsection %d %s\n", match[i].rank,
		       match[i].section->title);
	free(match);
	if (maintainers__lists(m, path, true, &lists, &nr))
		return 1;
	for (i = 0; i < nr; i++)
		printf("\tlist %s\n", lists[i]->address);
	free(lists);
	return 0;
}

int main(int argc, char **argv)
{
	struct maintainers m;
	int i, status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: maintainers-lookup MAINTAINERS PATH...\n");
		return 2;
	}
	if (maintainers__load(&m, argv[1]))
		return 1;
	for (i = 2; i < argc && !status; i++)
		status = lookup(&m, argv[i]);
	maintainers__release(&m);
	if (fflush(stdout) || ferror(stdout))
		status = 1;
	return status;
}
