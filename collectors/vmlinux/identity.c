// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "lib/print.h"
#include "collect.h"
#include "identity.h"

/*
 * The date in the banner's UTS_VERSION, if it has one: the diff says so
 * when it needs a date that NEW does not have.
 */
static int read_build_date(struct kernel_ident *id)
{
	char date[BUILD_DATE_SIZE];

	if (!id->version || build_date__from_version(id->version, date))
		return 0;
	id->build_date = strdup(date);
	return id->build_date ? 0 : -ENOMEM;
}

/* "Linux version 6.1.0-57-amd64 (...) #1 SMP ... (2025-10-04)\n" */
int identity__read(struct collect *c)
{
	const struct ksym *banner = kimage__sym(&c->k, "linux_banner");
	struct kernel_ident *id = &c->s->kernel;
	char *text, *p, build_id[129];
	int err = 0;

	id->arch = strdup("x86_64");
	if (!id->arch)
		return -ENOMEM;
	if (!kimage__build_id(&c->k, build_id, sizeof(build_id))) {
		id->build_id = strdup(build_id);
		if (!id->build_id)
			return -ENOMEM;
	}
	if (!banner) {
		pr_warn("%s: no linux_banner symbol: the kernel release is unknown",
			c->k.path);
		return 0;
	}
	text = kimage__read_string(&c->k, banner->addr, MAX_STRING);
	if (!text)
		return -ENOMEM;
	p = strchr(text, '\n');
	if (p)
		*p = '\0';
	if (!strncmp(text, "Linux version ", 14)) {
		p = strchr(text + 14, ' ');
		id->release = strndup(text + 14, p ? (size_t)(p - text - 14) :
				      strlen(text + 14));
		if (!id->release)
			err = -ENOMEM;
	}
	p = strstr(text, " #");
	if (!err && p) {
		id->version = strdup(p + 1);
		if (!id->version)
			err = -ENOMEM;
	}
	free(text);
	return err ? err : read_build_date(id);
}
