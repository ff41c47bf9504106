// SPDX-License-Identifier: GPL-2.0-only
/*
 * MAINTAINERS, read and matched as scripts/get_maintainer.pl does.
 *
 * The file is a preamble, then sections.  A field line is an upper-case
 * letter, a colon and the value after any blanks ("L:\tlinux-iio@...").
 * Blank lines and '#' lines are nothing.  Any other line is a title: it
 * ends the section before it, and the fields after it are its section's.
 * The preamble's lines are so many titles without fields: no section.
 *
 * Which sections own a path (get_maintainer.pl's file_match_pattern()):
 *
 *  - "F: drivers/net/", a pattern that ends in '/', takes every path that
 *    begins with it.  A '*' in it may match across a '/', as the script's
 *    ".*" does: "X: arch/" "*" "/include/uapi/" (one pattern, cut in three
 *    here because a star then a slash would end this comment) takes
 *    arch/x86/um/include/uapi/ too.
 *  - Any other F: takes the paths that begin with it and have no '/' after
 *    that; '*', '?' and "[ch]" never match a '/' there.  So "drivers/net/"
 *    "*" takes the files in drivers/net but not below, and
 *    "fs/read_write.c" takes that file (and, as in the script,
 *    "fs/read_write.cc").
 *  - The script adds a slash to a pattern that names a directory of the
 *    tree it runs in ("F: drivers/acpi/arm64").  We look at no tree (the
 *    file may come from a git revision): a pattern without wildcards takes
 *    the paths below it too, a path below it being the proof that it names
 *    a directory.  The one difference: a file whose name begins like such a
 *    directory (include/asm-generic/bitops.h for "include/asm-generic/bitops")
 *    is the section's here, not there.
 *  - X: follows the same rules and takes the whole section off the path,
 *    its N: lines too.
 *  - N: is a Perl regular expression searched anywhere in the path, with
 *    the blanks and '#' comments of Perl's /x, as the script's
 *    "$file =~ m/$value/x" searches it.  PCRE2 compiles it: its syntax is
 *    Perl's, where regcomp(3)'s extended expressions are not (\d, lazy
 *    and possessive repeats, look-around), and it bounds the backtracking
 *    a match may do, which regcomp(3) does not: glibc took 40 s and 8 GB
 *    to compile "a{1,32767}", and 19 s to search "(a*)*\1b" in a path of
 *    200 a's.  A pattern PCRE2 refuses is reported and left out, as is a
 *    pattern from its first match that runs into a limit (the script
 *    would die on the first and wait on the second).
 *
 * Ranking: a match through "F: PATTERN" ranks as the number of '/' in
 * PATTERN, plus one when it does not end in '/', or -1 when it starts with
 * '*'; a match through N: ranks 0.  The deeper pattern is the more
 * specific: for drivers/iio/dac/ltc2688.c, the driver's section by
 * "drivers/iio/dac/ltc2688.c" (4) comes before the subsystem's by
 * "drivers/iio/" (2).  A section ranks as its best match; the script takes
 * its last matching line instead, so that a section matched by an F: and by
 * an N: (written after it) ranks 0 there, an accident we do not copy.
 * Sections of equal rank come in file order (in the script, in the order
 * of a Perl hash, which changes from run to run).
 *
 * THE REST takes every path, at rank -1, with "F: *" and "F: *" "/": a
 * section with either is a catch-all, which maintainers__match() leaves
 * out when another section owns the path.
 *
 * The index: a pattern's fixed folder is what comes before its last '/'
 * before any wildcard ("drivers/iio" for "drivers/iio/" and for
 * "drivers/iio/adc/ad*", "" for "*").  A path matches only patterns whose
 * fixed folder is one of its own folders, so the patterns are sorted by
 * fixed folder and a lookup tries the path's folders alone: for
 * drivers/iio/dac/ltc2688.c, "", "drivers", "drivers/iio" and
 * "drivers/iio/dac".  The N: regexes, about a hundred, compiled once, are
 * all tried.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "maintainers.h"

/* An F: or X: line, compiled. */
struct maintainers_pattern {
	const char *text;	/* the section's */
	char *glob;		/* @text and '*' for fnmatch(); NULL if plain */
	size_t len;		/* of @text */
	size_t folder_len;	/* of its fixed folder, which begins @text */
	uint32_t section;
	int rank;
	bool exclude;		/* X: */
	bool slash;		/* @text ends in '/' */
};

