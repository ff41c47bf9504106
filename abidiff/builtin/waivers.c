// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff waivers [--verdict V] [-o FILE] REPORT
 *
 * A waiver file for the findings of a JSON report: a waiver for each
 * finding that counts towards the exit status (or of --verdict V or worse)
 * and no waiver accepts yet, its reason the placeholder that waivers__load()
 * refuses until a person has said why the change is accepted.  The report
 * is read, not judged again: the findings are those it lists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/diff-options.h"
#include "cli/options.h"
#include "cli/output.h"
#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/fileio.h"
#include "model/jstr.h"
#include "model/snapshot-json.h"
#include "pipeline/judge.h"
#include "policy/policy.h"

/*
 * The JSON report of docs/report.schema.json (REPORT_FORMAT, at most
 * REPORT_VERSION).  Every version so far has what is read here (a
 * finding's kind, subject, verdict, level, doc and waiver); a newer one
 * may not, so it is refused until this reads it.
 */
#define REPORT_VERSION_MIN	1

/* The SUBJECT column is as wide as the widest subject up to this. */
#define SUBJECT_COLUMN_MAX	60

static const char waivers_usage[] =
	"Usage: kabidiff waivers [--verdict V] [-o FILE] REPORT\n\n"
	"Write a waiver file (docs/policy.md) accepting the findings of REPORT,\n"
	"a JSON report ('kabidiff diff --format json'; '-': standard input): a\n"
	"line KIND SUBJECT REASON per finding, the subject escaped so that the\n"
	"waiver accepts that subject alone, under a comment with the finding's\n"
	"verdict, level and doc entry.  Every REASON is the placeholder\n"
	"\"" WAIVER_REASON_PLACEHOLDER "\",\n"
	"which --waivers refuses until it is replaced by why the change is\n"
	"accepted.  Findings a waiver already accepts are left out.\n\n"
	"  --verdict V       the least severe verdict to waive: break, warn (the\n"
	"                    default: the findings the exit status counts) or note\n"
	OUTPUT_HELP;

/* A finding of the report, what its waiver is written from. */
struct report_finding {
	enum change_kind kind;
	enum verdict verdict;
	enum abi_level level;
	char *subject;		/* its bytes, decoded */
	char *doc_file;		/* relative to doc_dir, or NULL */
	const char *doc_dir;	/* "Documentation/ABI/", or a sysctl's */
	json_int_t doc_line;
	size_t instances;	/* of a grouped finding, else 0 */
	bool waived;
};

struct report {
	const char *file;	/* as given; "-" is standard input */
	char *old, *new;	/* how the report names the two kernels */
	struct report_finding *v;
	size_t nr, alloc;
	json_int_t shown, total;	/* of a narrowed report, else 0 */
};

static void report__release(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->v[i].subject);
		free(r->v[i].doc_file);
	}
	free(r->v);
	free(r->old);
	free(r->new);
}

/* "FILE: findings[I].KEY: what is wrong" (@key NULL: the finding itself). */
static int __printf(4, 5) bad(const struct report *r, size_t i,
			      const char *key, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	pr_err("%s: findings[%zu]%s%s: %s", r->file, i, key ? "." : "",
	       key ? key : "", msg ? msg : fmt);
	free(msg);
	return -EINVAL;
}

/* The string @key of finding @i, or NULL (reported). */
static const char *want_string(const struct report *r, size_t i,
			       const json_t *f, const char *key)
{
	const json_t *v = json_object_get(f, key);

	if (json_is_string(v))
		return json_string_value(v);
	bad(r, i, key, "%s", v ? "not a string" : "missing");
	return NULL;
}

/* The bytes the string @key of finding @i stands for, malloc()ed. */
static int want_bytes(const struct report *r, size_t i, const json_t *f,
		      const char *key, char **out)
{
	const json_t *v = json_object_get(f, key);
	int err;

	if (!json_is_string(v))
		return bad(r, i, key, "%s", v ? "not a string" : "missing");
	err = jstr__decode(v, out);
	if (err == -EINVAL)
		return bad(r, i, key, "not a byte string (a '\\' not followed by '\\' or xHH, or a NUL)");
	return err;
}

/* "doc": null, or the entry's source, file and the line of its first What:. */
static int read_doc(const struct report *r, size_t i, const json_t *f,
		    struct report_finding *rf)
{
	const json_t *doc = json_object_get(f, "doc");
	struct doc_entry entry = { 0 };
	const json_t *line;
	const char *source;

