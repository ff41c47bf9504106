/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports: the judged changes rendered in one format.  Renderers only
 * print; every decision was made by the diff and the policy.
 */
#ifndef KABIDIFF_REPORT_H
#define KABIDIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "policy/policy.h"

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_MARKDOWN,
};

/*
 * show_report_text() - the findings grouped by verdict, then level, each
 * with its subject, old -> new, documentation entry and whom to tell, and
 * a summary line; nothing at all when there is nothing to report.
 * @colour adds terminal colours.  Returns 0 or -EIO.
 */
int show_report_text(const struct judgement *j, FILE *out, bool colour);

/*
 * report_side() - how the header names a side: its release, else its
 * file, with the first 12 digits of its build id: "6.1.0-57-amd64 (build
 * id 0123456789ab)".  Into @buf of @size; returns @buf.
 */
char *report_side(char *buf, size_t size, const struct snapshot *s,
		  const char *name);

/*
 * report_parts() - "sysfs, syscalls, vdso, types, docs": the parts compared,
 * into @buf of @size; returns @buf.
 */
char *report_parts(char *buf, size_t size, const struct diff *d);

/* show_report_json() - the report of docs/report.schema.json.  0 or -EIO. */
int show_report_json(const struct judgement *j, FILE *out);

/* show_report_markdown() - for a review mail or a merge request.  0 or -EIO. */
int show_report_markdown(const struct judgement *j, FILE *out);

#endif /* KABIDIFF_REPORT_H */