/* The patterns whose fixed folder is @name: @nr of them from @first. */
struct maintainers_dir {
	char *name;
	size_t first;
	size_t nr;
};

/*
 * What one search of an N: pattern may do, far beyond what a real one
 * needs: each of the 92 N: lines of 6.1's MAINTAINERS, searched in each
 * of the 83,676 paths of its tree, needs a match limit of 2 and a depth
 * of 2 at the most; ".*" "/foo" in a path of 3,900 bytes needs 3,910 and 3.
 * A search stopped at the match limit has taken about 2 ms ("(a*)*\1b"
 * in 4,000 a's, "c/b.c"); the depth and heap limits keep the memory of its
 * backtracking under HEAP_LIMIT_KIB KiB.
 */
#define MATCH_LIMIT		100000
#define DEPTH_LIMIT		10000
#define HEAP_LIMIT_KIB		4096

/* An N: line, compiled. */
struct maintainers_regex {
	pcre2_code *code;
	const char *text;	/* the section's */
	unsigned int line;	/* in the file */
	uint32_t section;
	bool ignored;		/* a search ran into a limit: tried no more */
};

struct loader {
	struct maintainers *m;
	const char *path;
	unsigned int line;
	const char *title;	/* a title waiting for its first field */
	unsigned int title_line;
	bool open;		/* fields go to the last section */
};

static struct maintainers_section *last_section(const struct loader *ld)
{
	return &ld->m->sections[ld->m->nr_sections - 1];
}

/*
 * "linux-iio@vger.kernel.org", "alsa-devel@alsa-project.org (moderated for
 * non-subscribers)", and a few "Team Name <address>".
 */
