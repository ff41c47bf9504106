// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Markdown report, for a review mail or a merge request: one table per
 * verdict.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bytes.h"
#include "report.h"

/* Text: quoted, Markdown's syntax escaped, as in a cell. */
static void show_text(FILE *out, const char *s)
{
	char buf[4096];
	const char *p;

	for (p = quote_needed(s) ? quote_buf(buf, sizeof(buf), s) : s; *p; p++) {
		if (strchr("|\\`*_[]<>", *p))
			fputc('\\', out);
		fputc(*p, out);
	}
}

/*
 * A table cell: quoted like the text report so that any byte shows, with
 * the characters Markdown would take as syntax escaped.
 */
static void show_cell(FILE *out, const char *s)
{
	if (!s) {
		fputs(" - |", out);
		return;
	}
	fputc(' ', out);
	show_text(out, s);
	fputs(" |", out);
}

/* A multi-line field as one cell: its lines joined by blanks. */
static void show_field_cell(FILE *out, const char *text)
{
	char buf[4096];
	char *p;

	if (!text) {
		show_cell(out, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (p = buf; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	show_cell(out, buf);
}

/*
 * "stable/sysfs-foo#3" (its Contact: and Users: are in the entries'
 * table), and the waiver that accepted the change.
 */
static void show_doc_cell(FILE *out, const struct judgement *j,
			  const struct finding *f)
{
	const struct doc_entry *d = f->doc;
	char buf[4096];
	size_t len = 0;

	buf[0] = '\0';
	if (f->waiver)
		len = snprintf(buf, sizeof(buf), "waived by %s:%u: %s; ",
			       j->waivers->file, f->waiver->line,
			       f->waiver->reason);
	if (!d && !f->waiver) {
		show_cell(out, NULL);
		return;
	}
	if (d && len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, "%s#%u", d->file, d->line);
	show_field_cell(out, buf);
}

/* How many of a group's instances the subject cell names. */
#define SHOWN_INSTANCES	3

/* The subject, and a group's instances: "P (30 instances: a, b, c, +27 more)" */
static void show_subject_cell(FILE *out, const struct change *c)
{
	char buf[4096];
	size_t i, len, shown = c->nr_instances < SHOWN_INSTANCES ?
			       c->nr_instances : SHOWN_INSTANCES;

	if (!c->nr_instances) {
		show_cell(out, c->subject);
		return;
	}
	len = snprintf(buf, sizeof(buf), "%s (%zu instances: ", c->subject,
		       c->nr_instances);
	for (i = 0; i < shown && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? ", " : "", c->instances[i]);
	if (len < sizeof(buf) && shown < c->nr_instances)
		len += snprintf(buf + len, sizeof(buf) - len, ", +%zu more",
				c->nr_instances - shown);
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ")");
	show_cell(out, buf);
}

static void show_table_head(FILE *out, const char *title, size_t count)
{
	fprintf(out, "\n### %s (%zu)\n\n", title, count);
	fputs("| level | change | subject | old | new | documentation |\n", out);
	fputs("|---|---|---|---|---|---|\n", out);
}

/* Whether @a and @b go into the same table. */
static bool same_table(const struct finding *a, const struct finding *b)
{
	return !a->waiver == !b->waiver && (a->waiver || a->verdict == b->verdict);
}

/* How many findings from @i on go into the table of the @i-th. */
static size_t table_size(const struct judgement *j, size_t i)
{
	size_t n = 1;

	while (i + n < j->nr && same_table(&j->v[i], &j->v[i + n]))
		n++;
	return n;
}

static int doc_ptr_cmp(const void *a, const void *b)
{
	return doc_entry__cmp(*(const struct doc_entry * const *)a,
			      *(const struct doc_entry * const *)b);
}

static void show_entry_row(FILE *out, const struct doc_entry *d, size_t count)
{
	char where[4096];

	snprintf(where, sizeof(where), "%s#%u", d->file, d->line);
	fputc('|', out);
	show_cell(out, where);
	fprintf(out, " %zu |", count);
	show_field_cell(out, d->contact);
	show_field_cell(out, d->users);
	fputc('\n', out);
}

/*
 * Each doc entry of the findings once, by file and line, with how many
 * findings it judged and its Contact: and Users:.  Returns 0 or -ENOMEM.
 */
static int show_entries(FILE *out, const struct judgement *j)
{
	/* + 1: malloc(0) may give NULL */
	const struct doc_entry **docs = malloc(j->nr * sizeof(*docs) + 1);
	size_t i, k, nr = 0;

	if (!docs)
		return -ENOMEM;
	for (i = 0; i < j->nr; i++)
		if (j->v[i].doc)
			docs[nr++] = j->v[i].doc;
	qsort(docs, nr, sizeof(*docs), doc_ptr_cmp);
	if (nr)
		fputs("\n### Documentation entries\n\n| entry | findings | contact | users |\n|---|---:|---|---|\n",
		      out);
	for (i = 0; i < nr; i = k) {
		for (k = i + 1; k < nr && !doc_entry__cmp(docs[i], docs[k]); k++)
			;
		show_entry_row(out, docs[i], k - i);
	}
	free(docs);
	return 0;
}

/* Whom to tell, with why and how many findings, as --notify says. */
static void show_recipients(FILE *out, const struct notify *n)
{
	size_t i, k;

	if (n->nr)
		fputs("\n### Whom to notify\n\n| recipient | findings | why |\n|---|---:|---|\n",
		      out);
	for (i = 0; i < n->nr; i++) {
		const struct recipient *r = &n->v[i];
		char why[4096];
		size_t len = 0;

		why[0] = '\0';
		for (k = 0; k < r->nr_why && len < sizeof(why); k++)
			len += snprintf(why + len, sizeof(why) - len, "%s%s",
					k ? "; " : "", r->why[k]);
		fputc('|', out);
		show_cell(out, r->address);
		fprintf(out, " %zu |", r->nr_findings);
		show_cell(out, why);
		fputc('\n', out);
	}
}

/* --stat: one table row per part, kind, level and verdict. */
static int show_stat(const struct judgement *j, FILE *out)
{
	struct report_stat_row *rows;
	size_t i, nr;
	int err = report_stat(j, &rows, &nr);

	if (err)
		return err;
	if (nr) {
		fputs("\n| part | change | level | findings | verdict |\n", out);
		fputs("|---|---|---|---:|---|\n", out);
	}
	for (i = 0; i < nr; i++)
		fprintf(out, "| %s | %s | %s | %zu | %s%s |\n",
			change_part__name(change_kind__part(rows[i].kind)),
			change_kind__name(rows[i].kind),
			abi_level__name(rows[i].level), rows[i].count,
			verdict__name(rows[i].verdict),
			rows[i].waived ? ", waived" : "");
	free(rows);
	return 0;
}

/* The sides and the parts compared, then the details of each and the rules. */
static void show_header(const struct judgement *j, FILE *out)
{
	char buf[1024];

	show_text(out, report_side(buf, sizeof(buf), j->old, j->old_name));
	fputs(" -> ", out);
	show_text(out, report_side(buf, sizeof(buf), j->new, j->new_name));
	fprintf(out, "; compared: %s\n\n- old: ",
		report_parts(buf, sizeof(buf), j->diff));
	show_text(out, report_side_details(buf, sizeof(buf), j->old,
					   j->old_name));
	fputs("\n- new: ", out);
	show_text(out, report_side_details(buf, sizeof(buf), j->new,
					   j->new_name));
	fputs("\n- rules: ", out);
	show_text(out, report_rules(buf, sizeof(buf), j));
	fputc('\n', out);
}

int show_report_markdown(const struct judgement *j,
			 const struct report_filter *filter,
			 const struct notify *n, FILE *out)
{
	static const char * const titles[VERDICT_COUNT] = {
		[VERDICT_BREAK] = "Break", [VERDICT_WARN] = "Warn",
		[VERDICT_NOTE] = "Note",
	};
	const struct finding *prev = NULL;
	char buf[512];
	size_t i;
	int err;

	fprintf(out, "## kabidiff: %zu break, %zu warn, %zu note, %zu waived\n",
		j->count[VERDICT_BREAK], j->count[VERDICT_WARN],
		j->count[VERDICT_NOTE], j->waived);
	show_header(j, out);
	if (report_filter__narrows(filter))
		fprintf(out, "\nShown: %zu of %zu findings (%s).\n", j->nr,
			report_total(j),
			report_filter__describe(buf, sizeof(buf), filter));
	if (filter && filter->stat) {
		err = show_stat(j, out);
		if (err)
			return err;
		return ferror(out) ? -EIO : 0;
	}
	for (i = 0; i < j->nr; i++) {
		const struct finding *f = &j->v[i];

		if (!prev || !same_table(prev, f))
			show_table_head(out, f->waiver ? "Waived" : titles[f->verdict],
					table_size(j, i));
		fprintf(out, "| %s | %s |", abi_level__name(f->level),
			change_kind__name(f->change->kind));
		show_subject_cell(out, f->change);
		show_cell(out, f->change->old);
		show_cell(out, f->change->new);
		show_doc_cell(out, j, f);
		fputc('\n', out);
		prev = f;
	}
	err = show_entries(out, j);
	if (err)
		return err;
	show_recipients(out, n);
	return ferror(out) ? -EIO : 0;
}
