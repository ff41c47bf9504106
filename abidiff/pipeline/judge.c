// SPDX-License-Identifier: GPL-2.0-only
/*
 * Judging for the commands that compare (diff, check, docs diff, bisect):
 * the policy and waivers they load, and the diff, judgement and report
 * they run.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diff/diff.h"
#include "lib/clock.h"
#include "lib/print.h"
#include "exit-status.h"
#include "judge.h"
#include "side.h"

/*
 * The options that cannot go together, told before any work: --stat
 * counts for a reader, the CI formats list a test per finding.  Returns
 * 0 or -EINVAL, reported.
 */
static int check_options(const struct diff_options *o)
{
	if (o->notify && (o->filter.stat || o->format != REPORT_TEXT)) {
		pr_err("--notify prints whom to tell as text: not with --stat, --format or --json");
		return -EINVAL;
	}
	if (!o->filter.stat || o->format == REPORT_TEXT ||
	    o->format == REPORT_JSON || o->format == REPORT_MARKDOWN)
		return 0;
	pr_err("--stat is for the text, json and markdown formats, not %s",
	       report_format__name(o->format));
	return -EINVAL;
}

/* How to collect each part, for the message that a side lacks it. */
static const char * const part_options[PART_COUNT] = {
	[PART_SYSFS]	= "--image or --sysfs-dir",
	[PART_SYSCALLS]	= "--vmlinux",
	[PART_VDSO]	= "--vdso",
	[PART_TYPES]	= "--vmlinux",
	[PART_DOCS]	= "--docs or --docs-git",
	[PART_CENSUS]	= "--census",
};

static void parts_of(const struct snapshot *s, bool has[PART_COUNT])
{
	has[PART_SYSFS] = s->sysfs.collected;
	has[PART_SYSCALLS] = s->syscalls.collected;
	has[PART_VDSO] = s->vdso.collected;
	has[PART_TYPES] = s->types.collected;
	has[PART_DOCS] = s->docs.collected;
	has[PART_CENSUS] = s->census.collected;
}

static bool wanted(unsigned int parts, int part)
{
	return !parts || (parts & 1u << part);
}

/*
 * A comparison must not pass by comparing nothing: each part to compare
 * (those of --parts, else all) must be on both sides.  Without --parts a
 * part neither side has is left out: docs diff compares docs-only
 * snapshots.  Reports each part missing; returns 0 or -EINVAL.
 */
static int check_parts(const struct snapshot *old, const struct snapshot *new,
		       const char *old_name, const char *new_name,
		       unsigned int parts)
{
	bool has[2][PART_COUNT];
	int i, k, err = 0;

	parts_of(old, has[0]);
	parts_of(new, has[1]);
	for (i = 0; i < PART_COUNT; i++) {
		char others[64] = "";
		size_t len = 0;

		if (!wanted(parts, i) || (has[0][i] && has[1][i]) ||
		    (!parts && !has[0][i] && !has[1][i]))
			continue;
		/* the parts to compare that both sides have */
		for (k = 0; k < PART_COUNT; k++)
			if (k != i && wanted(parts, k) && has[0][k] && has[1][k])
				len += snprintf(others + len, sizeof(others) - len,
						"%s%s", len ? "," : "",
						change_part__name(k));
		if (has[0][i] || has[1][i])
			pr_err("%s has no %s part: collect it with %s%s%s",
			       has[0][i] ? new_name : old_name,
			       change_part__name(i), part_options[i],
			       len ? ", or compare without it: --parts " : "",
			       others);
		else
			pr_err("neither %s nor %s has a %s part: collect it with %s%s%s",
			       old_name, new_name, change_part__name(i),
			       part_options[i],
			       len ? ", or compare without it: --parts " : "",
			       others);
		err = -EINVAL;
	}
	return err;
}

/*
 * The sysfs tree, syscalls and types of two architectures differ in
 * everything: comparing them would report the architecture, not a break.
 * Only the documentation, which is the same for all, may be compared.
 */