static int add_list(struct maintainers_section *s, const char *value)
{
	const char *lt = strchr(value, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;
	const char *note;
	size_t note_len;
	struct maintainers_list *l;

	l = ARRAY_APPEND_ITEM(s->lists, s->nr_lists);
	if (!l)
		return -ENOMEM;
	if (gt) {
		l->address = strndup(lt + 1, gt - lt - 1);
		note = value;
		note_len = lt - value;
	} else {
		note_len = strcspn(value, " \t");
		l->address = strndup(value, note_len);
		note = value + note_len;
		note += strspn(note, " \t");
		note_len = strlen(note);
	}
	while (note_len && isspace((unsigned char)note[note_len - 1]))
		note_len--;
	if (note_len)
		l->note = strndup(note, note_len);
	if (!l->address || (note_len && !l->note))
		return -ENOMEM;
	l->subscribers_only = l->note && strstr(l->note, "subscribers-only");
	if (!*l->address) {
		free(l->address);
		free(l->note);
		s->nr_lists--;
	}
	return 0;
}

/* PCRE2's words for its error @code, cut to @size bytes */
static const char *pcre2_why(int code, char *buf, size_t size)
{
	buf[0] = '\0';
	if (pcre2_get_error_message(code, (PCRE2_UCHAR *)buf, size) < 0 &&
	    !buf[0])
		snprintf(buf, size, "PCRE2 error %d", code);
	return buf;
}

static int add_regex(struct loader *ld, const char *value)
{
	struct maintainers *m = ld->m;
	struct maintainers_section *s = last_section(ld);
	struct maintainers_regex *r;
	PCRE2_SIZE offset;
	char why[128];
	int code;

	if (strings__append(&s->regexes, &s->nr_regexes, value))
		return -ENOMEM;
	r = ARRAY_APPEND_ITEM(m->regexps, m->nr_regexps);
	if (!r)
		return -ENOMEM;
	r->text = s->regexes[s->nr_regexes - 1];
	r->line = ld->line;
	r->section = m->nr_sections - 1;
	r->code = pcre2_compile((PCRE2_SPTR)value, PCRE2_ZERO_TERMINATED,
				PCRE2_EXTENDED, &code, &offset, NULL);
	if (r->code)
		return 0;
	m->nr_regexps--;
	if (code == PCRE2_ERROR_NOMEMORY)
		return -ENOMEM;
	pr_warn("%s:%u: N: '%s' is not a regular expression (%s at offset %zu): ignored",
		ld->path, ld->line, value, pcre2_why(code, why, sizeof(why)),
		(size_t)offset);
	return 0;
}

static int add_field(struct loader *ld, char type, const char *value)
{
	struct maintainers_section *s = last_section(ld);

	if (!*value)
		return 0;
	switch (type) {
	case 'M':
		return strings__append(&s->maintainers, &s->nr_maintainers,
				       value);
	case 'L':
		return add_list(s, value);
	case 'S':
		if (!s->status)
			s->status = strdup(value);
		return s->status ? 0 : -ENOMEM;
	case 'F':
		if (!strcmp(value, "*") || !strcmp(value, "*/"))
			s->catch_all = true;
		return strings__append(&s->files, &s->nr_files, value);
	case 'X':
		return strings__append(&s->excludes, &s->nr_excludes, value);
	case 'N':
		return add_regex(ld, value);
	default:
		/* R:, W:, T:, K: and the others tell nothing of whom to mail */
		return 0;
	}
}

static int add_section(struct loader *ld)
{
	struct maintainers_section *s;

	s = ARRAY_APPEND_ITEM(ld->m->sections, ld->m->nr_sections);
	if (!s)
		return -ENOMEM;
	s->title = strdup(ld->title);
	s->line = ld->title_line;
	ld->title = NULL;
	ld->open = true;
	return s->title ? 0 : -ENOMEM;
}

/* One line, its trailing blanks cut, as get_maintainer.pl reads it. */
static int parse_line(struct loader *ld, const char *line)
{
	const char *p = line;
	int err;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	if (line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':') {
		if (ld->title) {
			err = add_section(ld);
			if (err)
				return err;
		}
		if (!ld->open)	/* a field before any title */
			return 0;
		for (p = line + 2; isspace((unsigned char)*p); p++)
			;
		return add_field(ld, line[0], p);
	}
	ld->title = line;
	ld->title_line = ld->line;
	ld->open = false;
	return 0;
}

/* Each line of @buf (@len bytes, NUL after them) in turn; @buf is cut up. */
static int parse(struct loader *ld, char *buf, size_t len)
{
	char *line, *next, *end = buf + len;
	int err = 0;

	for (line = buf; !err && line < end; line = next) {
		char *nl = memchr(line, '\n', end - line);
		size_t n;

		next = nl ? nl + 1 : end;
		if (nl)
			*nl = '\0';
		/* a NUL byte in the line ends it early: odd, but no harm */
		n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		ld->line++;
		err = parse_line(ld, line);
	}
	return err;
}

static int pattern__init(struct maintainers_pattern *p, const char *text,
			 uint32_t section, bool exclude)
{
	size_t fixed = strcspn(text, "*?[\\");
	const char *slash = memrchr(text, '/', fixed);
	const char *c;

	p->text = text;
	p->len = strlen(text);
	p->folder_len = slash ? (size_t)(slash - text) : 0;
	p->section = section;
	p->exclude = exclude;
	p->slash = text[p->len - 1] == '/';
	p->rank = !p->slash;
	for (c = text; *c; c++)
		p->rank += *c == '/';
	if (text[0] == '*')
		p->rank = -1;
	if (!text[fixed])
		return 0;
	p->glob = xasprintf("%s*", text);
	return p->glob ? 0 : -ENOMEM;
}

static int cmp_folder(const void *a, const void *b)
{
	const struct maintainers_pattern *x = a, *y = b;
	size_t n = x->folder_len < y->folder_len ? x->folder_len : y->folder_len;
	int c = memcmp(x->text, y->text, n);

	if (c)
		return c;
	if (x->folder_len != y->folder_len)
		return x->folder_len < y->folder_len ? -1 : 1;
	return x->section < y->section ? -1 : x->section > y->section;
}

/* The fixed folders of the patterns, sorted, for array__find_name(). */
static int index_patterns(struct maintainers *m)
{
	const struct maintainers_pattern *p = m->patterns;
	struct maintainers_dir *d;
	size_t i, j;

	if (m->nr_patterns)
		qsort(m->patterns, m->nr_patterns, sizeof(*m->patterns),
		      cmp_folder);
	for (i = 0; i < m->nr_patterns; i = j) {
		for (j = i + 1; j < m->nr_patterns &&
		     p[j].folder_len == p[i].folder_len &&
		     !memcmp(p[j].text, p[i].text, p[i].folder_len); j++)
			;
		d = ARRAY_APPEND_ITEM(m->dirs, m->nr_dirs);
		if (!d)
			return -ENOMEM;
		d->name = strndup(p[i].text, p[i].folder_len);
		d->first = i;
		d->nr = j - i;
		if (!d->name)
			return -ENOMEM;
	}
	return 0;
}

static int compile_patterns(struct maintainers *m)
{
	size_t i, k, nr = 0;
	int err = 0;

	for (i = 0; i < m->nr_sections; i++)
		nr += m->sections[i].nr_files + m->sections[i].nr_excludes;
	m->patterns = calloc(nr, sizeof(*m->patterns));
	if (!m->patterns && nr)
		return -ENOMEM;
	for (i = 0; !err && i < m->nr_sections; i++) {
		const struct maintainers_section *s = &m->sections[i];

		for (k = 0; !err && k < s->nr_files; k++)
			err = pattern__init(&m->patterns[m->nr_patterns++],
					    s->files[k], i, false);
		for (k = 0; !err && k < s->nr_excludes; k++)
			err = pattern__init(&m->patterns[m->nr_patterns++],
					    s->excludes[k], i, true);
	}
	return err ? err : index_patterns(m);
}

int maintainers__load(struct maintainers *m, const char *path)
{
	struct loader ld = { .m = m, .path = path };
	char *buf;
	size_t len;
	int err;

	memset(m, 0, sizeof(*m));
	err = read_file_or_report(path, SMALL_FILE_MAX, &buf, &len);
	if (err)
		return err;
	m->file = strdup(path);
	err = m->file ? parse(&ld, buf, len) : -ENOMEM;
	free(buf);
	if (!err && !m->nr_sections) {
		pr_err("%s: not a MAINTAINERS file", path);
		err = -EINVAL;
	}
	if (!err)
		err = compile_patterns(m);
	if (err == -ENOMEM)
		pr_err("%s: %s", path, strerror(ENOMEM));
	if (err)
		maintainers__release(m);
	return err;
}

static void section__release(struct maintainers_section *s)
{
	size_t i;

	for (i = 0; i < s->nr_lists; i++) {
		free(s->lists[i].address);
		free(s->lists[i].note);
	}
	free(s->lists);
	free(s->title);
	free(s->status);
	strings__free(s->maintainers, s->nr_maintainers);
	strings__free(s->files, s->nr_files);
	strings__free(s->excludes, s->nr_excludes);
	strings__free(s->regexes, s->nr_regexes);
}

void maintainers__release(struct maintainers *m)
{
	size_t i;

	for (i = 0; i < m->nr_sections; i++)
		section__release(&m->sections[i]);
	free(m->sections);
	for (i = 0; i < m->nr_patterns; i++)
		free(m->patterns[i].glob);
	free(m->patterns);
	for (i = 0; i < m->nr_dirs; i++)
		free(m->dirs[i].name);
	free(m->dirs);
	for (i = 0; i < m->nr_regexps; i++)
		pcre2_code_free(m->regexps[i].code);
	free(m->regexps);
	free(m->file);
	memset(m, 0, sizeof(*m));
}

static bool pattern_matches(const struct maintainers_pattern *p,
			    const char *path)
{
	const char *rest;

	if (p->glob)
		return !fnmatch(p->glob, path, p->slash ? 0 : FNM_PATHNAME);
	if (strncmp(path, p->text, p->len))
		return false;
	rest = path + p->len;
	/* below a folder; a file of that name or longer; below a directory */
	return p->slash || !strchr(rest, '/') || *rest == '/';
}

/* A pattern or regex of a section that matched: one line's say. */
struct hit {
	uint32_t section;
	int rank;
	bool exclude;
};

struct hits {
	struct hit *v;
	size_t nr;
	size_t alloc;
};

static int hits__add(struct hits *h, uint32_t section, int rank,
		     bool exclude)
{
	struct hit *hit = ARRAY_APPEND(h->v, h->nr, h->alloc);

	if (!hit)
		return -ENOMEM;
	hit->section = section;
	hit->rank = rank;
	hit->exclude = exclude;
	return 0;
}

/* The patterns of fixed folder @folder (@len bytes) that match @path. */
static int folder_hits(const struct maintainers *m, const char *path,
		       const char *folder, size_t len, struct hits *h)
{
	int32_t d = array__find_name(m->dirs, m->nr_dirs, sizeof(*m->dirs),
				     offsetof(struct maintainers_dir, name),
				     folder, len);
	const struct maintainers_pattern *p, *end;

	if (d < 0)
		return 0;
	p = &m->patterns[m->dirs[d].first];
	for (end = p + m->dirs[d].nr; p < end; p++)
		if (pattern_matches(p, path) &&
		    hits__add(h, p->section, p->rank, p->exclude))
			return -ENOMEM;
	return 0;
}

/*
 * Whether @r is found in @path: 1 or 0, or -ENOMEM.  A search that runs
 * into a limit of @ctx, or fails otherwise, is reported and counts as
 * not found, and @r is not tried again.
 */
static int regex_search(const struct maintainers *m,
			struct maintainers_regex *r, const char *path,
			pcre2_match_data *md, pcre2_match_context *ctx)
{
	char why[128];
	int rc;

	if (r->ignored)
		return 0;
	rc = pcre2_match(r->code, (PCRE2_SPTR)path, PCRE2_ZERO_TERMINATED, 0,
			 0, md, ctx);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc == PCRE2_ERROR_NOMEMORY)
		return -ENOMEM;
	pr_warn("%s:%u: N: '%s' gave up on '%s' (%s): ignored from here on",
		m->file, r->line, r->text, path, pcre2_why(rc, why, sizeof(why)));
	r->ignored = true;
	return 0;
}

