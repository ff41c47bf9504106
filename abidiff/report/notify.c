// SPDX-License-Identifier: GPL-2.0-only
/*
 * --notify: whom to tell and what each should look at, ready to paste
 * into a mail.
 */
#include <errno.h>
#include <stdio.h>

#include "lib/bytes.h"
#include "report.h"

/* How many reasons a recipient shows before "(+N more)". */
#define SHOWN_REASONS	3

static void show_recipient(FILE *out, const struct recipient *r)
{
	size_t i;

	fputc('\n', out);
	fputs_escaped(r->address, out);
	fputs("\n  why: ", out);
	for (i = 0; i < r->nr_why && i < SHOWN_REASONS; i++) {
		if (i)
			fputs("; ", out);
		fputs_escaped(r->why[i], out);
	}
	if (r->nr_why > SHOWN_REASONS)
		fprintf(out, " (+%zu more)", r->nr_why - SHOWN_REASONS);
	fputc('\n', out);
	for (i = 0; i < r->nr_findings; i++) {
		const struct finding *f = r->findings[i];

		fprintf(out, "  %-6s %s  ", f->waiver ? "waived" :
			verdict__name(f->verdict), change_kind__name(f->change->kind));
		fputs_quoted(f->change->subject, out);
		fputc('\n', out);
	}
}

int show_report_notify(const struct judgement *j, const struct notify *n,
		       FILE *out)
{
	char buf[512];
	size_t i;

	if (!j->nr)
		return 0;
	fputs("kabidiff: ", out);
	fputs_quoted(report_side(buf, sizeof(buf), j->old, j->old_name), out);
	fputs(" -> ", out);
	fputs_quoted(report_side(buf, sizeof(buf), j->new, j->new_name), out);
	fputs("\nTo: ", out);
	for (i = 0; i < n->nr; i++) {
		if (i)
			fputs(", ", out);
		fputs_escaped(n->v[i].address, out);
	}
	fputc('\n', out);
	for (i = 0; i < n->nr; i++)
		show_recipient(out, &n->v[i]);
	if (n->nobody)
		fprintf(out, "\nno one to tell about %zu finding%s: undocumented, or the entry names no Contact:%s\n",
			n->nobody, n->nobody == 1 ? "" : "s",
			n->maintainers ? "" : " (--maintainers FILE may name more)");
	return ferror(out) ? -EIO : 0;
}