	if (json_is_null(doc))
		return 0;
	if (!json_is_object(doc))
		return bad(r, i, "doc", "not null or an object");
	line = json_object_get(doc, "line");
	if (!json_is_integer(line) || json_integer_value(line) < 1)
		return bad(r, i, "doc.line", "not a line number");
	rf->doc_line = json_integer_value(line);
	source = want_string(r, i, doc, "source");
	if (!source)
		return -EINVAL;
	if (doc_source__parse(source, &entry.source))
		return bad(r, i, "doc.source", "not abi or sysctl");
	rf->doc_dir = doc_entry__dir(&entry);
	return want_bytes(r, i, doc, "file", &rf->doc_file);
}

static int read_finding(const struct report *r, size_t i, const json_t *f,
			struct report_finding *rf)
{
	const json_t *waiver = json_object_get(f, "waiver");
	const json_t *instances = json_object_get(f, "instances");
	const char *kind, *verdict, *level;

	if (!json_is_object(f))
		return bad(r, i, NULL, "not an object");
	kind = want_string(r, i, f, "kind");
	if (!kind)
		return -EINVAL;
	if (change_kind__parse(kind, &rf->kind))
		return bad(r, i, "kind", "'%s' is not a change kind", kind);
	verdict = want_string(r, i, f, "verdict");
	if (!verdict)
		return -EINVAL;
	if (verdict__parse(verdict, &rf->verdict))
		return bad(r, i, "verdict", "'%s' is not a verdict", verdict);
	level = want_string(r, i, f, "level");
	if (!level)
		return -EINVAL;
	if (abi_level__parse(level, &rf->level))
		return bad(r, i, "level", "'%s' is not a level", level);
	if (!json_is_null(waiver) && !json_is_object(waiver))
		return bad(r, i, "waiver", "%s",
			   waiver ? "not null or an object" : "missing");
	rf->waived = json_is_object(waiver);
	if (instances && !json_is_array(instances))
		return bad(r, i, "instances", "not an array");
	rf->instances = json_array_size(instances);
	return read_doc(r, i, f, rf) ?: want_bytes(r, i, f, "subject",
						    &rf->subject);
}

/*
 * How the report names a kernel: its release, else the name it was given
 * by, with the first 12 digits of its build id, as the text report's
 * header does.  Read leniently: a comment is made of it, nothing else.
 * NULL: out of memory.
 */
static char *kernel_name(const json_t *side)
{
	const json_t *what = json_object_get(side, "release");
	const json_t *id = json_object_get(side, "build_id");
	char *name = NULL, *named;

	if (!json_is_string(what))
		what = json_object_get(side, "name");
	if (json_is_string(what) && jstr__decode(what, &name) == -ENOMEM)
		return NULL;
	if (!json_is_string(id))
		return name ?: strdup("(unnamed)");
	named = xasprintf("%s (build id %.12s)", name ?: "(unnamed)",
			  json_string_value(id));
	free(name);
	return named;
}

