// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy: levels, verdicts, policy and waiver files.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/array.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "match/docmatch.h"
#include "policy.h"

static const char * const verdict_names[VERDICT_COUNT] = {
	[VERDICT_NOTE]	= "note",
	[VERDICT_WARN]	= "warn",
	[VERDICT_BREAK]	= "break",
};

const char *verdict__name(enum verdict v)
{
	return v < VERDICT_COUNT ? verdict_names[v] : NULL;
}

int verdict__parse(const char *name, enum verdict *out)
{
	unsigned int i;
	int err = name_table__parse(verdict_names, VERDICT_COUNT, name, &i);

	if (!err)
		*out = i;
	return err;
}

#define N	VERDICT_NOTE
#define W	VERDICT_WARN
#define B	VERDICT_BREAK

/*
 * DESIGN.md's table, one row per class of change.  A sysctl its document
 * describes is judged as testing, but for the documents themselves: they
 * promise no process of retiring an entry, as Documentation/ABI does, so
 * an entry dropped from them is only a note.
 */
static const enum verdict default_table[CLASS_COUNT][LEVEL_COUNT] = {
	/*		     stable testing unstable obsolete private removed sysctl undocumented */
	[CLASS_REMOVED]	     = { B, B, N, N, N, N, B, W },
	[CLASS_INCOMPATIBLE] = { B, B, N, W, N, N, B, W },
	[CLASS_COMPATIBLE]   = { N, N, N, N, N, N, N, N },
	[CLASS_ADDED]	     = { N, N, N, N, N, N, N, N },
	[CLASS_SECURITY]     = { W, W, W, W, W, W, W, W },
	[CLASS_DEMOTED]	     = { B, B, N, N, N, N, N, N },
	[CLASS_REVIEW]	     = { W, W, N, N, N, N, N, N },
};

#undef N
#undef W
#undef B

void policy__init(struct policy *p)
{
	int kind, level;

	for (kind = 0; kind < CHANGE_KIND_COUNT; kind++)
		for (level = 0; level < LEVEL_COUNT; level++)
			p->cell[kind][level] =
				default_table[change_kind__class(kind)][level];
	p->strict = false;
	p->as_of = 0;
	p->caps = NULL;
	p->nr_caps = p->alloc_caps = 0;
}

void policy__release(struct policy *p)
{
	size_t i;

	for (i = 0; i < p->nr_caps; i++)
		free((char *)p->caps[i].pattern);
	free(p->caps);
	p->caps = NULL;
	p->nr_caps = p->alloc_caps = 0;
}

/*
 * Both files are lines of fields separated by blanks.  A field is a word,
 * or text in double quotes that may hold blanks and '#' ("struct stat");
 * the quotes are not part of it, and a blank or the end of the line must
 * follow the closing one.  A '#' where a field would start begins a
 * comment to the end of the line; inside a word it is part of the word.
 * With @rest, the last of @max fields is the rest of the line as written,
 * '#' and all (a waiver's reason, "see bug #123"), unless it is quoted.
 *
 * split_fields() cuts @line in place into @field, which has room for
 * @max + 1.  Returns the number of fields, @max + 1 when more text follows
 * the last; -EINVAL for a quote that does not end; -EILSEQ for text right
 * after a closing quote, with the quoted text in @field[0].
 */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int split_fields(char *line, char **field, int max, bool rest)
{
	int n = 0;

	for (;;) {
		while (is_blank(*line))
			line++;
		if (!*line || *line == '#')
			return n;
		field[n] = line;
		if (n == max)
			return max + 1;
		if (*line == '"') {
			field[n] = ++line;
			line = strchr(line, '"');
			if (!line)
				return -EINVAL;
			*line++ = '\0';
			if (*line && !is_blank(*line)) {
				field[0] = field[n];
				return -EILSEQ;
			}
		} else if (rest && n + 1 == max) {
			line += strlen(line);
			while (is_blank(line[-1]))
				line--;
			*line = '\0';
		} else {
			while (*line && !is_blank(*line))
				line++;
			if (*line)
				*line++ = '\0';
		}
		n++;
	}
}

