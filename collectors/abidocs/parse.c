// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Documentation/ABI file parser.
 *
 * A file is a sequence of entries.  An entry starts with one or more What:
 * lines (indented lines right after them are more patterns; Where: is an old
 * spelling of What:) and goes on with Date:, KernelVersion:, Contact:,
 * Description: and Users: fields.  A field is a known tag at the start of a
 * line; the lines that follow, up to the next known tag, continue it, so an
 * unknown "Foo:" inside a description is text.  Text before the first What:
 * of a file is its preamble and is skipped.  A UTF-8 byte order mark at the
 * start of a file is not text and is skipped without a warning, so that the
 * What: it would hide is read (and is still line 1).
 *
 * Problems are said as "FILE:LINE: error: ..." when they make the entry
 * malformed (a field before any What:, no Description:, a pattern that does
 * not parse) and "FILE:LINE: warning: ..." otherwise (Where:, a field given
 * twice), as compilers say theirs, for editors and CI annotators.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/bytes.h"
#include "lib/print.h"
#include "abidocs.h"

enum field {
	F_NONE,
	F_WHAT,
	F_DATE,
	F_KERNEL_VERSION,
	F_CONTACT,
	F_DESCRIPTION,
	F_USERS,
	F_COUNT,
};

static const struct {
	const char *tag;
	enum field field;
} known_tags[] = {
	{ "What",		F_WHAT },
	{ "Where",		F_WHAT },
	{ "Date",		F_DATE },
	{ "KernelVersion",	F_KERNEL_VERSION },
	{ "Contact",		F_CONTACT },
	{ "Description",	F_DESCRIPTION },
	{ "Users",		F_USERS },
};

/* A growing byte buffer, always NUL-terminated once anything is added. */
struct text {
	char *buf;
	size_t len;
	size_t alloc;
};

