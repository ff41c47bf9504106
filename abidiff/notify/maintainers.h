/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel tree's MAINTAINERS file: which subsystems own a source file, and
 * so whom to tell about a change in it, as scripts/get_maintainer.pl says.
 *
 * The file is read once (maintainers__load()) into its sections, their
 * patterns compiled and indexed; then maintainers__match() and
 * maintainers__lists() answer for one path at a time, each in time
 * proportional to the patterns of the folders the path lies in and to the
 * N: regexes, not to the number of sections.  How a path is matched and how
 * the sections are ranked is described at the top of maintainers.c.
 */
#ifndef KABIDIFF_MAINTAINERS_H
#define KABIDIFF_MAINTAINERS_H

#include <stdbool.h>
#include <stddef.h>

/* An L: line: "linux-iio@vger.kernel.org", "(moderated for non-subscribers)" */
struct maintainers_list {
	char *address;
	char *note;		/* the rest of the line, or NULL */
	bool subscribers_only;	/* the note says so: no mail from others */
};

/* One section: a title line and the "X:\tvalue" lines under it. */
struct maintainers_section {
	char *title;
	unsigned int line;		/* of the title, in the file */
	char *status;			/* the first S:, or NULL */
	char **maintainers;		/* M:, "Name <address>" as written */
	size_t nr_maintainers;
	struct maintainers_list *lists;	/* L:, in file order */
	size_t nr_lists;
	char **files;			/* F: patterns, as written */
	size_t nr_files;
	char **excludes;		/* X: patterns */
	size_t nr_excludes;
	char **regexes;			/* N: regexes */
	size_t nr_regexes;
	bool catch_all;			/* an F: that takes every path: THE REST */
};

struct maintainers_pattern;
struct maintainers_dir;
struct maintainers_regex;

struct maintainers {
	struct maintainers_section *sections;	/* in file order */
	size_t nr_sections;
	/* private: the F: and X: patterns by folder, the N: regexes */
	struct maintainers_pattern *patterns;
	size_t nr_patterns;
	struct maintainers_dir *dirs;
	size_t nr_dirs;
	struct maintainers_regex *regexps;
	size_t nr_regexps;
	char *file;		/* the path loaded, for the lookups' warnings */
};

/* A section that owns a path, and how closely (get_maintainer.pl's depth). */
struct maintainers_match {
	const struct maintainers_section *section;
	int rank;	/* the higher, the more specific; -1 for a "*..." pattern */
};

/*
 * maintainers__load() - read the MAINTAINERS file @path into @m.
 *
 * Lines of the preamble (everything before the first title followed by a
 * field line) are skipped; blank lines and '#' comments are ignored as
 * get_maintainer.pl ignores them.  Odd lines are tolerated: a field line
 * before any title, a field with no value or of a letter not known are
 * skipped; an N: regex that does not compile is reported as a warning
 * ("PATH:LINE: ...") and left out of matching.  The N: regexes are Perl's
 * (PCRE2), as get_maintainer.pl's are.
 *
 * Returns 0, or -errno with the problem reported: "PATH: strerror" when
 * the file cannot be read, "PATH: not a MAINTAINERS file" (-EINVAL) when
 * it holds no section.  On error @m holds nothing; release it with
 * maintainers__release() either way.
 */
int maintainers__load(struct maintainers *m, const char *path);

/* maintainers__release() - free what @m holds and zero it. */
void maintainers__release(struct maintainers *m);

/*
 * maintainers__match() - the sections of @m that own @path, a path
 * relative to the top of the tree ("fs/read_write.c"; a leading "./" is
 * skipped), the most specific first.
 *
 * Stores a malloc()ed array of *@nr matches in *@v (NULL when there is
 * none), for the caller to free(); its sections are borrowed from @m.  A
 * catch-all section (THE REST, "F: *") is left out unless nothing else
 * owns @path.  Returns 0 or -ENOMEM.
 *
 * Each N: regex is searched within fixed limits of time and memory; one
 * that runs into them is reported as a warning ("PATH:LINE: N: ... gave
 * up on ...") and counts as not matching, in this lookup and every later
 * one of @m (which it marks so: lookups of one @m are not to run in two
 * threads at once).  The same holds for maintainers__lists().
 */
int maintainers__match(const struct maintainers *m, const char *path,
		       struct maintainers_match **v, size_t *nr);

/*
 * maintainers__lists() - the mailing lists to tell about a change in
 * @path: the L: lines of the most specific sections that own it and have
 * a list, each address once, in order; with @catch_all, those of THE
 * REST when no other owner has one, as get_maintainer.pl does (without,
 * none: THE REST's list is no one in particular).  Lists that take mail
 * from subscribers only are left out, as get_maintainer.pl leaves them
 * out.
 *
 * Stores a malloc()ed array of *@nr pointers into @m in *@v (NULL when
 * there is none), for the caller to free().  Returns 0 or -ENOMEM.
 */
int maintainers__lists(const struct maintainers *m, const char *path,
		       bool catch_all, const struct maintainers_list ***v,
		       size_t *nr);

#endif /* KABIDIFF_MAINTAINERS_H */