/* A file of lines of at most @max fields, the last the rest with @rest. */
struct line_format {
	int max;
	bool rest;
	int (*fn)(char **field, int nr, unsigned int line, void *ctx);
};

/* Call @f->fn for each line of @path with its fields; stop at an error. */
static int read_lines(const char *path, const struct line_format *f,
		      void *ctx)
{
	char *buf = NULL, *line, *next;
	unsigned int nr = 0;
	size_t len;
	int err = read_file_or_report(path, SMALL_FILE_MAX, &buf, &len);

	if (!err && memchr(buf, '\0', len)) {
		pr_err("%s: not a text file (it holds a NUL byte)", path);
		err = -EINVAL;
	}
	for (line = buf; !err && line && *line; line = next) {
		char *field[4];	/* a format's max + 1 */
		int n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		n = split_fields(line, field, f->max, f->rest);
		if (n == -EINVAL) {
			pr_err("%s:%u: a quoted field does not end", path, nr);
			err = n;
		} else if (n == -EILSEQ) {
			pr_err("%s:%u: text right after the closing quote of \"%s\"",
			       path, nr, field[0]);
			err = -EINVAL;
		} else if (n) {
			err = f->fn(field, n, nr, ctx);
		}
	}
	free(buf);
	return err;
}

/*
 * The ']' that ends the bracket expression opened at @p, or NULL.  As
 * fnmatch(3) reads one: a ']' right after the '[' (or "[!", "[^") is in
 * the set, a '\\' takes the next character as it is, and "[:alpha:]",
 * "[.a.]" and "[=a=]" are units whose ']' ends nothing.
 */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '!' || *p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++) {
		const char *end;

		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[' && p[1] && strchr(":.=", p[1])) {
			for (end = p + 2; *end; end++)
				if (end[0] == p[1] && end[1] == ']')
					break;
			if (*end)
				p = end + 1;
		}
	}
	return *p ? p : NULL;
}

/*
 * A waiver's subject and a cap are fnmatch(3) patterns.  glibc reads an
 * unclosed '[' as itself, and matches nothing with a pattern that ends in
 * a lone '\\' or is empty: each is a mistake to report when the file is
 * read, not a waiver or cap that silently never applies.  Returns 0, or
 * -EINVAL with "@path:@line: 'PAT' is not a valid pattern (why)" reported.
 */
static int check_pattern(const char *path, unsigned int line, const char *pat)
{
	const char *why = NULL, *p, *end;

	if (!*pat)
		why = "empty";
	for (p = pat; !why && *p; p++) {
		if (*p == '\\' && !p[1]) {
			why = "a '\\' at its end";
		} else if (*p == '\\') {
			p++;
		} else if (*p == '[') {
			end = bracket_end(p);
			if (end)
				p = end;
			else
				why = "unclosed '['";
		}
	}
	if (!why)
		return 0;
	pr_err("%s:%u: '%s' is not a valid pattern (%s)", path, line, pat, why);
	return -EINVAL;
}

struct policy_file {
	struct policy *p;
	const char *path;
};

/* "cap PATTERN LEVEL", LEVEL a level or "none". */
static int cap_line(struct policy_file *pf, char **field, unsigned int line)
{
	struct level_cap cap = { .none = !strcmp(field[2], "none") };
	struct level_cap *c;

	if (!cap.none && (abi_level__parse(field[2], &cap.level) ||
			  cap.level == LEVEL_UNDOCUMENTED)) {
		pr_err("%s:%u: '%s' is not a level to cap at (stable, testing, unstable, obsolete, private, removed, sysctl or none)",
		       pf->path, line, field[2]);
		return -EINVAL;
	}
	if (check_pattern(pf->path, line, field[1]))
		return -EINVAL;
	c = ARRAY_APPEND(pf->p->caps, pf->p->nr_caps, pf->p->alloc_caps);
	if (!c)
		return -ENOMEM;
	cap.pattern = strdup(field[1]);
	*c = cap;
	return cap.pattern ? 0 : -ENOMEM;
}

