// SPDX-License-Identifier: GPL-2.0-only
/* The names of the report formats, as --format gives them. */
#include "lib/compiler.h"
#include "model/model.h"
#include "report.h"

static const char * const format_names[] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json",
	[REPORT_MARKDOWN] = "markdown", [REPORT_KTAP] = "ktap",
	[REPORT_JUNIT] = "junit", [REPORT_SARIF] = "sarif",
};

int report_format__parse(const char *name, enum report_format *out)
{
	unsigned int i;
	int err = name_table__parse(format_names, ARRAY_SIZE(format_names),
				    name, &i);

	if (!err)
		*out = i;
	return err;
}

const char *report_format__name(enum report_format format)
{
	return format_names[format];
}
