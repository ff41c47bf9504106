// SPDX-License-Identifier: GPL-2.0-only
/*
 * module-table DIR MODULE...: the module set of MODULE... in the modules
 * tree DIR, as module_set__build() makes it for the guest's initramfs:
 * on stdout, "FILE PATH" for each module (its name in the initramfs, and
 * the file in DIR), then the table the agent reads.  Warnings and errors
 * on stderr.  Exit status 0, 1 when the set could not be made, 2 for bad
 * usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "collectors/sysfs/modules.h"

int main(int argc, char **argv)
{
	struct module_set set = { 0 };
	char *table;
	size_t i;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: module-table DIR MODULE...\n");
		return 2;
	}
	err = module_set__build(&set, argv[1], (const char *const *)argv + 2,
				NULL);
	table = err ? NULL : module_set__table(&set);
	for (i = 0; table && i < set.nr; i++)
		printf("%s %s\n", set.v[i].file, set.v[i].path);
	if (table)
		fputs(table, stdout);
	free(table);
	module_set__release(&set);
	return table ? 0 : 1;
}
