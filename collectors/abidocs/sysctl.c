// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documents of /proc/sys.  The kernel documents its sysctls outside
 * Documentation/ABI, in reStructuredText, in two styles:
 *
 * - Documentation/admin-guide/sysctl/\*.rst: the title names the directory
 *   ("Documentation for /proc/sys/kernel/"), a section heading may name a
 *   directory below it ("1. /proc/sys/net/core - Network core options", or
 *   "4. Appletalk" for /proc/sys/net/appletalk), and every other heading
 *   names the sysctls the text under it describes.  A heading's names are
 *   read as the kernel's scripts/check-sysctl-docs reads them: its words,
 *   less what is in parentheses ("(x86 only)"), "and" and "&", with
 *   punctuation trimmed ("aio-nr & aio-max-nr", "max_map_count:").  A
 *   paragraph that starts with a whole path in a literal
 *   ("``/proc/sys/fs/mqueue/msg_max`` is a read/write file ...") documents
 *   that path, and an item of a bullet list that starts with a name in a
 *   literal ("* ``boot_id``: a UUID ...") the file of that name in the
 *   directory the heading above it names ("random").
 * - Documentation/networking/\*sysctl*.rst: a heading naming a directory
 *   ("/proc/sys/net/ipv4/\* Variables", "``proc/sys/net/sctp/\*`` Variables:")
 *   sets it, and each sysctl is an item of a definition list,
 *   "NAME[, NAME...] - TYPE" at the start of a line with its text indented
 *   below it.  A name with a '/' in it ("neigh/default/gc_thresh1") is a
 *   path below the directory.  One without is matched anywhere below it
 *   ("/proc/sys/net/ipv4/.../mtu_expires"): the subsections that say where
 *   a run of items lies ("``conf/interface/\*``") are not headings and do
 *   not always hold what they say (ip-sysctl.rst has mtu_expires among the
 *   variables of ipv4/ and ucast_solicit among those of conf/, and the
 *   kernel has them in ipv4/route/ and ipv4/neigh/DEV/).
 *
 * Each heading or item is one entry, its names the What: patterns, its
 * text (up to the next entry or heading) the description.  Its level is
 * sysctl, or obsolete when the text says the sysctl is deprecated or
 * obsolete.  Problems are warnings, "Documentation/FILE:LINE: warning: ...",
 * as the Documentation/ABI parser says them: a name before any directory,
 * a heading word that is not a sysctl's name, a name documented twice.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/print.h"
#include "abidocs.h"

/* No directory or path of a sysctl is longer; longer ones are skipped. */
#define SYSCTL_PATH_MAX	256

struct span {
	const char *p;
	size_t len;
};

struct sysctl_parser {
	const char *file;		/* relative to Documentation */
	bool items;			/* entries are definition list items */
	struct snapshot *s;
	struct abidocs_stats *st;
	size_t first;			/* the first entry this file added */
	struct span *lines;
	size_t nr_lines;
	size_t lineno;			/* of the line being read, from 1 */
	char base[SYSCTL_PATH_MAX];	/* the title's directory */
	char dir[SYSCTL_PATH_MAX];	/* the section's */
	char heading[SYSCTL_PATH_MAX];	/* the path of the one name above */
	bool in_entry;			/* the last entry's text goes on */
	size_t entry_start;		/* the line its text starts at */
};

static void __printf(2, 3) warn(struct sysctl_parser *p, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	pr_warn("Documentation/%s:%zu: warning: %s", p->file, p->lineno,
		msg ? msg : fmt);
	free(msg);
	p->st->warnings++;
}

static bool is_blank_span(struct span l)
{
	size_t i;

	for (i = 0; i < l.len; i++)
		if (!isspace((unsigned char)l.p[i]))
			return false;
	return true;
}

/* A heading's underline (or overline): one punctuation character, 3 or more. */
static bool is_underline(struct span l)
{
	size_t i;

	while (l.len && isspace((unsigned char)l.p[l.len - 1]))
		l.len--;
	if (l.len < 3 || !strchr("=-~^*+#'`\"", l.p[0]))
		return false;
	for (i = 1; i < l.len; i++)
		if (l.p[i] != l.p[0])
			return false;
	return true;
}

static bool starts_line(struct span l)
{
	return l.len && !isspace((unsigned char)l.p[0]);
}

/* Whether line @i is a heading's text: the line after it underlines it. */
static bool is_heading(const struct sysctl_parser *p, size_t i)
{
	return i + 1 < p->nr_lines && starts_line(p->lines[i]) &&
	       !is_underline(p->lines[i]) && is_underline(p->lines[i + 1]);
}