/*
 * "CHANGE LEVEL VERDICT", CHANGE a kind or a class, LEVEL a level or "*";
 * or "cap PATTERN LEVEL".
 */
static int policy_line(char **field, int nr, unsigned int line, void *ctx)
{
	struct policy_file *pf = ctx;
	enum change_kind kind;
	enum change_class class;
	enum abi_level level;
	enum verdict verdict;
	bool is_class = false;
	int k, l;

	if (nr != 3) {
		pr_err("%s:%u: expected CHANGE LEVEL VERDICT or cap PATTERN LEVEL",
		       pf->path, line);
		return -EINVAL;
	}
	if (!strcmp(field[0], "cap"))
		return cap_line(pf, field, line);
	if (!change_class__parse(field[0], &class)) {
		is_class = true;
	} else if (change_kind__parse(field[0], &kind)) {
		pr_err("%s:%u: '%s' is neither a change kind (node-removed, ...) nor a class (removed, incompatible, ...)",
		       pf->path, line, field[0]);
		return -EINVAL;
	}
	if (strcmp(field[1], "*") && abi_level__parse(field[1], &level)) {
		pr_err("%s:%u: '%s' is not a level (stable, testing, unstable, obsolete, private, removed, sysctl, undocumented or *)",
		       pf->path, line, field[1]);
		return -EINVAL;
	}
	if (verdict__parse(field[2], &verdict)) {
		pr_err("%s:%u: '%s' is not a verdict (break, warn or note)",
		       pf->path, line, field[2]);
		return -EINVAL;
	}
	for (k = 0; k < CHANGE_KIND_COUNT; k++) {
		if (is_class ? change_kind__class(k) != class : k != (int)kind)
			continue;
		for (l = 0; l < LEVEL_COUNT; l++)
			if (!strcmp(field[1], "*") || l == (int)level)
				pf->p->cell[k][l] = verdict;
	}
	return 0;
}

int policy__load(struct policy *p, const char *path)
{
	static const struct line_format format = { .max = 3, .fn = policy_line };
	struct policy_file pf = { .p = p, .path = path };

	return read_lines(path, &format, &pf);
}

/* The waiver of @w with @wv's kind and pattern @pattern, or NULL. */
static const struct waiver *same_waiver(const struct waivers *w,
					const struct waiver *wv,
					const char *pattern)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		if (w->v[i].any_kind == wv->any_kind &&
		    (wv->any_kind || w->v[i].kind == wv->kind) &&
		    !strcmp(w->v[i].pattern, pattern))
			return &w->v[i];
	return NULL;
}

/*
 * "KIND SUBJECT REASON", KIND a change kind or "*", REASON the rest of the
 * line and not the placeholder 'kabidiff waivers' writes.  Of two waivers of one kind and pattern the second could never
 * match (the first that matches accepts a change) and would be reported
 * as stale: it is refused here instead.
 */
static int waiver_line(char **field, int nr, unsigned int line, void *ctx)
{
	struct waivers *w = ctx;
	struct waiver wv = { .line = line, .any_kind = !strcmp(field[0], "*") };
	const struct waiver *same;
	struct waiver *slot;

	if (nr != 3) {
		pr_err(nr < 3 ? "%s:%u: expected KIND SUBJECT REASON (a waiver needs a reason)"
			      : "%s:%u: expected KIND SUBJECT REASON (text follows the quoted reason)",
		       w->file, line);
		return -EINVAL;
	}
	if (!wv.any_kind && change_kind__parse(field[0], &wv.kind)) {
		pr_err("%s:%u: '%s' is not a change kind (node-removed, mode-lost, ... or *)",
		       w->file, line, field[0]);
		return -EINVAL;
	}
	if (check_pattern(w->file, line, field[1]))
		return -EINVAL;
	if (!field[2][strspn(field[2], " \t\r")]) {
		pr_err("%s:%u: a waiver needs a reason", w->file, line);
		return -EINVAL;
	}
	if (!strcmp(field[2], WAIVER_REASON_PLACEHOLDER)) {
		pr_err("%s:%u: the reason is still the placeholder; say why this change is accepted",
		       w->file, line);
		return -EINVAL;
	}
	same = same_waiver(w, &wv, field[1]);
	if (same) {
		pr_err("%s:%u: the same waiver as line %u", w->file, line,
		       same->line);
		return -EINVAL;
	}
	slot = ARRAY_APPEND(w->v, w->nr, w->alloc);
	if (!slot)
		return -ENOMEM;
	wv.pattern = strdup(field[1]);
	wv.reason = strdup(field[2]);
	*slot = wv;
	return wv.pattern && wv.reason ? 0 : -ENOMEM;
}