/* The hits of the N: patterns, each searched in @path within the limits */
static int regex_hits(const struct maintainers *m, const char *path,
		      struct hits *h)
{
	pcre2_match_context *ctx = NULL;
	pcre2_match_data *md = NULL;
	size_t i;
	int err = -ENOMEM, found;

	if (!m->nr_regexps)
		return 0;
	ctx = pcre2_match_context_create(NULL);
	md = pcre2_match_data_create(1, NULL);
	if (!ctx || !md)
		goto out;
	pcre2_set_match_limit(ctx, MATCH_LIMIT);
	pcre2_set_depth_limit(ctx, DEPTH_LIMIT);
	pcre2_set_heap_limit(ctx, HEAP_LIMIT_KIB);
	for (err = 0, i = 0; !err && i < m->nr_regexps; i++) {
		found = regex_search(m, &m->regexps[i], path, md, ctx);
		if (found > 0)
			err = hits__add(h, m->regexps[i].section, 0, false);
		else
			err = found;
	}
out:
	pcre2_match_data_free(md);
	pcre2_match_context_free(ctx);
	return err;
}

static int find_hits(const struct maintainers *m, const char *path,
		     struct hits *h)
{
	const char *c;

	for (c = path; ; c++) {
		if ((c == path || *c == '/') &&
		    folder_hits(m, path, path, c - path, h))
			return -ENOMEM;
		if (!*c)
			break;
	}
	return regex_hits(m, path, h);
}

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return x->section < y->section ? -1 : x->section > y->section;
}

