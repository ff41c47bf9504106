// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report header, the same words in every format: which two kernels
 * were compared, which parts of them, and by which rules.
 */
#include <stdio.h>

#include "report.h"

char *report_side(char *buf, size_t size, const struct snapshot *s,
		  const char *name)
{
	const char *id = s->kernel.build_id;

	snprintf(buf, size, "%s%s%.12s%s", s->kernel.release ?: name ?: "?",
		 id ? " (build id " : "", id ?: "", id ? ")" : "");
	return buf;
}

/* Appends ", LABEL VALUE" (no comma first) to @buf at *@len, if @value. */
static void add_detail(char *buf, size_t size, size_t *len,
		       const char *label, const char *value)
{
	if (!value || *len >= size)
		return;
	*len += snprintf(buf + *len, size - *len, "%s%s%s%s",
			 *len ? ", " : "", label, *label ? " " : "", value);
}

char *report_side_details(char *buf, size_t size, const struct snapshot *s,
			  const char *name)
{
	const struct kernel_ident *k = &s->kernel;
	size_t len = 0;

	buf[0] = '\0';
	add_detail(buf, size, &len, "", k->release);
	add_detail(buf, size, &len, "", k->version);
	add_detail(buf, size, &len, "build id", k->build_id);
	add_detail(buf, size, &len, "git", k->git);
	add_detail(buf, size, &len, "machine", s->machine.profile);
	add_detail(buf, size, &len, "from", name);
	if (!len)
		snprintf(buf, size, "?");
	return buf;
}

char *report_parts(char *buf, size_t size, const struct diff *d)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < PART_COUNT && len < size; i++)
		if (d->compared[i])
			len += snprintf(buf + len, size - len, "%s%s",
					len ? ", " : "", change_part__name(i));
	if (!len)
		snprintf(buf, size, "nothing");
	return buf;
}

char *report_rules(char *buf, size_t size, const struct judgement *j)
{
	snprintf(buf, size, "policy %s, waivers %s%s%s",
		 j->policy_file ?: "default",
		 j->waivers ? j->waivers->file : "none",
		 j->maintainers_file ? ", MAINTAINERS " : "",
		 j->maintainers_file ?: "");
	return buf;
}