int waivers__load(struct waivers *w, const char *path)
{
	static const struct line_format format = {
		.max = 3, .rest = true, .fn = waiver_line,
	};

	w->file = strdup(path);
	if (!w->file)
		return -ENOMEM;
	return read_lines(path, &format, w);
}

/*
 * The inverse of split_fields() and fnmatch() for one subject.  fnmatch()
 * takes "\c" for the character c, so escaping '*', '?', '[' and '\' makes
 * a pattern that matches the subject alone; and a word may begin with "\#"
 * or "\"" where '#' would begin a comment and '"' a quoted field.  A field
 * with a blank must be quoted, and then cannot hold a '"'.
 */
char *waiver__format_subject(const char *subject, const char **why)
{
	bool blank = strpbrk(subject, " \t\r");
	bool quote = blank || subject[0] == '#';
	const char *s;
	char *out, *p;

	*why = NULL;
	if (!*subject)
		*why = "it is empty";
	else if (strchr(subject, '\n'))
		*why = "it holds a line break";
	else if (blank && strchr(subject, '"'))
		*why = "it holds a '\"' and a blank";
	if (*why) {
		errno = EINVAL;
		return NULL;
	}
	/* "#a\"b" cannot be quoted, but is the word \#a"b */
	if (quote && strchr(subject, '"'))
		quote = false;
	out = malloc(2 * strlen(subject) + 3);
	if (!out)
		return NULL;
	p = out;
	if (quote)
		*p++ = '"';
	for (s = subject; *s; s++) {
		if (strchr("*?[\\", *s) ||
		    (s == subject && !quote && strchr("#\"", *s)))
			*p++ = '\\';
		*p++ = *s;
	}
	if (quote)
		*p++ = '"';
	*p = '\0';
	return out;
}

void waivers__release(struct waivers *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++) {
		free(w->v[i].pattern);
		free(w->v[i].reason);
	}
	free(w->v);
	free(w->file);
}

static struct waiver *find_waiver(struct waivers *w, const struct change *c)
{
	size_t i;

	for (i = 0; w && i < w->nr; i++) {
		struct waiver *wv = &w->v[i];

		if ((wv->any_kind || wv->kind == c->kind) &&
		    !fnmatch(wv->pattern, c->subject, 0))
			return wv;
	}
	return NULL;
}

/*
 * An obsolete entry often says when the interface goes: "will be removed
 * after 2020", "removed no sooner than June 2021".  Finds the first year
 * (and the month before it, if any) within a sentence after "remov" in
 * @text; 0 for none.  The result is year * 12 + month - 1, December when
 * no month is given.
 */
static int removal_month(const char *text)
{
	static const char * const months[] = {
		"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December",
	};
	const char *p = text ? strcasestr(text, "remov") : NULL;
	const char *end, *q;
	int month = 11, m;

	for (; p; p = strcasestr(p + 5, "remov")) {
		end = strchrnul(p, '.');
		for (q = p; q + 4 <= end; q++) {
			if (!isdigit((unsigned char)q[0]) || !isdigit((unsigned char)q[1]) ||
			    !isdigit((unsigned char)q[2]) || !isdigit((unsigned char)q[3]) ||
			    (q > p && isalnum((unsigned char)q[-1])) ||
			    isalnum((unsigned char)q[4]))
				continue;
			for (m = 0; m < 12; m++) {
				size_t len = strlen(months[m]);

				if (q - p > (long)len && !strncasecmp(q - len - 1, months[m], len))
					month = m;
			}
			return strtol(q, NULL, 10) * 12 + month;
		}
	}
	return 0;
}