static int text_add(struct text *t, const char *s, size_t len)
{
	if (t->len + len + 1 > t->alloc) {
		size_t alloc = (t->len + len + 1) * 2;
		char *buf = realloc(t->buf, alloc);

		if (!buf)
			return -ENOMEM;
		t->buf = buf;
		t->alloc = alloc;
	}
	memcpy(t->buf + t->len, s, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

/* Add a line break and the @len bytes at @line. */
static int append_line(struct text *t, const char *line, size_t len)
{
	int err = text_add(t, "\n", 1);

	return err ? err : text_add(t, line, len);
}

struct parser {
	const char *file;		/* relative to Documentation/ABI */
	enum abi_level level;
	struct snapshot *s;
	struct abidocs_stats *st;
	unsigned int lineno;

	/* the entry being read */
	bool in_entry;
	bool malformed;
	unsigned int entry_line;
	enum field field;		/* the field continuation lines extend */
	bool seen[F_COUNT];
	struct text text[F_COUNT];	/* F_WHAT: patterns, one per line */
};

/* "FILE:LINE: KIND: problem", as compilers say it, for editors and CI */
static void __printf(3, 0) say(struct parser *p, const char *kind,
			       const char *fmt, va_list ap)
{
	/* not cut short: a What: can be long, and the reason comes after it */
	char *msg = xvasprintf(fmt, ap);

	pr_warn("Documentation/ABI/%s:%u: %s: %s", p->file, p->lineno, kind,
		msg ? msg : fmt);
	free(msg);
	p->st->warnings++;
}

/* A problem that leaves the entry readable. */
static void __printf(2, 3) warn(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(p, "warning", fmt, ap);
	va_end(ap);
}

/* A problem that makes the entry malformed; the caller counts it so. */
static void __printf(2, 3) error(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(p, "error", fmt, ap);
	va_end(ap);
}

/* Trim spaces and tabs at both ends of the @len bytes at *@s. */
static size_t trim(const char **s, size_t len)
{
	while (len && (**s == ' ' || **s == '\t')) {
		(*s)++;
		len--;
	}
	while (len && ((*s)[len - 1] == ' ' || (*s)[len - 1] == '\t'))
		len--;
	return len;
}

/*
 * The indentation that the indented lines of @p .. @end share; lines at
 * column 0 ("Values:" text in a description) keep what they have.
 */
static size_t common_indent(const char *p, const char *end)
{
	size_t indent = SIZE_MAX, n, len;
	const char *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		len = nl - p;
		for (n = 0; n < len && (p[n] == ' ' || p[n] == '\t'); n++)
			;
		if (n && n < len && n < indent)
			indent = n;
	}
	return indent;
}

/*
 * The text of a field as a reader wants it: the value on the tag's line,
 * then the continuation lines less the indentation they share, without
 * trailing blanks and without blank lines at either end.  NULL with errno
 * ENOMEM.
 */
static char *field_text(const struct text *t)
{
	const char *p = t->buf ? t->buf : "", *end = p + t->len, *nl;
	const char *rest = memchr(p, '\n', end - p);
	size_t indent, n, ws, out = 0, keep = 0;
	char *res = malloc(t->len + 1);
	bool first = true;

	if (!res)
		return NULL;
	indent = rest ? common_indent(rest + 1, end) : 0;
	for (;; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		n = nl - p;
		if (first) {
			n = trim(&p, n);
			first = false;
		} else {
			for (ws = 0; ws < n && ws < indent &&
			     (p[ws] == ' ' || p[ws] == '\t'); ws++)
				;
			p += ws;
			n -= ws;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (out || n) {		/* no blank lines at the start */
			if (out)
				res[out++] = '\n';
			memcpy(res + out, p, n);
			out += n;
		}
		if (n)
			keep = out;
		if (nl == end)
			break;
	}
	res[keep] = '\0';
	return res;
}

static void reset_entry(struct parser *p)
{
	int f;

	p->in_entry = false;
	p->malformed = false;
	p->field = F_NONE;
	for (f = 0; f < F_COUNT; f++) {
		p->seen[f] = false;
		p->text[f].len = 0;
	}
}

/* Check each What: pattern; add the patterns to @d. */
static int add_patterns(struct parser *p, struct doc_entry *d)
{
	const char *pat = p->text[F_WHAT].buf, *end = pat + p->text[F_WHAT].len;
	const char *why;
	int err = 0;

	while (!err && pat < end) {
		const char *nl = memchr(pat, '\n', end - pat);
		char *what = strndup(pat, (nl ? nl : end) - pat);

		if (!what)
			return -ENOMEM;
		/* "devfs", "ip_queue": named interfaces, not paths to match */
		if (what[0] == '/' && p->st->check_pattern &&
		    p->st->check_pattern(what, &why)) {
			error(p, "unparsable What: pattern \"%s\": %s", what, why);
			p->malformed = true;
		}
		err = doc_entry__add_what(d, what);
		free(what);
		pat = nl ? nl + 1 : end;
	}
	return err;
}

static int set_field(struct parser *p, enum field f, char **out)
{
	if (!p->seen[f])
		return 0;
	*out = field_text(&p->text[f]);
	return *out ? 0 : -ENOMEM;
}

/* The entry read so far is complete: check it and add it to the snapshot. */
static int finish_entry(struct parser *p)
{
	unsigned int lineno = p->lineno;
	struct doc_entry *d;
	int err;

	if (!p->in_entry)
		return 0;
	p->lineno = p->entry_line;
	if (!p->text[F_WHAT].len) {
		/* nothing to name the entry by: count it, keep nothing */
		error(p, "What: without a pattern");
		p->st->entries++;
		p->st->malformed++;
		p->lineno = lineno;
		reset_entry(p);
		return 0;
	}
	if (!p->seen[F_DESCRIPTION]) {
		error(p, "What: without Description:");
		p->malformed = true;
	}
	d = snapshot__add_doc(p->s);
	if (!d)
		return -ENOMEM;
	d->level = p->level;
	d->line = p->entry_line;
	d->file = strdup(p->file);
	err = d->file ? add_patterns(p, d) : -ENOMEM;
	if (!err)
		err = set_field(p, F_DATE, &d->date);
	if (!err)
		err = set_field(p, F_KERNEL_VERSION, &d->kernel_version);
	if (!err)
		err = set_field(p, F_CONTACT, &d->contact);
	if (!err)
		err = set_field(p, F_DESCRIPTION, &d->description);
	if (!err)
		err = set_field(p, F_USERS, &d->users);
	p->st->entries++;
	p->st->malformed += p->malformed;
	p->lineno = lineno;
	reset_entry(p);
	return err;
}

/* The field of a known tag starting @line, and the length of "Tag:". */
static enum field tag_of(const char *line, size_t len, size_t *taglen,
			 const char **name)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(known_tags); i++) {
		n = strlen(known_tags[i].tag);
		if (len > n && line[n] == ':' &&
		    !strncasecmp(line, known_tags[i].tag, n)) {
			*taglen = n + 1;
			*name = known_tags[i].tag;
			return known_tags[i].field;
		}
	}
	return F_NONE;
}