/* Catch-alls last, then the most specific first, then in file order. */
static int cmp_match(const void *a, const void *b)
{
	const struct maintainers_match *x = a, *y = b;

	if (x->section->catch_all != y->section->catch_all)
		return x->section->catch_all ? 1 : -1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return x->section < y->section ? -1 : x->section > y->section;
}

/* Each section's hits folded into one match, unless an X: took it off. */
static int fold_hits(const struct maintainers *m, struct hits *h,
		     struct maintainers_match **v, size_t *nr)
{
	struct maintainers_match *match;
	size_t i, j;

	if (h->nr)
		qsort(h->v, h->nr, sizeof(*h->v), cmp_hit);
	for (i = 0; i < h->nr; i = j) {
		bool excluded = false, owned = false;
		int rank = -1;

		for (j = i; j < h->nr && h->v[j].section == h->v[i].section;
		     j++) {
			excluded |= h->v[j].exclude;
			if (!h->v[j].exclude && (!owned || h->v[j].rank > rank))
				rank = h->v[j].rank;
			owned |= !h->v[j].exclude;
		}
		if (excluded || !owned)
			continue;
		match = ARRAY_APPEND_ITEM(*v, *nr);
		if (!match)
			return -ENOMEM;
		match->section = &m->sections[h->v[i].section];
		match->rank = rank;
	}
	if (*nr)
		qsort(*v, *nr, sizeof(**v), cmp_match);
	return 0;
}

