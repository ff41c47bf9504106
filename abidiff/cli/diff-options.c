// SPDX-License-Identifier: GPL-2.0-only
/* The options that say how to judge and report: OPT_DIFF()'s handlers. */
#include <errno.h>
#include <string.h>

#include "lib/print.h"
#include "cli.h"
#include "diff-options.h"

int diff_option__format(const char *cmd, const struct cli_option *opt,
			const char *arg)
{
	struct diff_options *o = opt->value;

	if (!report_format__parse(arg, &o->format)) {
		kabi_print_as_json(o->format == REPORT_JSON);
		return 0;
	}
	usage_error(cmd, "--format is text, json, markdown, ktap, junit or sarif, not '%s'",
		    arg);
	return -EINVAL;
}

int diff_option__json(const char *cmd, const struct cli_option *opt,
		      const char *arg)
{
	struct diff_options *o = opt->value;

	o->format = REPORT_JSON;
	kabi_print_as_json(true);
	return 0;
}

/* "sysfs,docs" into a mask of 1 << PART_*; -EINVAL for another name. */
static int parse_parts(const char *arg, unsigned int *out)
{
	const char *p = arg, *end;
	unsigned int parts = 0;
	int i;

	do {
		end = strchrnul(p, ',');
		for (i = 0; i < PART_COUNT; i++)
			if (strlen(change_part__name(i)) == (size_t)(end - p) &&
			    !strncmp(p, change_part__name(i), end - p))
				break;
		if (i == PART_COUNT)
			return -EINVAL;
		parts |= 1u << i;
		p = end + 1;
	} while (*end);
	*out = parts;
	return 0;
}

/* An option of parts, --parts or --only: parse_parts(), or a usage error. */
static int parts_option(const char *cmd, const struct cli_option *opt,
			const char *arg, unsigned int *out)
{
	if (!parse_parts(arg, out))
		return 0;
	usage_error(cmd, "--%s takes sysfs, syscalls, vdso, types and docs, comma-separated, not '%s'",
		    opt->long_name, arg);
	return -EINVAL;
}

int diff_option__parts(const char *cmd, const struct cli_option *opt,
		       const char *arg)
{
	struct diff_options *o = opt->value;

	return parts_option(cmd, opt, arg, &o->parts);
}

int diff_option__only(const char *cmd, const struct cli_option *opt,
		      const char *arg)
{
	struct diff_options *o = opt->value;

	return parts_option(cmd, opt, arg, &o->filter.parts);
}

int diff_option__verdict(const char *cmd, const struct cli_option *opt,
			 const char *arg)
{
	if (!verdict__parse(arg, opt->value))
		return 0;
	usage_error(cmd, "--verdict is break, warn or note, not '%s'", arg);
	return -EINVAL;
}

int diff_option__shown_verdict(const char *cmd, const struct cli_option *opt,
			       const char *arg)
{
	struct diff_options *o = opt->value;
	struct cli_option verdict = { .value = &o->filter.verdict };

	o->verdict_given = true;
	return diff_option__verdict(cmd, &verdict, arg);
}

int diff_option__color(const char *cmd, const struct cli_option *opt,
		       const char *arg)
{
	struct diff_options *o = opt->value;

	if (!arg)
		arg = "always";
	if (!strcmp(arg, "auto") || !strcmp(arg, "always") ||
	    !strcmp(arg, "never")) {
		o->colour = !strcmp(arg, "auto") ? -1 : !strcmp(arg, "always");
		return 0;
	}
	usage_error(cmd, "--color is auto, always or never, not '%s'", arg);
	return -EINVAL;
}

int diff_option__as_of(const char *cmd, const struct cli_option *opt,
		       const char *arg)
{
	struct diff_options *o = opt->value;

	if (!date__parse(arg, &o->as_of))
		return 0;
	usage_error(cmd, "--as-of is a date YYYY-MM-DD that exists, not '%s'",
		    arg);
	return -EINVAL;
}