static int add_pattern_line(struct parser *p, const char *s, size_t len)
{
	int err = 0;

	len = trim(&s, len);
	if (len && (s[len - 1] == ',' || s[len - 1] == ';')) {
		warn(p, "What: ends in '%c', read without it", s[len - 1]);
		len = trim(&s, len - 1);
	}
	if (!len)
		return 0;
	if (p->text[F_WHAT].len)
		err = text_add(&p->text[F_WHAT], "\n", 1);
	return err ? err : text_add(&p->text[F_WHAT], s, len);
}

/* A line under What: lines is one more pattern, if it looks like one. */
static int what_continuation(struct parser *p, const char *line, size_t len)
{
	const char *s = line;

	len = trim(&s, len);
	if (len && *s != '/') {
		warn(p, "text under What: that is not a path, skipped");
		return 0;
	}
	return add_pattern_line(p, s, len);
}

static int what_line(struct parser *p, const char *name, const char *value,
		     size_t len)
{
	int err = 0;

	if (p->in_entry && p->field != F_WHAT)
		err = finish_entry(p);
	if (err)
		return err;
	if (!strcmp(name, "Where"))
		warn(p, "Where: is an old spelling, read as What:");
	if (!p->in_entry) {
		p->in_entry = true;
		p->entry_line = p->lineno;
	}
	p->field = F_WHAT;
	p->seen[F_WHAT] = true;
	return add_pattern_line(p, value, len);
}

static int tag_line(struct parser *p, enum field f, const char *name,
		    const char *value, size_t len)
{
	if (f == F_WHAT)
		return what_line(p, name, value, len);
	if (!p->in_entry) {
		error(p, "%s: before any What:", name);
		p->st->malformed++;
		p->field = F_NONE;
		return 0;
	}
	p->field = f;
	if (p->seen[f]) {
		warn(p, "%s: given twice in one entry", name);
		return append_line(&p->text[f], value, len);
	}
	p->seen[f] = true;
	return text_add(&p->text[f], value, len);
}

static int parse_line(struct parser *p, const char *line, size_t len)
{
	const char *nul = memchr(line, '\0', len), *name;
	size_t taglen;
	enum field f;

	if (nul)	/* not text: what follows cannot be kept in a string */
		len = nul - line;
	if (len && line[len - 1] == '\r')
		len--;
	f = tag_of(line, len, &taglen, &name);
	if (f != F_NONE && memcmp(line, name, taglen - 1))
		warn(p, "%.*s: should be spelled %s:", (int)taglen - 1, line,
		     name);
	if (f != F_NONE)
		return tag_line(p, f, name, line + taglen, len - taglen);
	if (p->field == F_WHAT)
		return what_continuation(p, line, len);
	if (p->field == F_NONE)
		return 0;
	return append_line(&p->text[p->field], line, len);
}

int abidocs__parse(const char *file, enum abi_level level, const char *buf,
		   size_t len, struct snapshot *s, struct abidocs_stats *st)
{
	struct parser p = {
		.file = file, .level = level, .s = s, .st = st,
	};
	const char *line = buf, *end = buf + len, *nl;
	int err = 0, f;

	s->docs.collected = true;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		line += 3;
	while (!err && line < end) {
		nl = memchr(line, '\n', end - line);
		p.lineno++;
		err = parse_line(&p, line, (nl ? nl : end) - line);
		line = nl ? nl + 1 : end;
	}
	if (!err)
		err = finish_entry(&p);
	for (f = 0; f < F_COUNT; f++)
		free(p.text[f].buf);
	return err;
}