/* The format and version first: they say whether to read on. */
static int check_format(const struct report *r, const json_t *root)
{
	const json_t *format = json_object_get(root, "format");
	const json_t *version = json_object_get(root, "version");
	json_int_t n;

	if (!json_is_object(root)) {
		pr_err("%s: not a kabidiff report: not a JSON object", r->file);
		return -EINVAL;
	}
	if (json_is_string(format) &&
	    !strcmp(json_string_value(format), "kabidiff-snapshot")) {
		pr_err("%s: a kabidiff snapshot, not a report: 'kabidiff diff --format json OLD NEW' writes one",
		       r->file);
		return -EINVAL;
	}
	if (!json_is_string(format) ||
	    strcmp(json_string_value(format), REPORT_FORMAT)) {
		pr_err("%s: not a kabidiff report: \"format\" is not \"%s\"",
		       r->file, REPORT_FORMAT);
		return -EINVAL;
	}
	if (!json_is_integer(version)) {
		pr_err("%s: version: not a report format version", r->file);
		return -EINVAL;
	}
	n = json_integer_value(version);
	if (n > REPORT_VERSION) {
		pr_err("%s: report format version %" JSON_INTEGER_FORMAT " is newer than this kabidiff reads (up to %d); upgrade kabidiff",
		       r->file, n, REPORT_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (n < REPORT_VERSION_MIN) {
		pr_err("%s: version: version %" JSON_INTEGER_FORMAT " does not exist",
		       r->file, n);
		return -EINVAL;
	}
	return 0;
}

/*
 * A report narrowed by --verdict or --only lists some findings only, and
 * one of --stat none: a waiver file of it would leave the others out
 * without a word.
 */
static int check_filter(struct report *r, const json_t *root)
{
	const json_t *filter = json_object_get(root, "filter");

	if (!filter)
		return 0;
	if (json_is_true(json_object_get(filter, "stat"))) {
		pr_err("%s: a --stat report counts the findings and lists none: write it without --stat",
		       r->file);
		return -EINVAL;
	}
	r->shown = json_integer_value(json_object_get(filter, "shown"));
	r->total = json_integer_value(json_object_get(filter, "total"));
	return 0;
}

static int read_report(struct report *r, const json_t *root)
{
	const json_t *findings = json_object_get(root, "findings");
	const json_t *f;
	size_t i;
	int err = check_format(r, root);

	if (!err)
		err = check_filter(r, root);
	if (err)
		return err;
	r->old = kernel_name(json_object_get(root, "old"));
	r->new = kernel_name(json_object_get(root, "new"));
	if (!r->old || !r->new)
		return -ENOMEM;
	if (!json_is_array(findings)) {
		pr_err("%s: findings: %s", r->file,
		       findings ? "not an array" : "missing");
		return -EINVAL;
	}
	json_array_foreach(findings, i, f) {
		struct report_finding *rf = ARRAY_APPEND(r->v, r->nr, r->alloc);

		if (!rf)
			return -ENOMEM;
		err = read_finding(r, i, f, rf);
		if (err)
			return err;
	}
	return 0;
}

/* Read the report @r->file; 0 or -errno, reported. */
static int report__load(struct report *r)
{
	json_error_t jerr;
	json_t *root;
	char *buf;
	size_t len;
	int err = read_file_or_report(r->file, SNAPSHOT_FILE_MAX, &buf, &len);

	if (err)
		return err;
	if (!len) {
		pr_err("%s: empty file, not a kabidiff report", r->file);
		free(buf);
		return -EINVAL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (!root) {
		pr_err("%s:%d:%d: %s", r->file, jerr.line, jerr.column,
		       jerr.text);
		return -EINVAL;
	}
	err = read_report(r, root);
	json_decref(root);
	if (err == -ENOMEM)
		pr_err("%s: out of memory", r->file);
	return err;
}

/* One line of the file, its SUBJECT field written; NULL when none can be. */
struct waiver_line {
	const struct report_finding *f;
	char *field;
	const char *why;	/* why there is no field */
	bool dropped;		/* another line says the same */
};

/* By kind and field, then in report order; no field sorts first. */
static int cmp_line(const void *a, const void *b)
{
	const struct waiver_line *x = *(const struct waiver_line * const *)a;
	const struct waiver_line *y = *(const struct waiver_line * const *)b;
	int c;

	if (x->f->kind != y->f->kind)
		return x->f->kind < y->f->kind ? -1 : 1;
	if (!x->field != !y->field)
		return x->field ? 1 : -1;
	c = x->field ? strcmp(x->field, y->field) : 0;
	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static bool same_line(const struct waiver_line *a,
		      const struct waiver_line *b)
{
	return a->f->kind == b->f->kind && a->field && b->field &&
	       !strcmp(a->field, b->field);
}

/*
 * Two findings of a kind and subject are accepted by one waiver, and the
 * parser refuses the second line as one that could never match: of the
 * @nr @lines, keep the first of each kind and field, in order.  Sorted,
 * the lines that say the same are neighbours, so this takes n log n
 * steps where comparing each line with those before it took n^2 / 2.
 * Returns 0, *@nr the lines kept, or -ENOMEM.
 */
static int drop_same_lines(struct waiver_line *lines, size_t *nr)
{
	struct waiver_line **sorted, *first;
	size_t i, k;

	if (*nr < 2)
		return 0;
	sorted = calloc(*nr, sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (i = 0; i < *nr; i++)
		sorted[i] = &lines[i];
	qsort(sorted, *nr, sizeof(*sorted), cmp_line);
	for (first = sorted[0], i = 1; i < *nr; i++) {
		if (same_line(first, sorted[i]))
			sorted[i]->dropped = true;
		else
			first = sorted[i];
	}
	free(sorted);
	for (i = k = 0; i < *nr; i++) {
		if (lines[i].dropped)
			free(lines[i].field);
		else
			lines[k++] = lines[i];
	}
	*nr = k;
	return 0;
}

/* The lines for the findings of @r that @min and worse select. */
static int select_lines(const struct report *r, enum verdict min,
			struct waiver_line **out, size_t *nr)
{
	struct waiver_line *lines = NULL, *slot, l;
	size_t i, alloc = 0;

	*nr = 0;
	for (i = 0; i < r->nr; i++) {
		if (r->v[i].waived || r->v[i].verdict < min)
			continue;
		l.f = &r->v[i];
		l.dropped = false;
		l.field = waiver__format_subject(l.f->subject, &l.why);
		if (!l.field && !l.why)
			goto out_enomem;
		if (!l.field)
			pr_warn("%s: findings[%zu]: a waiver file cannot name the subject of %s %s (%s): written as a comment",
				r->file, i, change_kind__name(l.f->kind),
				l.f->subject, l.why);
		slot = ARRAY_APPEND(lines, *nr, alloc);
		if (!slot) {
			free(l.field);
			goto out_enomem;
		}
		*slot = l;
	}
	if (drop_same_lines(lines, nr))
		goto out_enomem;
	*out = lines;
	return 0;
out_enomem:
	while (*nr)
		free(lines[--*nr].field);
	free(lines);
	return -ENOMEM;
}

/* Today, as the header says it. */
static void today(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "today");
}

static void show_header(const struct report *r, enum verdict min)
{
	static const char * const selected[VERDICT_COUNT] = {
		[VERDICT_NOTE] = "every verdict",
		[VERDICT_WARN] = "verdict break or warn",
		[VERDICT_BREAK] = "verdict break",
	};
	char date[32];

	today(date, sizeof(date));
	printf("# Waivers written by kabidiff waivers on %s for ", date);
	fputs_escaped(strcmp(r->file, "-") ? r->file : "standard input", stdout);
	fputs(":\n# ", stdout);
	fputs_escaped(r->old, stdout);
	fputs(" -> ", stdout);
	fputs_escaped(r->new, stdout);
	printf(", the findings of %s\n"
	       "# that no waiver accepts yet.  Replace each reason by why the change\n"
	       "# is accepted: --waivers refuses the file while a reason is still\n"
	       "# \"%s\".\n", selected[min], WAIVER_REASON_PLACEHOLDER);
	if (r->total)
		printf("# The report lists %lld of %lld findings (--verdict or --only).\n",
		       (long long)r->shown, (long long)r->total);
}

/* "# break, stable: Documentation/ABI/stable/sysfs-kabi:1; 3 instances" */
static void show_comment(const struct report_finding *f)
{
	printf("# %s, %s", verdict__name(f->verdict), abi_level__name(f->level));
	if (f->doc_file) {
		printf(": %s", f->doc_dir);
		fputs_escaped(f->doc_file, stdout);
		printf(":%lld", (long long)f->doc_line);
	}
	if (f->instances)
		printf("; %zu instances", f->instances);
	putchar('\n');
}

static void show_lines(const struct waiver_line *lines, size_t nr)
{
	int kind_width = 0, subject_width = 0, len;
	size_t i;

	if (!nr)
		printf("\n# No finding to waive.\n");
	for (i = 0; i < nr; i++) {
		if (!lines[i].field)
			continue;
		len = strlen(change_kind__name(lines[i].f->kind));
		if (len > kind_width)
			kind_width = len;
		len = strlen(lines[i].field);
		if (len > subject_width && len <= SUBJECT_COLUMN_MAX)
			subject_width = len;
	}
	for (i = 0; i < nr; i++) {
		const struct waiver_line *l = &lines[i];

		putchar('\n');
		show_comment(l->f);
		if (!l->field) {
			printf("# %s ", change_kind__name(l->f->kind));
			fputs_quoted(l->f->subject, stdout);
			printf(" cannot be waived here: %s\n", l->why);
			continue;
		}
		printf("%-*s  %-*s  \"%s\"\n", kind_width,
		       change_kind__name(l->f->kind), subject_width, l->field,
		       WAIVER_REASON_PLACEHOLDER);
	}
}

int do_waivers(int argc, char **argv)
{
	enum verdict min = VERDICT_WARN;
	const struct cli_option options[] = {
		OPT_CALLBACK(0, "verdict", &min, diff_option__verdict),
		OPT_OUTPUT(),
		OPT_END(),
	};
	struct report r = { 0 };
	struct waiver_line *lines = NULL;
	size_t nr = 0;
	int first, err;

	first = parse_options("waivers", argc, argv, options, waivers_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (argc - first != 1)
		return usage_error("waivers", "waivers needs one REPORT, a JSON report of kabidiff diff");
	if (json_output)
		return usage_error("waivers", "waivers prints a waiver file, not JSON: --json is not its");
	r.file = argv[first];
	err = report__load(&r);
	if (!err && r.total)
		pr_warn("%s: the report lists %lld of %lld findings (--verdict or --only): the others get no waiver",
			r.file, (long long)r.shown, (long long)r.total);
	if (!err)
		err = select_lines(&r, min, &lines, &nr);
	if (err == -ENOMEM)
		pr_err("out of memory");
	if (!err) {
		show_header(&r, min);
		show_lines(lines, nr);
	}
	while (nr)
		free(lines[--nr].field);
	free(lines);
	report__release(&r);
	return err ? EXIT_TROUBLE : EXIT_OK;
}