static int check_arch(const struct snapshot *old, const struct snapshot *new,
		      const char *old_name, const char *new_name,
		      unsigned int parts)
{
	const char *a = old->kernel.arch, *b = new->kernel.arch;

	if (!a || !b || !strcmp(a, b) || parts == 1u << PART_DOCS)
		return 0;
	pr_err("%s is of architecture %s and %s of %s: the ABIs of two architectures cannot be compared (--parts docs compares their documentation)",
	       old_name, a, new_name, b);
	return -EINVAL;
}

/*
 * Two machines have other devices, so other sysfs trees: comparing them
 * would report the machine, not the kernel.  A snapshot that records no
 * machine (a tree read from a directory) is compared with any.
 */
static int check_machine(const struct snapshot *old, const struct snapshot *new,
			 const char *old_name, const char *new_name,
			 unsigned int parts)
{
	const struct machine *a = &old->machine, *b = &new->machine;

	if (!wanted(parts, PART_SYSFS) || !a->recorded || !b->recorded ||
	    !strcmp(a->profile, b->profile))
		return 0;
	pr_err("%s was booted on the %s machine and %s on the %s one: their sysfs trees differ by the machine's devices; collect both with the same --machine, or compare without sysfs (--parts)",
	       old_name, a->profile, new_name, b->profile);
	return -EINVAL;
}

/*
 * diff__run() on the parts to compare: on copies of @old and @new whose
 * other parts are marked not collected.  Without docs OLD keeps its
 * entries, which give the levels and tell instances from interfaces; only
 * NEW's are hidden, so that no doc-* change is found.
 */
static int diff_parts(const struct snapshot *old, const struct snapshot *new,
		      const char *old_name, const char *new_name,
		      unsigned int parts, struct diff *d)
{
	struct snapshot a = *old, b = *new;
	int err = check_parts(old, new, old_name, new_name, parts);

	if (!err)
		err = check_arch(old, new, old_name, new_name, parts);
	if (!err)
		err = check_machine(old, new, old_name, new_name, parts);
	if (err)
		return err;
	if (!wanted(parts, PART_SYSFS))
		a.sysfs.collected = b.sysfs.collected = false;
	if (!wanted(parts, PART_SYSCALLS))
		a.syscalls.collected = b.syscalls.collected = false;
	if (!wanted(parts, PART_VDSO))
		a.vdso.collected = b.vdso.collected = false;
	if (!wanted(parts, PART_TYPES))
		a.types.collected = b.types.collected = false;
	if (!wanted(parts, PART_DOCS))
		b.docs.collected = false;
	return diff__run(&a, &b, d);
}

/*
 * The syscall ABIs @s collected and @other did not, whose syscalls the
 * diff left alone: a snapshot of format version 1 has x86_64's only.
 */
static void warn_syscall_abis(const struct snapshot *s, const char *name,
			      const struct snapshot *other, const char *other_name)
{
	char list[256];
	size_t i, len = 0;

	for (i = 0; i < s->nr_syscall_abis && len < sizeof(list); i++)
		if (!snapshot__has_syscall_abi(other, s->syscall_abis[i]))
			len += snprintf(list + len, sizeof(list) - len, "%s%s",
					len ? ", " : "", s->syscall_abis[i]);
	if (len)
		pr_warn("%s did not collect the %s syscall tables that %s has (a snapshot of an older kabidiff?): their syscalls are not compared; collect it again with --vmlinux",
			other_name, list, name);
}

/* Without OLD's documentation every finding is judged undocumented. */
static void warn_undocumented(const struct judgement *j, const char *old_name)
{
	if (!j->old->docs.collected && j->nr)
		pr_warn("%s has no docs part: every change is judged as undocumented",
			old_name);
}

/* Removal dates judged as passed, for want of a date: said once. */
static void warn_undated(const struct judgement *j, const char *new_name)
{
	if (j->undated)
		pr_warn("%s records no build date: the removal dates that obsolete entries announce are judged as passed (%zu removed interface%s); give the date to judge against with --as-of YYYY-MM-DD",
			new_name, j->undated, j->undated == 1 ? "" : "s");
}

static void warn_unused_waivers(const struct waivers *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		if (!w->v[i].matched)
			pr_warn("%s:%u: waiver matched no change",
				w->file, w->v[i].line);
}

