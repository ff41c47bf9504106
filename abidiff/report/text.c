// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report, for a terminal or a CI log.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bytes.h"
#include "report.h"

#define COLOUR_RESET	"\033[0m"

static const char * const verdict_colour[VERDICT_COUNT] = {
	[VERDICT_NOTE]	= "\033[1m",
	[VERDICT_WARN]	= "\033[1;33m",
	[VERDICT_BREAK]	= "\033[1;31m",
};

static int max_int(int a, size_t b)
{
	return (size_t)a > b ? a : (int)b;
}

/* A field of several lines, each indented under its label at @indent. */
static void show_field(FILE *out, int indent, const char *label,
		       const char *text)
{
	const char *line = text, *end;
	char buf[1024];

	fprintf(out, "%*s%-9s", indent, "", label);
	for (; line; line = *end ? end + 1 : NULL) {
		end = strchrnul(line, '\n');
		if (line != text)
			fprintf(out, "%*s%-9s", indent, "", "");
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - line), line);
		fputs_quoted(buf, out);
		fputc('\n', out);
		if (!*end)
			break;
	}
}

/* How many of a group's instances the text and Markdown reports name. */
#define SHOWN_INSTANCES	3

/* "30 instances: /sys/a, /sys/b, /sys/c (+27 more)" */
static void show_instances(FILE *out, const struct change *c)
{
	size_t i, shown = c->nr_instances < SHOWN_INSTANCES ?
			  c->nr_instances : SHOWN_INSTANCES;

	fprintf(out, "      %zu instances: ", c->nr_instances);
	for (i = 0; i < shown; i++) {
		if (i)
			fputs(", ", out);
		fputs_quoted(c->instances[i], out);
	}
	if (shown < c->nr_instances)
		fprintf(out, " (+%zu more)", c->nr_instances - shown);
	fputc('\n', out);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Whether findings @a and @b go under one doc heading: the same verdict
 * heading and level, and entries of one file that name the same Contact:
 * and Users: (a file's entries mostly do), or both undocumented.
 */
static bool same_doc_group(const struct finding *a, const struct finding *b)
{
	const struct doc_entry *x = a->doc, *y = b->doc;

	if (!a->waiver != !b->waiver || (!a->waiver && a->verdict != b->verdict) ||
	    a->level != b->level)
		return false;
	if (!x || !y)
		return x == y;
	return !strcmp(x->file, y->file) && same_text(x->contact, y->contact) &&
	       same_text(x->users, y->users);
}

/* The end of the run of findings from @i that show_doc() heads. */
static size_t doc_group_end(const struct judgement *j, size_t i)
{
	size_t k = i + 1;

	while (k < j->nr && same_doc_group(&j->v[i], &j->v[k]))
		k++;
	return k;
}

/*
 * The entries the findings from @i to @end share, once above them, with
 * whom to ask about them and who uses them: "doc: Documentation/ABI/F#3,
 * #17, #40 (+2 more)"; "none" for undocumented findings below a level
 * that does not say so already.  Returns how many entries they are.
 */
static size_t show_doc(FILE *out, const struct judgement *j, size_t i,
		       size_t end)
{
	const struct doc_entry *d = j->v[i].doc;
	size_t k, shown = 0, lines = 0;
	uint32_t last = 0;

	if (!d) {
		if (j->v[i].level != LEVEL_UNDOCUMENTED)
			fprintf(out, "  %-9snone\n", "doc:");
		return 0;
	}
	fprintf(out, "  %-9s%s", "doc:", doc_entry__dir(d));
	fputs_quoted(d->file, out);
	/* sorted by file and line: an entry's findings are together */
	for (k = i; k < end; k++) {
		uint32_t line = j->v[k].doc->line;

		if (lines && line == last)
			continue;
		lines++;
		last = line;
		if (shown < SHOWN_INSTANCES)
			fprintf(out, "%s#%u", shown++ ? ", " : "", line);
	}
	if (lines > shown)
		fprintf(out, " (+%zu more)", lines - shown);
	fputc('\n', out);
	if (d->contact)
		show_field(out, 2, "contact:", d->contact);
	if (d->users)
		show_field(out, 2, "users:", d->users);
	return lines;
}

/*
 * Whether @v is the first notice of its mailbox among the findings of @j
 * from @i on (up to its own).
 */
static bool first_notice(const struct judgement *j, size_t i,
			 const struct notice *v)
{
	return !v->prev || v->prev < &j->v[i];
}

/*
 * Whom to tell about the findings from @i to @end, each mailbox once as
 * first written, when that is more than the Contact: above says: under
 * their doc entry, or under a finding without one.
 */
static void show_notify(FILE *out, const struct judgement *j,
			const struct notify *n, size_t i, size_t end)
{
	const struct finding_notices *to = n->findings;
	bool others = false, first = true;
	size_t k, l;

	for (k = i; k < end; k++)
		for (l = 0; l < to[k].nr; l++)
			others |= first_notice(j, i, &to[k].v[l]) &&
				  !to[k].v[l].contact;
	if (!others)
		return;
	fprintf(out, "%*s%-9s", j->v[i].doc ? 2 : 6, "", "notify:");
	for (k = i; k < end; k++) {
		for (l = 0; l < to[k].nr; l++) {
			if (!first_notice(j, i, &to[k].v[l]))
				continue;
			if (!first)
				fputs(", ", out);
			fputs_escaped(to[k].v[l].address, out);
			first = false;
		}
	}
	fputc('\n', out);
}

/*
 * A finding, under the heading of its entry; @name_entry when the heading
 * has several and the finding's old -> new does not say which.
 */
static void show_finding(const struct judgement *j, const struct finding *f,
			 bool name_entry, FILE *out)
{
	const struct change *c = f->change;

	fprintf(out, "    %s  ", change_kind__name(c->kind));
	fputs_quoted(c->subject, out);
	fputs("\n      ", out);
	fputs_quoted(c->old ? c->old : "(absent)", out);
	fputs(" -> ", out);
	fputs_quoted(c->new ? c->new : "(absent)", out);
	fputc('\n', out);
	if (c->nr_instances)
		show_instances(out, c);
	if (name_entry)
		fprintf(out, "      %-9s#%u\n", "entry:", f->doc->line);
	if (f->cap) {
		fprintf(out, "      %-9s", "capped:");
		fputs_quoted(f->cap, out);
		fprintf(out, " is judged %s at most\n", abi_level__name(f->level));
	}
	if (f->removal_ahead)
		fputs("      removed before the date its documentation announced\n",
		      out);
	if (f->waiver) {
		fprintf(out, "      %-9s%s by %s:%u: ", "waived:",
			verdict__name(f->verdict), j->waivers->file,
			f->waiver->line);
		fputs_quoted(f->waiver->reason, out);
		fputc('\n', out);
	}
}

static void show_heading(FILE *out, const char *name, enum verdict v,
			 bool colour)
{
	fprintf(out, "%s%s%s\n", colour ? verdict_colour[v] : "", name,
		colour ? COLOUR_RESET : "");
}

/*
 * "kabidiff: OLD -> NEW; compared: PARTS", then all that is known of both
 * sides and the rules they were judged by, a line each.
 */
static void show_header(const struct judgement *j, FILE *out)
{
	char buf[1024];

	fputs("kabidiff: ", out);
	fputs_quoted(report_side(buf, sizeof(buf), j->old, j->old_name), out);
	fputs(" -> ", out);
	fputs_quoted(report_side(buf, sizeof(buf), j->new, j->new_name), out);
	fprintf(out, "; compared: %s\n",
		report_parts(buf, sizeof(buf), j->diff));
	fputs("  old:   ", out);
	fputs_escaped(report_side_details(buf, sizeof(buf), j->old,
					  j->old_name), out);
	fputs("\n  new:   ", out);
	fputs_escaped(report_side_details(buf, sizeof(buf), j->new,
					  j->new_name), out);
	fputs("\n  rules: ", out);
	fputs_escaped(report_rules(buf, sizeof(buf), j), out);
	fputc('\n', out);
}

/*
 * --stat: one line per part, kind, level and verdict with its count, like
 * git diff --stat's one line per file.
 */
static int show_stat(const struct judgement *j, FILE *out, bool colour)
{
	struct report_stat_row *rows;
	int wpart = 0, wkind = 0, wlevel = 0, wcount = 0;
	size_t i, nr;
	int err = report_stat(j, &rows, &nr);

	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		const struct report_stat_row *r = &rows[i];
		int n = snprintf(NULL, 0, "%zu", r->count);

		wpart = max_int(wpart, strlen(change_part__name(change_kind__part(r->kind))));
		wkind = max_int(wkind, strlen(change_kind__name(r->kind)));
		wlevel = max_int(wlevel, strlen(abi_level__name(r->level)));
		wcount = max_int(wcount, n);
	}
	for (i = 0; i < nr; i++) {
		const struct report_stat_row *r = &rows[i];
		bool paint = colour && !r->waived;

		fprintf(out, " %-*s  %-*s  %-*s | %*zu %s%s%s%s\n", wpart,
			change_part__name(change_kind__part(r->kind)), wkind,
			change_kind__name(r->kind), wlevel,
			abi_level__name(r->level), wcount, r->count,
			paint ? verdict_colour[r->verdict] : "",
			verdict__name(r->verdict), paint ? COLOUR_RESET : "",
			r->waived ? ", waived" : "");
	}
	free(rows);
	return 0;
}

/* One line of show_note_counts(): the notes of a part and kind. */
struct note_count {
	enum change_kind kind;
	size_t count;
};

/*
 * The notes of @notes counted by part and kind, in the order of the kinds
 * (and so of the parts), for a reader who wants the breaks and warns and
 * only the size of the rest; --verdict note lists them.
 */
static void show_note_counts(const struct judgement *notes, FILE *out,
			     bool colour)
{
	size_t per_kind[CHANGE_KIND_COUNT] = { 0 }, total = 0, i;
	int wkind = 0, wcount = 0;

	for (i = 0; i < notes->nr; i++)
		if (notes->v[i].verdict == VERDICT_NOTE && !notes->v[i].waiver) {
			per_kind[notes->v[i].change->kind]++;
			total++;
		}
	if (!total)
		return;
	for (i = 0; i < CHANGE_KIND_COUNT; i++)
		if (per_kind[i]) {
			wkind = max_int(wkind, strlen(change_kind__name(i)));
			wcount = max_int(wcount, snprintf(NULL, 0, "%zu",
							  per_kind[i]));
		}
	show_heading(out, "== note ==", VERDICT_NOTE, colour);
	fprintf(out, "  %zu notes, counted by part and kind (--verdict note lists them):\n",
		total);
	for (i = 0; i < CHANGE_KIND_COUNT; i++)
		if (per_kind[i])
			fprintf(out, "    %-8s %-*s %*zu\n",
				change_part__name(change_kind__part(i)), wkind,
				change_kind__name(i), wcount, per_kind[i]);
}

int show_report_text(const struct judgement *j,
		     const struct report_filter *filter,
		     const struct judgement *notes,
		     const struct notify *n, FILE *out, bool colour)
{
	const struct finding *prev = NULL;
	size_t i, entries = 0, total = report_total(j);
	char buf[256];
	int err;

	if (total)
		show_header(j, out);

	if (filter && filter->stat) {
		err = show_stat(j, out, colour);
		if (err)
			return err;
	}
	for (i = 0; !(filter && filter->stat) && i < j->nr; i++) {
		const struct finding *f = &j->v[i];
		bool new_group = !prev || !prev->waiver != !f->waiver ||
				 (!f->waiver && prev->verdict != f->verdict);

		if (new_group)
			show_heading(out, f->waiver ? "== waived ==" :
				     f->verdict == VERDICT_BREAK ? "== break ==" :
				     f->verdict == VERDICT_WARN ? "== warn ==" :
				     "== note ==", f->verdict, colour && !f->waiver);
		if (new_group || prev->level != f->level)
			fprintf(out, "-- %s --\n", abi_level__name(f->level));
		if (!prev || !same_doc_group(prev, f)) {
			size_t end = doc_group_end(j, i);

			entries = show_doc(out, j, i, end);
			if (f->doc)
				show_notify(out, j, n, i, end);
		}
		show_finding(j, f, entries > 1 &&
			     change_kind__part(f->change->kind) != PART_DOCS, out);
		/* undocumented findings of all parts: each its own */
		if (!f->doc)
			show_notify(out, j, n, i, i + 1);
		prev = f;
	}
	if (total && notes && !(filter && filter->stat))
		show_note_counts(notes, out, colour);
	if (total)
		fprintf(out, "%s%zu break, %zu warn, %zu note, %zu waived\n",
			filter && filter->stat ? "" : "\n",
			j->count[VERDICT_BREAK], j->count[VERDICT_WARN],
			j->count[VERDICT_NOTE], j->waived);
	if (total && report_filter__narrows(filter))
		fprintf(out, "shown: %zu of %zu findings (%s)%s\n", j->nr, total,
			report_filter__describe(buf, sizeof(buf), filter),
			notes ? ", the notes counted" : "");
	return ferror(out) ? -EIO : 0;
}