/* Every section that owns @path, catch-alls included, ranked. */
static int match_all(const struct maintainers *m, const char *path,
		     struct maintainers_match **v, size_t *nr)
{
	struct hits h = { 0 };
	int err;

	*v = NULL;
	*nr = 0;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	err = find_hits(m, path, &h);
	if (!err)
		err = fold_hits(m, &h, v, nr);
	free(h.v);
	if (err) {
		free(*v);
		*v = NULL;
		*nr = 0;
	}
	return err;
}

int maintainers__match(const struct maintainers *m, const char *path,
		       struct maintainers_match **v, size_t *nr)
{
	int err = match_all(m, path, v, nr);

	if (err || !*nr || (*v)[0].section->catch_all)
		return err;
	while ((*v)[*nr - 1].section->catch_all)
		(*nr)--;
	return 0;
}

static bool same_tier(const struct maintainers_match *a,
		      const struct maintainers_match *b)
{
	return a->rank == b->rank &&
	       a->section->catch_all == b->section->catch_all;
}

static int add_lists(const struct maintainers_section *s,
		     const struct maintainers_list ***v, size_t *nr)
{
	const struct maintainers_list **slot;
	size_t i, k;

	for (i = 0; i < s->nr_lists; i++) {
		if (s->lists[i].subscribers_only)
			continue;
		for (k = 0; k < *nr; k++)
			if (!strcasecmp((*v)[k]->address, s->lists[i].address))
				break;
		if (k < *nr)
			continue;
		slot = ARRAY_APPEND_ITEM(*v, *nr);
		if (!slot)
			return -ENOMEM;
		*slot = &s->lists[i];
	}
	return 0;
}

int maintainers__lists(const struct maintainers *m, const char *path,
		       bool catch_all, const struct maintainers_list ***v,
		       size_t *nr)
{
	struct maintainers_match *match;
	size_t nr_match, i, j;
	int err = match_all(m, path, &match, &nr_match);

	*v = NULL;
	*nr = 0;
	/* the first tier, from the most specific down, with a list */
	for (i = 0; !err && !*nr && i < nr_match &&
	     (catch_all || !match[i].section->catch_all); i = j)
		for (j = i; !err && j < nr_match &&
		     same_tier(&match[i], &match[j]); j++)
			err = add_lists(match[j].section, v, nr);
	free(match);
	if (err) {
		free(*v);
		*v = NULL;
		*nr = 0;
	}
	return err;
}