/* @l without the blanks around it, into @buf as a string. */
static const char *trimmed(struct span l, char *buf, size_t size)
{
	while (l.len && isspace((unsigned char)l.p[l.len - 1]))
		l.len--;
	while (l.len && isspace((unsigned char)*l.p)) {
		l.p++;
		l.len--;
	}
	snprintf(buf, size, "%.*s", (int)l.len, l.p);
	return buf;
}

/*
 * End the entry being read at the line before @end: its text, blank lines
 * at its end left out, is its description, which decides its level.
 */
static int end_entry(struct sysctl_parser *p, size_t end)
{
	struct doc_entry *d;
	const char *from, *to;

	if (!p->in_entry)
		return 0;
	p->in_entry = false;
	d = &p->s->docs.v[p->s->docs.nr - 1];
	while (end > p->entry_start && is_blank_span(p->lines[end - 1]))
		end--;
	from = p->lines[p->entry_start].p;
	to = p->lines[end - 1].p + p->lines[end - 1].len;
	d->description = strndup(from, to - from);
	if (!d->description)
		return -ENOMEM;
	if (strcasestr(d->description, "deprecated") ||
	    strcasestr(d->description, "obsolete"))
		d->level = LEVEL_OBSOLETE;
	return 0;
}

/* The paths an entry documents, gathered before it is added. */
struct names {
	char **v;
	size_t nr;
};

/*
 * Start an entry at the current line with the paths @n (which it takes
 * over; none: no entry), ending the one before.
 */
static int start_entry(struct sysctl_parser *p, struct names *n)
{
	struct doc_entry *d;
	int err = end_entry(p, p->lineno - 1);

	if (err || !n->nr)
		goto out;
	d = snapshot__add_doc(p->s);
	if (!d) {
		err = -ENOMEM;
		goto out;
	}
	d->level = LEVEL_SYSCTL;
	d->source = DOC_SOURCE_SYSCTL;
	d->line = p->lineno;
	d->what = n->v;
	d->nr_what = n->nr;
	n->v = NULL;
	n->nr = 0;
	d->file = strdup(p->file);
	if (!d->file)
		return -ENOMEM;
	p->in_entry = true;
	p->entry_start = p->lineno - 1;
	p->st->entries++;
out:
	strings__free(n->v, n->nr);
	return err;
}

/*
 * Add to @n the sysctl @name (@len bytes), as the path below the
 * directory it lies in.
 */
static int add_name(struct sysctl_parser *p, struct names *n,
		    const char *name, size_t len)
{
	char path[SYSCTL_PATH_MAX], q[SYSCTL_PATH_MAX + 16];
	const char *why;

	if (!*p->dir) {
		warn(p, "%.*s: no /proc/sys directory named above it, skipped",
		     (int)len, name);
		return 0;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s%.*s", p->dir,
			     p->items && !memchr(name, '/', len) ? ".../" : "",
			     (int)len, name) >= sizeof(path)) {
		warn(p, "%.*s: a path longer than %d bytes, skipped", (int)len,
		     name, SYSCTL_PATH_MAX - 1);
		return 0;
	}
	if (p->st->check_pattern && p->st->check_pattern(path, &why)) {
		warn(p, "%s: not a path kabidiff can match (%s), skipped",
		     quote_buf(q, sizeof(q), path), why);
		return 0;
	}
	return strings__append(&n->v, &n->nr, path);
}

/* A name a sysctl can have, here: letters, digits, '_', '-' and '.'. */
static bool is_name(const char *s, size_t len, const char *also)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) &&
		    (!s[i] || (!strchr("_-.", s[i]) && !strchr(also, s[i]))))
			return false;
	return len > 0;
}

/*
 * The directory a line names, "/proc/sys/net/ipv4" of
 * "/proc/sys/net/ipv4/\* Variables", into @out; false when it names none.
 * A last component with a '*' ("nf_conntrack_*") is not part of it.
 */
static bool directory_named(struct span l, char *out, size_t size)
{
	char buf[SYSCTL_PATH_MAX], *start, *end, *slash;

	trimmed(l, buf, sizeof(buf));
	start = strstr(buf, "proc/sys");
	if (!start)
		return false;
	end = start + strcspn(start, " \t`:");
	*end = '\0';
	slash = strrchr(start, '/');
	if (strchr(slash, '*'))
		*slash = '\0';
	while (end > start && end[-1] == '/')
		*--end = '\0';
	snprintf(out, size, "/%s", start);
	return true;
}

