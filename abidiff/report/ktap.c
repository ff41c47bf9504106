// SPDX-License-Identifier: GPL-2.0-only
/*
 * The KTAP report (the kernel's Documentation/dev-tools/ktap.rst, version
 * 1), for kselftest runners and KernelCI: one test per part compared, its
 * findings the subtests.  A break not waived is "not ok", every other
 * finding "ok"; a part fails when one of its findings does.  What a
 * finding is about goes into the diagnostic lines before its result line.
 * A part without a finding to show is a test without subtests.
 * A part's subtests start as KUnit's do, "# Subtest: PART" between their
 * version line and their plan.
 *
 *	KTAP version 1
 *	1..2
 *	# kabidiff: OLD -> NEW; compared: sysfs, docs
 *	  KTAP version 1
 *	  # Subtest: sysfs
 *	  1..1
 *	  # break: stable interface
 *	  # file 0444 uint -> (absent)
 *	  # doc: Documentation/ABI/stable/sysfs-kabi:1
 *	  not ok 1 node-removed /sys/kabi/gone
 *	not ok 1 sysfs
 *	  ...
 *	# 1 break, 0 warn, 0 note, 0 waived
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/bytes.h"
#include "report.h"

/*
 * Text on a KTAP line: a description may hold neither '#' nor a newline,
 * and no line may drive the terminal.  Text that needs it is quoted as the
 * text report quotes it (\n, \t, \\, \", \xHH), '#' as \x23, and written
 * whole: a finding's subject is its test's name, and two subjects that
 * differ only far in must make two names.
 */
static void show_text(FILE *out, const char *s)
{
	fputs_quoted_also(s, "#", out);
}

static void show_diag(FILE *out, const char *label, const char *text)
{
	fprintf(out, "  # %s", label);
	show_text(out, text);
	fputc('\n', out);
}

static bool fails(const struct finding *f)
{
	return f->verdict == VERDICT_BREAK && !f->waiver;
}

static void show_finding(const struct judgement *j, const struct finding *f,
			 size_t nr, FILE *out)
{
	const struct change *c = f->change;
	char buf[64];

	fprintf(out, "  # %s: %s interface%s\n", verdict__name(f->verdict),
		abi_level__name(f->level),
		f->removal_ahead ? ", removed before its announced date" : "");
	fputs("  # ", out);
	show_text(out, c->old ? c->old : "(absent)");
	fputs(" -> ", out);
	show_text(out, c->new ? c->new : "(absent)");
	fputc('\n', out);
	if (c->nr_instances) {
		snprintf(buf, sizeof(buf), "%zu instances, the first: ",
			 c->nr_instances);
		show_diag(out, buf, c->instances[0]);
	}
	if (f->doc) {
		fprintf(out, "  # doc: %s", doc_entry__dir(f->doc));
		show_text(out, f->doc->file);
		fprintf(out, ":%u\n", f->doc->line);
		if (f->doc->contact)
			show_diag(out, "contact: ", f->doc->contact);
		if (f->doc->users)
			show_diag(out, "users: ", f->doc->users);
	}
	if (f->cap) {
		fputs("  # capped: ", out);
		show_text(out, f->cap);
		fprintf(out, " is judged %s at most\n", abi_level__name(f->level));
	}
	if (f->waiver) {
		fprintf(out, "  # waived by ");
		show_text(out, j->waivers->file);
		fprintf(out, ":%u: ", f->waiver->line);
		show_text(out, f->waiver->reason);
		fputc('\n', out);
	}
	fprintf(out, "  %s %zu %s ", fails(f) ? "not ok" : "ok", nr,
		change_kind__name(c->kind));
	show_text(out, c->subject);
	fputc('\n', out);
}

/* The parts the report has a test for: those compared and shown. */
static bool part_shown(const struct judgement *j,
		       const struct report_filter *filter, int part)
{
	return j->diff->compared[part] &&
	       (!filter || !filter->parts || (filter->parts & 1u << part));
}

int show_report_ktap(const struct judgement *j,
		     const struct report_filter *filter, FILE *out)
{
	size_t i, nr, parts = 0, test = 0;
	char buf[1024];
	bool failed;
	int part;

	for (part = 0; part < PART_COUNT; part++)
		parts += part_shown(j, filter, part);
	fprintf(out, "KTAP version 1\n1..%zu\n# kabidiff: ", parts);
	show_text(out, report_side(buf, sizeof(buf), j->old, j->old_name));
	fputs(" -> ", out);
	show_text(out, report_side(buf, sizeof(buf), j->new, j->new_name));
	/* a comment line may hold '#': "#1 SMP" stays as it is */
	fprintf(out, "; compared: %s\n# old: ", report_parts(buf, sizeof(buf), j->diff));
	fputs_escaped(report_side_details(buf, sizeof(buf), j->old, j->old_name), out);
	fputs("\n# new: ", out);
	fputs_escaped(report_side_details(buf, sizeof(buf), j->new, j->new_name), out);
	fputs("\n# rules: ", out);
	fputs_escaped(report_rules(buf, sizeof(buf), j), out);
	fputc('\n', out);
	if (report_filter__narrows(filter))
		fprintf(out, "# shown: %zu of %zu findings (%s)\n", j->nr,
			report_total(j),
			report_filter__describe(buf, sizeof(buf), filter));
	for (part = 0; part < PART_COUNT; part++) {
		if (!part_shown(j, filter, part))
			continue;
		for (i = 0, nr = 0; i < j->nr; i++)
			nr += (int)change_kind__part(j->v[i].change->kind) == part;
		/* no subtests: KUnit's parser takes "1..0" for an error */
		if (!nr) {
			fprintf(out, "# %s: no change shown\nok %zu %s\n",
				change_part__name(part), ++test,
				change_part__name(part));
			continue;
		}
		fprintf(out, "  KTAP version 1\n  # Subtest: %s\n  1..%zu\n",
			change_part__name(part), nr);
		failed = false;
		for (i = 0, nr = 0; i < j->nr; i++) {
			const struct finding *f = &j->v[i];

			if ((int)change_kind__part(f->change->kind) != part)
				continue;
			show_finding(j, f, ++nr, out);
			failed |= fails(f);
		}
		fprintf(out, "%s %zu %s\n", failed ? "not ok" : "ok", ++test,
			change_part__name(part));
	}
	fprintf(out, "# %zu break, %zu warn, %zu note, %zu waived\n",
		j->count[VERDICT_BREAK], j->count[VERDICT_WARN],
		j->count[VERDICT_NOTE], j->waived);
	return ferror(out) ? -EIO : 0;
}