/*
 * Whether an interface that @doc marks obsolete is removed before the
 * removal date it announces, judged against the month @as_of (0: none
 * known).  Without a date the removal is judged as if its date had
 * passed, the verdict that of the obsolete level alone, and counted in
 * *@undated: not knowing when NEW was built is no evidence that it came
 * too early, and the caller can say that it did not know.
 */
static bool removal_still_ahead(const struct doc_entry *doc, int as_of,
				size_t *undated)
{
	int when = doc ? removal_month(doc->description) : 0;

	if (!when)
		return false;
	if (!as_of) {
		(*undated)++;
		return false;
	}
	return when > as_of;
}

/* The month removal dates are judged against: @p's, else @new's build. */
static int judged_as_of(const struct policy *p, const struct snapshot *new)
{
	const char *date = new->kernel.build_date;
	int months;

	if (p->as_of)
		return p->as_of;
	return date && !date__parse(date, &months) ? months : 0;
}

/*
 * The first entry of @file: stable/syscalls ("The kernel syscall
 * interface") or stable/vdso ("vDSO"), which have one each; or NULL.
 */
static const struct doc_entry *entry_of_file(const struct snapshot *s,
					     const char *file)
{
	size_t i;

	for (i = 0; i < s->docs.nr; i++)
		if (!strcmp(s->docs.v[i].file, file))
			return &s->docs.v[i];
	return NULL;
}

/* What the documentation says about each node of @s: its entry, or -1. */
static int32_t *match_nodes(const struct snapshot *s)
{
	int32_t *entry = malloc((s->sysfs.nr + 1) * sizeof(*entry));

	if (entry && docmatch__run(s, s, entry)) {
		free(entry);
		return NULL;
	}
	return entry;
}

/* Per sysfs node, when needed; OLD's borrowed from the diff if it has them. */
struct levels {
	int32_t *old_entry, *new_entry;
};

/* The entry that documents @c's interface, in the old tree if it was there. */
static int find_doc(const struct judgement *j, struct levels *lv,
		    const struct change *c, const struct doc_entry **doc)
{
	bool in_old = c->old_ref >= 0;
	const struct snapshot *s = in_old ? j->old : j->new;
	int32_t ref = in_old ? c->old_ref : c->new_ref;
	int32_t **entry = in_old ? &lv->old_entry : &lv->new_entry;

	*doc = NULL;
	switch (change_kind__part(c->kind)) {
	case PART_SYSFS:
		if (!*entry)
			*entry = match_nodes(s);
		if (!*entry)
			return -ENOMEM;
		if ((*entry)[ref] >= 0)
			*doc = &s->docs.v[(*entry)[ref]];
		break;
	case PART_SYSCALLS:
		*doc = entry_of_file(s, "stable/syscalls");
		break;
	case PART_VDSO:
		*doc = entry_of_file(s, "stable/vdso");
		break;
	case PART_CENSUS:
		/* the diff joined OLD's attributes; a change is OLD's */
		if (j->diff->old_census_entry && j->diff->old_census_entry[ref] >= 0)
			*doc = &s->docs.v[j->diff->old_census_entry[ref]];
		break;
	case PART_TYPES:
		/* a type a vDSO prototype reaches is the vDSO's */
		*doc = entry_of_file(s, type_name__is_vdso(c->subject) ?
				     "stable/vdso" : "stable/syscalls");
		break;
	default:
		*doc = &s->docs.v[ref];
		break;
	}
	return 0;
}

/* The default caps, before a policy file's. */
static const struct level_cap default_caps[] = {
	{ .pattern = "/sys/kernel/debug", .level = LEVEL_UNSTABLE },
};