/* A directory named by a line: the section's, and the title's if first. */
static void set_directory(struct sysctl_parser *p, const char *dir)
{
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	if (!*p->base)
		snprintf(p->base, sizeof(p->base), "%s", dir);
}

/*
 * "4. Appletalk": a numbered section naming a subsystem, not its
 * directory, which is the title's and the name in lower case.
 */
static bool numbered_section(struct sysctl_parser *p, const char *text)
{
	char dir[SYSCTL_PATH_MAX];
	const char *name;
	size_t i, len;

	for (i = 0; isdigit((unsigned char)text[i]); i++)
		;
	if (!i || text[i] != '.' || text[i + 1] != ' ' || !*p->base)
		return false;
	name = text + i + 2;
	len = strlen(name);
	if (!is_name(name, len, "") ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/%s", p->base, name) >= sizeof(dir))
		return false;
	for (i = strlen(p->base) + 1; dir[i]; i++)
		dir[i] = tolower((unsigned char)dir[i]);
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	return true;
}

/*
 * The names of a heading, as check-sysctl-docs reads them: words, not
 * those in parentheses, "and" and "&" left out, punctuation trimmed.
 */
static int heading_names(struct sysctl_parser *p, char *text)
{
	char q[SYSCTL_PATH_MAX + 16];
	struct names n = { 0 };
	bool in_parens = false;
	char *word;
	int err = 0;

	while (!err && (word = strsep(&text, " \t"))) {
		size_t len = strlen(word);
		bool closes = len && word[len - 1] == ')';

		if (*word == '(')
			in_parens = true;
		if (in_parens) {
			in_parens = !closes;
			continue;
		}
		while (*word && strchr("\"&", *word))
			word++;
		len = strlen(word);
		while (len && strchr("[]\"&,}:", word[len - 1]))
			len--;
		if (!len || (len == 3 && !strncmp(word, "and", 3)))
			continue;
		word[len] = '\0';
		if (is_name(word, len, ""))
			err = add_name(p, &n, word, len);
		else
			warn(p, "heading word %s is not the name of a sysctl",
			     quote_buf(q, sizeof(q), word));
	}
	if (err) {
		strings__free(n.v, n.nr);
		return err;
	}
	snprintf(p->heading, sizeof(p->heading), "%s", n.nr == 1 ? n.v[0] : "");
	return start_entry(p, &n);
}

static int read_heading(struct sysctl_parser *p, struct span l)
{
	char text[SYSCTL_PATH_MAX], dir[SYSCTL_PATH_MAX];
	int err = end_entry(p, p->lineno - 1);

	if (err)
		return err;
	p->heading[0] = '\0';
	if (directory_named(l, dir, sizeof(dir))) {
		set_directory(p, dir);
		return 0;
	}
	if (p->items)
		return 0;	/* "IP Variables": a section, no entry */
	trimmed(l, text, sizeof(text));
	if (numbered_section(p, text))
		return 0;
	return heading_names(p, text);
}

/*
 * "NAME[, NAME...] - TYPE": an item of the definition list, whose names
 * are added to a new entry; 1 when @l is no item.
 */
static int read_item(struct sysctl_parser *p, struct span l)
{
	const char *dash = NULL, *name, *end;
	struct names n = { 0 };
	size_t i;
	int err = 0;

	for (i = 1; i + 2 < l.len && !dash; i++)
		if (isspace((unsigned char)l.p[i - 1]) && l.p[i] == '-' &&
		    isspace((unsigned char)l.p[i + 1]))
			dash = l.p + i;
	if (!dash)
		return 1;
	for (name = l.p; name < dash; name = end + 1) {
		while (isspace((unsigned char)*name))
			name++;
		end = memchr(name, ',', dash - name) ?: dash;
		i = end - name;
		while (i && isspace((unsigned char)name[i - 1]))
			i--;
		if (!is_name(name, i, "/*"))
			return 1;
	}
	for (name = l.p; !err && name < dash; name = end + 1) {
		while (isspace((unsigned char)*name))
			name++;
		end = memchr(name, ',', dash - name) ?: dash;
		for (i = end - name; isspace((unsigned char)name[i - 1]); i--)
			;
		err = add_name(p, &n, name, i);
	}
	if (err) {
		strings__free(n.v, n.nr);
		return err;
	}
	return start_entry(p, &n);
}

/*
 * "``/proc/sys/fs/mqueue/msg_max`` is ...": an entry of the path in the
 * literal; 1 when @l is none.
 */
static int read_path_literal(struct sysctl_parser *p, struct span l)
{
	static const char open[] = "``/proc/sys/";
	const char *path = l.p + 2, *close;
	char buf[SYSCTL_PATH_MAX];
	struct names n = { 0 };
	int err;

	if (l.len < sizeof(open) || memcmp(l.p, open, sizeof(open) - 1))
		return 1;
	close = memmem(path, l.len - 2, "``", 2);
	if (!close || memchr(path, '*', close - path) ||
	    close - path >= SYSCTL_PATH_MAX)
		return 1;
	snprintf(buf, sizeof(buf), "%.*s", (int)(close - path), path);
	err = strings__append(&n.v, &n.nr, buf);
	return err ?: start_entry(p, &n);
}

/*
 * "* ``boot_id``: ...": an entry of the file of that name below the
 * heading's path; 1 when @l is none.
 */
static int read_bullet(struct sysctl_parser *p, struct span l)
{
	static const char open[] = "* ``";
	const char *name = l.p + sizeof(open) - 1, *close;
	char path[SYSCTL_PATH_MAX];
	struct names n = { 0 };
	int err;

	if (!*p->heading || l.len < sizeof(open) ||
	    memcmp(l.p, open, sizeof(open) - 1))
		return 1;
	close = memmem(name, l.len - (sizeof(open) - 1), "``", 2);
	if (!close || !is_name(name, close - name, "") ||
	    (size_t)snprintf(path, sizeof(path), "%s/%.*s", p->heading,
			     (int)(close - name), name) >= sizeof(path))
		return 1;
	err = strings__append(&n.v, &n.nr, path);
	return err ?: start_entry(p, &n);
}

static int read_line(struct sysctl_parser *p, size_t i)
{
	struct span l = p->lines[i];
	int err;

	p->lineno = i + 1;
	if (!p->items) {
		err = read_path_literal(p, l);
		if (err == 1)
			err = read_bullet(p, l);
		return err == 1 ? 0 : err;
	}
	if (!starts_line(l))
		return 0;
	err = read_item(p, l);
	/* other text at the start of a line ends an item's */
	return err == 1 ? end_entry(p, i) : err;
}

/* The line of an entry before the path @what of entry @i had it, or 0. */
static unsigned int documented_before(const struct sysctl_parser *p,
				      size_t i, size_t what)
{
	const struct doc_entry *v = p->s->docs.v;
	size_t j, k;

	for (j = p->first; j <= i; j++)
		for (k = 0; k < (j < i ? v[j].nr_what : what); k++)
			if (!strcmp(v[i].what[what], v[j].what[k]))
				return v[j].line;
	return 0;
}

/* Warn about each path two entries of this file both document. */
static void check_repeats(struct sysctl_parser *p)
{
	const struct doc_entry *v = p->s->docs.v;
	char q[SYSCTL_PATH_MAX + 16];
	unsigned int line;
	size_t i, k;

	for (i = p->first; i < p->s->docs.nr; i++) {
		for (k = 0; k < v[i].nr_what; k++) {
			line = documented_before(p, i, k);
			if (!line)
				continue;
			p->lineno = v[i].line;
			warn(p, "%s is also documented at line %u",
			     quote_buf(q, sizeof(q), v[i].what[k]), line);
		}
	}
}

static int split_lines(const char *buf, size_t len, struct span **out,
		       size_t *nr)
{
	const char *end = buf + len, *nl;
	struct span *v;
	size_t n = 0;

	v = malloc((len + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (; buf < end; buf = nl + 1) {
		nl = memchr(buf, '\n', end - buf) ?: end;
		v[n].p = buf;
		v[n++].len = nl - buf;
	}
	*out = v;
	*nr = n;
	return 0;
}

int abidocs__parse_sysctl(const char *file, const char *buf, size_t len,
			  struct snapshot *s, struct abidocs_stats *st)
{
	struct sysctl_parser p = {
		.file = file, .s = s, .st = st, .first = s->docs.nr,
		.items = !strncmp(file, "networking/", 11),
	};
	size_t i;
	int err;

	err = split_lines(buf, len, &p.lines, &p.nr_lines);
	for (i = 0; !err && i < p.nr_lines; i++) {
		if (is_heading(&p, i)) {
			p.lineno = i + 1;
			err = read_heading(&p, p.lines[i]);
			i++;	/* the underline */
		} else {
			err = read_line(&p, i);
		}
	}
	if (!err)
		err = end_entry(&p, p.nr_lines);
	if (!err)
		check_repeats(&p);
	free(p.lines);
	return err;
}
