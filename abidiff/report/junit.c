// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JUnit XML report, as GitLab and Jenkins read it (the schema of
 * Jenkins' xunit plugin, junit-10.xsd): one testsuite per part compared,
 * one testcase per finding.  A break is a <failure>, a waived finding
 * <skipped>, a warn or a note a passed testcase whose <system-out> says
 * what changed.
 *
 * XML 1.0 takes neither every byte nor every character: a name may be any
 * bytes, so text that is not valid UTF-8, control characters but tab and
 * newline, DEL, U+FFFE and U+FFFF are written as \xHH (a backslash as
 * \\, so that the escape is not ambiguous), and &, <, >, " and ' as
 * entities; in an attribute tab and newline are character references, or
 * the parser would make spaces of them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/bytes.h"
#include "report.h"

/* Whether the UTF-8 character at @s, of @len bytes, is one XML 1.0 takes. */
static bool xml_char(const unsigned char *s, size_t len)
{
	if (len == 1)
		return *s >= 0x20 ? *s != 0x7f : *s == '\t' || *s == '\n';
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF */
	return !(len == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe);
}

/* @s as XML character data, or an attribute value when @attr. */
static void show_xml(FILE *out, const char *s, bool attr)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		size_t len = utf8_char_len(p, left);

		if (!len || !xml_char(p, len)) {
			fprintf(out, "\\x%02x", *p);
			len = 1;
		} else if (*p == '\\') {
			fputs("\\\\", out);
		} else if (*p == '&') {
			fputs("&amp;", out);
		} else if (*p == '<') {
			fputs("&lt;", out);
		} else if (*p == '>') {
			fputs("&gt;", out);
		} else if (*p == '"') {
			fputs("&quot;", out);
		} else if (*p == '\'') {
			fputs("&apos;", out);
		} else if (attr && *p == '\t') {
			fputs("&#9;", out);
		} else if (attr && *p == '\n') {
			fputs("&#10;", out);
		} else {
			fwrite(p, 1, len, out);
		}
		p += len;
		left -= len;
	}
}

/* name="VALUE" */
static void show_attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	show_xml(out, value, true);
	fputc('"', out);
}

/* What the finding is about, one item a line, as the text report says it. */
static void show_details(FILE *out, const struct judgement *j,
			 const struct finding *f)
{
	const struct change *c = f->change;
	size_t i;

	fprintf(out, "%s: %s interface%s\n", verdict__name(f->verdict),
		abi_level__name(f->level),
		f->removal_ahead ? ", removed before its announced date" : "");
	show_xml(out, c->old ? c->old : "(absent)", false);
	fputs(" -> ", out);
	show_xml(out, c->new ? c->new : "(absent)", false);
	fputc('\n', out);
	for (i = 0; i < c->nr_instances; i++) {
		fputs("instance: ", out);
		show_xml(out, c->instances[i], false);
		fputc('\n', out);
	}
	if (f->doc) {
		fprintf(out, "doc: %s", doc_entry__dir(f->doc));
		show_xml(out, f->doc->file, false);
		fprintf(out, ":%u\n", f->doc->line);
		if (f->doc->contact) {
			fputs("contact: ", out);
			show_xml(out, f->doc->contact, false);
			fputc('\n', out);
		}
		if (f->doc->users) {
			fputs("users: ", out);
			show_xml(out, f->doc->users, false);
			fputc('\n', out);
		}
	}
	if (f->cap) {
		fputs("capped: ", out);
		show_xml(out, f->cap, false);
		fprintf(out, " is judged %s at most\n", abi_level__name(f->level));
	}
	if (f->waiver) {
		fputs("waived by ", out);
		show_xml(out, j->waivers->file, false);
		fprintf(out, ":%u: ", f->waiver->line);
		show_xml(out, f->waiver->reason, false);
		fputc('\n', out);
	}
}

static void show_testcase(FILE *out, const struct judgement *j,
			  const struct finding *f)
{
	const struct change *c = f->change;
	const char *kind = change_kind__name(c->kind);
	char classname[64];

	snprintf(classname, sizeof(classname), "kabidiff.%s.%s",
		 change_part__name(change_kind__part(c->kind)),
		 abi_level__name(f->level));
	fputs("    <testcase", out);
	fprintf(out, " name=\"%s ", kind);
	show_xml(out, c->subject, true);
	fputc('"', out);
	show_attr(out, "classname", classname);
	fputs(" time=\"0\">\n", out);
	if (f->waiver) {
		fputs("      <skipped", out);
		show_attr(out, "message", "waived");
		fputs(">", out);
	} else if (f->verdict == VERDICT_BREAK) {
		fputs("      <failure", out);
		show_attr(out, "type", kind);
		show_attr(out, "message", "break");
		fputs(">", out);
	} else {
		fputs("      <system-out>", out);
	}
	show_details(out, j, f);
	fputs(f->waiver ? "</skipped>\n" : f->verdict == VERDICT_BREAK ?
	      "</failure>\n" : "</system-out>\n", out);
	fputs("    </testcase>\n", out);
}

static bool part_shown(const struct judgement *j,
		       const struct report_filter *filter, int part)
{
	return j->diff->compared[part] &&
	       (!filter || !filter->parts || (filter->parts & 1u << part));
}

int show_report_junit(const struct judgement *j,
		      const struct report_filter *filter, FILE *out)
{
	size_t i, tests, failures, skipped, total[3] = { 0 };
	char buf[1024];
	int part;

	for (i = 0; i < j->nr; i++) {
		total[0]++;
		total[1] += j->v[i].verdict == VERDICT_BREAK && !j->v[i].waiver;
		total[2] += !!j->v[i].waiver;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
	show_attr(out, "name", "kabidiff");
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
		total[0], total[1]);
	for (part = 0; part < PART_COUNT; part++) {
		if (!part_shown(j, filter, part))
			continue;
		tests = failures = skipped = 0;
		for (i = 0; i < j->nr; i++) {
			const struct finding *f = &j->v[i];

			if ((int)change_kind__part(f->change->kind) != part)
				continue;
			tests++;
			failures += f->verdict == VERDICT_BREAK && !f->waiver;
			skipped += !!f->waiver;
		}
		fprintf(out, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
			change_part__name(part), tests, failures, skipped);
		fputs("    <properties>\n      <property name=\"old\"", out);
		show_attr(out, "value", report_side_details(buf, sizeof(buf),
							    j->old, j->old_name));
		fputs("/>\n      <property name=\"new\"", out);
		show_attr(out, "value", report_side_details(buf, sizeof(buf),
							    j->new, j->new_name));
		fputs("/>\n      <property name=\"rules\"", out);
		show_attr(out, "value", report_rules(buf, sizeof(buf), j));
		fputs("/>\n", out);
		if (report_filter__narrows(filter)) {
			fputs("      <property name=\"filter\"", out);
			show_attr(out, "value", report_filter__describe(buf, sizeof(buf),
									filter));
			fputs("/>\n", out);
		}
		fputs("    </properties>\n", out);
		for (i = 0; i < j->nr; i++)
			if ((int)change_kind__part(j->v[i].change->kind) == part)
				show_testcase(out, j, &j->v[i]);
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
	return ferror(out) ? -EIO : 0;
}