/* Is @subject, or a directory above it, @pattern?  @buf is a copy to cut. */
static bool under(const char *pattern, const char *subject, char *buf)
{
	char *slash;

	if (!fnmatch(pattern, subject, 0))
		return true;
	for (slash = strrchr(buf, '/'); slash && slash > buf;
	     slash = strrchr(buf, '/')) {
		*slash = '\0';
		if (!fnmatch(pattern, buf, 0))
			return true;
	}
	return false;
}

/* The cap that judges @subject (the last that matches) or NULL into @out. */
static int find_cap(const struct policy *p, const char *subject,
		    const struct level_cap **out)
{
	const struct level_cap *cap = NULL;
	size_t len = strlen(subject), i;
	char *buf;

	*out = NULL;
	if (subject[0] != '/')
		return 0;	/* syscalls and types */
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(default_caps) + p->nr_caps; i++) {
		const struct level_cap *c = i < ARRAY_SIZE(default_caps) ?
			&default_caps[i] : &p->caps[i - ARRAY_SIZE(default_caps)];

		memcpy(buf, subject, len + 1);
		if (under(c->pattern, subject, buf))
			cap = c;
	}
	free(buf);
	if (cap && !cap->none)
		*out = cap;
	return 0;
}

int doc_entry__cmp(const struct doc_entry *a, const struct doc_entry *b)
{
	int c;

	if (!a || !b)
		return !a - !b;
	c = strcmp(a->file, b->file);
	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int finding_cmp(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	int c;

	if (!a->waiver != !b->waiver)
		return a->waiver ? 1 : -1;
	if (a->verdict != b->verdict)
		return a->verdict > b->verdict ? -1 : 1;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	c = doc_entry__cmp(a->doc, b->doc);
	if (c)
		return c;
	return a->change < b->change ? -1 : a->change > b->change;
}

int policy__judge(const struct policy *p, struct waivers *w,
		  const struct snapshot *old, const struct snapshot *new,
		  const struct diff *d, struct judgement *j)
{
	struct levels lv = { .old_entry = d->old_entry };
	int as_of = judged_as_of(p, new);
	size_t i;
	int err = 0;

	j->old = old;
	j->new = new;
	j->diff = d;
	j->waivers = w;
	j->undated = 0;
	j->v = calloc(d->nr + 1, sizeof(*j->v));
	if (!j->v)
		return -ENOMEM;
	for (i = 0; !err && i < d->nr; i++) {
		struct finding *f = &j->v[j->nr++];
		const struct level_cap *cap = NULL;
		struct waiver *wv;

		f->change = &d->v[i];
		err = find_doc(j, &lv, f->change, &f->doc);
		f->level = f->doc ? f->doc->level : LEVEL_UNDOCUMENTED;
		if (!err)
			err = find_cap(p, f->change->subject, &cap);
		if (!err && cap && (!f->doc || f->level < cap->level)) {
			f->level = cap->level;
			f->cap = cap->pattern;
		}
		f->verdict = p->cell[f->change->kind][f->level];
		if (change_kind__class(f->change->kind) == CLASS_REMOVED &&
		    f->level == LEVEL_OBSOLETE &&
		    removal_still_ahead(f->doc, as_of, &j->undated)) {
			f->removal_ahead = true;
			if (f->verdict < VERDICT_WARN)
				f->verdict = VERDICT_WARN;
		}
		if (p->strict && f->verdict == VERDICT_WARN)
			f->verdict = VERDICT_BREAK;
		wv = find_waiver(w, f->change);
		f->waiver = wv;
		if (wv) {
			wv->matched++;
			j->waived++;
		} else {
			j->count[f->verdict]++;
		}
	}
	if (lv.old_entry != d->old_entry)
		free(lv.old_entry);
	free(lv.new_entry);
	qsort(j->v, j->nr, sizeof(*j->v), finding_cmp);
	return err;
}

void judgement__release(struct judgement *j)
{
	free(j->v);
	j->v = NULL;
	j->nr = 0;
}
