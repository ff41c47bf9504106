/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports: the judged changes rendered in one format.  Renderers only
 * print; every decision was made by the diff and the policy, and whom to
 * tell about each finding by notify__build().
 */
#ifndef KABIDIFF_REPORT_H
#define KABIDIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "notify/notify.h"
#include "policy/policy.h"

/* The JSON report's "format" and "version" (docs/report.schema.json). */
#define REPORT_FORMAT	"kabidiff-report"
#define REPORT_VERSION	4

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_MARKDOWN,
	REPORT_KTAP,
	REPORT_JUNIT,
	REPORT_SARIF,
};

/* report_format__name() - "text", "json", ... as --format names @format. */
const char *report_format__name(enum report_format format);

/*
 * report_format__parse() - the format that --format calls @name, into
 * @out.  Returns 0 or -EINVAL.
 */
int report_format__parse(const char *name, enum report_format *out);

/*
 * What a report shows of the findings (--verdict, --only, --stat).  It
 * narrows what is shown, never what is judged: the summary counts and the
 * exit status are those of every finding.  Zeroed, it shows everything.
 */
struct report_filter {
	enum verdict verdict;	/* findings of this verdict or worse */
	unsigned int parts;	/* 1 << PART_*: findings of these; 0: all */
	bool stat;		/* counts per part, kind and level instead */
};

/* report_filter__narrows() - whether @f (NULL: none) hides any finding. */
bool report_filter__narrows(const struct report_filter *f);

/* report_filter__shows() - whether @f (NULL: none) shows finding @fi. */
bool report_filter__shows(const struct report_filter *f,
			  const struct finding *fi);

/*
 * report_filter__apply() - @j with only the findings @f shows, into
 * @shown: the same judgement but for its own array of findings (free()
 * shown->v, nothing else), its counts still @j's.  Returns 0 or -ENOMEM.
 */
int report_filter__apply(const struct report_filter *f,
			 const struct judgement *j, struct judgement *shown);

/*
 * report_filter__describe() - "verdict warn or worse; parts sysfs, docs":
 * what @f narrows, into @buf of @size; returns @buf.
 */
char *report_filter__describe(char *buf, size_t size,
			      const struct report_filter *f);

/* report_total() - how many findings @j has, accepted ones included. */
size_t report_total(const struct judgement *j);

/* One line of --stat: how many findings of a kind and level got a verdict. */
struct report_stat_row {
	enum change_kind kind;	/* its part is change_kind__part(kind) */
	enum abi_level level;
	enum verdict verdict;
	bool waived;
	size_t count;
};

/*
 * report_stat() - the findings of @j counted by kind (and so part), level,
 * verdict and waiver, in that order: a malloc()ed array of rows into
 * *@rows (NULL when there are none) and their number into *@nr.  Returns
 * 0 or -ENOMEM.
 */
int report_stat(const struct judgement *j, struct report_stat_row **rows,
		size_t *nr);

/*
 * show_report_text() - the header, then the findings grouped by verdict,
 * then level, each with its subject, old -> new, documentation entry and
 * whom to tell, and a summary line; nothing at all when there is nothing to report.  @j
 * holds the findings @filter (NULL: none) shows; with @filter->stat,
 * their counts replace them.  With @notes (NULL: none), @j holds only the
 * breaks and warns of those, and @notes' notes follow as counts by part
 * and kind.  @n is whom to tell
 * about @j's, notify__build() of @j.  @colour adds terminal colours.
 * Returns 0 or -EIO.
 */
int show_report_text(const struct judgement *j,
		     const struct report_filter *filter,
		     const struct judgement *notes,
		     const struct notify *n, FILE *out, bool colour);

/*
 * The report header (header.c), the same words in every format.
 *
 * report_side() - how a report names a side in a line: its release, else
 * its file, with the first 12 digits of its build id: "6.1.0-57-amd64
 * (build id 0123456789ab)".  Into @buf of @size; returns @buf.
 */
char *report_side(char *buf, size_t size, const struct snapshot *s,
		  const char *name);

/*
 * report_side_details() - all a report knows of a side: "6.1.0-57-amd64,
 * #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (...), build id 0123...(all of
 * it), git 0123..., machine standard, from debian:6.1.0-57", each part
 * only when known.  Into @buf of @size; returns @buf.
 */
char *report_side_details(char *buf, size_t size, const struct snapshot *s,
			  const char *name);

/*
 * report_parts() - "sysfs, syscalls, vdso, types, docs, census": the parts compared,
 * into @buf of @size; returns @buf.
 */
char *report_parts(char *buf, size_t size, const struct diff *d);

/*
 * report_rules() - "policy default, waivers none": the policy and waiver
 * files @j was judged by, and the MAINTAINERS it tells by when it has one
 * (", MAINTAINERS PATH"), into @buf of @size; returns @buf.
 */
char *report_rules(char *buf, size_t size, const struct judgement *j);

/*
 * show_report_json() - the report of docs/report.schema.json, @j, @filter
 * and @n as for show_report_text(); a narrowed one says so in its
 * "filter" record.  0 or -EIO.
 */
int show_report_json(const struct judgement *j,
		     const struct report_filter *filter,
		     const struct notify *n, FILE *out);

/*
 * show_report_markdown() - for a review mail or a merge request, @j,
 * @filter and @n as for show_report_text(): a table per verdict, then the
 * doc entries with their Contact: and Users:, then whom to tell.  0 or
 * -EIO.
 */
int show_report_markdown(const struct judgement *j,
			 const struct report_filter *filter,
			 const struct notify *n, FILE *out);

/*
 * show_report_notify() - --notify: the header's first line, a "To:" line
 * of every recipient of @j's findings, then each recipient with why and
 * the findings to look at; @n as for show_report_text().  0 or -EIO.
 */
int show_report_notify(const struct judgement *j, const struct notify *n,
		       FILE *out);

/*
 * The reports for CI systems, @j and @filter as for show_report_text()
 * (--stat is not theirs); each is a whole document even when nothing
 * changed.  0 or -EIO.
 *
 * show_report_ktap() - KTAP version 1 (the kernel's ktap.rst): a test per
 * part compared, a subtest per finding, "not ok" for a break not waived.
 */
int show_report_ktap(const struct judgement *j,
		     const struct report_filter *filter, FILE *out);

/*
 * show_report_junit() - JUnit XML as GitLab and Jenkins read it: a
 * testsuite per part compared, a testcase per finding, a break not waived
 * a <failure>, a waived finding <skipped>.
 */
int show_report_junit(const struct judgement *j,
		      const struct report_filter *filter, FILE *out);

/*
 * show_report_sarif() - SARIF 2.1.0: a rule per change kind, a result per
 * finding located at its doc entry's file and line, else at its subject.
 */
int show_report_sarif(const struct judgement *j,
		      const struct report_filter *filter, FILE *out);

#endif /* KABIDIFF_REPORT_H */