/* no-color.org: NO_COLOR set and not empty turns colour off */
static bool no_color(void)
{
	const char *v = getenv("NO_COLOR");

	return v && *v;
}

/* --notify: the findings that count, unless --verdict says otherwise. */
static int render_notify(const struct judgement *all,
			 const struct diff_options *o,
			 const struct maintainers *m)
{
	struct report_filter filter = o->filter;
	struct notify n = { 0 };
	struct judgement j;
	int err;

	if (!o->verdict_given)
		filter.verdict = VERDICT_WARN;
	err = report_filter__apply(&filter, all, &j);
	if (!err)
		err = notify__build(&n, &j, m);
	if (!err)
		err = show_report_notify(&j, &n, stdout);
	notify__release(&n);
	free(j.v);
	return err;
}

/*
 * Whether the report lists the breaks and warns and counts the notes: the
 * text a reviewer reads, unless --verdict asks for more (or less) or
 * --stat for counts of everything.  The other formats are read by
 * programs, which get every finding.
 */
static bool counts_notes(const struct diff_options *o)
{
	return o->format == REPORT_TEXT && !o->verdict_given && !o->filter.stat;
}

static int render_report(const struct judgement *all,
			 const struct diff_options *o,
			 const struct maintainers *m)
{
	struct report_filter filter = o->filter;
	struct judgement j, notes = { 0 };
	struct notify n = { 0 };
	int err;

	if (counts_notes(o))
		filter.verdict = VERDICT_WARN;
	err = report_filter__apply(&filter, all, &j);
	if (!err && counts_notes(o))
		err = report_filter__apply(&o->filter, all, &notes);
	if (!err)
		err = notify__build(&n, &j, m);
	if (err)
		goto out_release;
	switch (o->format) {
	case REPORT_JSON:
		err = show_report_json(&j, &filter, &n, stdout);
		break;
	case REPORT_MARKDOWN:
		err = show_report_markdown(&j, &filter, &n, stdout);
		break;
	case REPORT_KTAP:
		err = show_report_ktap(&j, &filter, stdout);
		break;
	case REPORT_JUNIT:
		err = show_report_junit(&j, &filter, stdout);
		break;
	case REPORT_SARIF:
		err = show_report_sarif(&j, &filter, stdout);
		break;
	default:
		err = show_report_text(&j, &o->filter,
				       counts_notes(o) ? &notes : NULL, &n,
				       stdout, o->colour < 0 ?
				       isatty(STDOUT_FILENO) && !no_color() :
				       o->colour);
		break;
	}
out_release:
	notify__release(&n);
	free(notes.v);
	free(j.v);
	return err;
}

/* The report @o asks for, with the MAINTAINERS file it names. */
static int render(const struct judgement *j, const struct diff_options *o)
{
	struct maintainers m = { 0 };
	int err = 0;

	if (o->maintainers_file)
		err = maintainers__load(&m, o->maintainers_file);
	if (err)
		return err;
	if (o->notify)
		err = render_notify(j, o, o->maintainers_file ? &m : NULL);
	else
		err = render_report(j, o, o->maintainers_file ? &m : NULL);
	maintainers__release(&m);
	return err;
}

int load_policy(const struct diff_options *o, struct policy *p,
		struct waivers *w)
{
	int err = 0;

	policy__init(p);
	p->strict = o->strict;
	p->as_of = o->as_of;
	err = check_options(o);
	if (!err && o->policy_file)
		err = policy__load(p, o->policy_file);
	if (!err && o->waiver_file)
		err = waivers__load(w, o->waiver_file);
	return err;
}

int judge_snapshots(const struct snapshot *old, const struct snapshot *new,
		    const char *old_name, const char *new_name,
		    const struct policy *p, struct waivers *w,
		    const struct diff_options *o)
{
	struct judgement j = { 0 };
	struct diff d = { 0 };
	struct timespec start;
	int err;

	if (check_options(o))
		return EXIT_TROUBLE;
	clock_gettime(CLOCK_MONOTONIC, &start);
	err = diff_parts(old, new, old_name, new_name, o->parts, &d);
	if (!err)
		err = policy__judge(p, o->waiver_file ? w : NULL, old, new, &d, &j);
	if (!err) {
		j.old_name = old_name;
		j.new_name = new_name;
		j.policy_file = o->policy_file;
		j.maintainers_file = o->maintainers_file;
		pr_info("%zu changes found and judged in %.3f s", d.nr,
			seconds_since(&start));
		if (d.compared[PART_SYSCALLS]) {
			warn_syscall_abis(old, old_name, new, new_name);
			warn_syscall_abis(new, new_name, old, old_name);
		}
		warn_undocumented(&j, old_name);
		warn_undated(&j, new_name);
		warn_unused_waivers(w);
		err = render(&j, o);
	}
	if (err == -ENOMEM)
		pr_err("out of memory");
	judgement__release(&j);
	diff__release(&d);
	if (err)
		return EXIT_TROUBLE;
	return j.count[VERDICT_BREAK] ? EXIT_BREAK : EXIT_OK;
}

/* A side loaded in a thread of its own, its messages held back. */
struct side_load {
	const struct judge_side *side;
	struct snapshot *s;
	struct kabi_held_lines held;
};

static void *load_held(void *arg)
{
	struct side_load *l = arg;

	kabi_print_hold(&l->held);
	l->s = l->side->load(l->side);
	kabi_print_hold(NULL);
	return NULL;
}

/*
 * Load @old into *@a, then @new into *@b unless @old failed.  Loading a
 * snapshot file is mostly JSON parsing, one core's work: with two cores
 * both sides take the time of one, so concurrent sides are loaded side by
 * side.  What a single thread would print is printed all the same: OLD's
 * messages, then NEW's, none of NEW's if OLD failed.
 */
static void load_sides(const struct judge_side *old,
		       const struct judge_side *new,
		       struct snapshot **a, struct snapshot **b)
{
	struct side_load l = { .side = new };
	pthread_t thread;

	if (!old->concurrent || !new->concurrent ||
	    pthread_create(&thread, NULL, load_held, &l)) {
		*a = old->load(old);
		*b = *a ? new->load(new) : NULL;
		return;
	}
	*a = old->load(old);
	pthread_join(thread, NULL);
	if (*a) {
		kabi_print_replay(&l.held);
		*b = l.s;
	} else {
		kabi_held_lines__release(&l.held);
		snapshot__free(l.s);
		*b = NULL;
	}
}

char *side_tree_maintainers(const struct judge_side *side)
{
	return side_maintainers(side->name);
}

/* The MAINTAINERS of NEW's tree, else of OLD's, or NULL. */
static char *tree_maintainers(const struct judge_side *old,
			      const struct judge_side *new)
{
	char *path = new->maintainers ? new->maintainers(new) : NULL;

	if (!path && old->maintainers)
		path = old->maintainers(old);
	if (path)
		pr_info("%s: whom to notify, by its sections", path);
	return path;
}

int judge_sides(const struct judge_side *old, const struct judge_side *new,
		const struct diff_options *o)
{
	struct snapshot *a = NULL, *b = NULL;
	struct diff_options with = *o;
	struct waivers waivers = { 0 };
	char *maintainers = NULL;
	struct policy p;
	int status = EXIT_TROUBLE;

	if (!load_policy(o, &p, &waivers))
		load_sides(old, new, &a, &b);
	if (a && b && !o->maintainers_file)
		with.maintainers_file = maintainers = tree_maintainers(old, new);
	if (a && b)
		status = judge_snapshots(a, b, old->name, new->name, &p,
					 &waivers, &with);
	free(maintainers);
	waivers__release(&waivers);
	policy__release(&p);
	snapshot__free(a);
	snapshot__free(b);
	return status;
}

int count_verdicts(const struct snapshot *old, const struct snapshot *new,
		   const struct policy *p, struct waivers *w,
		   const struct diff_options *o, size_t count[VERDICT_COUNT])
{
	struct judgement j = { 0 };
	struct diff d = { 0 };
	int err = diff_parts(old, new, "OLD", "NEW", o->parts, &d);

	if (!err)
		err = policy__judge(p, w, old, new, &d, &j);
	if (!err)
		memcpy(count, j.count, sizeof(j.count));
	judgement__release(&j);
	diff__release(&d);
	return err;
}
