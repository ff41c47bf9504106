/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy: the stability level of each change's interface, and the
 * verdict the level earns it.  The default table is DESIGN.md's; a policy
 * file overrides cells, a waiver file accepts known changes.  Both formats
 * are specified in docs/policy.md.
 */
#ifndef KABIDIFF_POLICY_H
#define KABIDIFF_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "diff/diff.h"
#include "model/model.h"

/* In order of severity. */
enum verdict {
	VERDICT_NOTE,
	VERDICT_WARN,
	VERDICT_BREAK,
	VERDICT_COUNT,
};

/*
 * A level cap: a change whose subject is @pattern (fnmatch(), '*' matching
 * '/' too) or lies below it is judged @level at most, an undocumented one
 * @level; @none lifts the caps before it.  The default policy caps
 * /sys/kernel/debug at unstable (debugfs is not ABI); a policy file's
 * "cap PATTERN LEVEL|none" lines come after it, the last match wins.
 */
struct level_cap {
	const char *pattern;	/* a policy file's is allocated */
	enum abi_level level;
	bool none;
};

struct policy {
	enum verdict cell[CHANGE_KIND_COUNT][LEVEL_COUNT];
	bool strict;		/* judge warn as break */
	/*
	 * The date that removal dates are judged against, as date__parse()
	 * counts months; 0: NEW's build date.  Never the clock's: the same
	 * two snapshots get the same verdicts on any day.
	 */
	int as_of;
	struct level_cap *caps;	/* a policy file's, in file order */
	size_t nr_caps;
	size_t alloc_caps;
};

/* policy__init() - fill @p with the default table and caps. */
void policy__init(struct policy *p);

/*
 * policy__load() - apply the policy file @path to @p, line by line.
 * Returns 0, or -errno with the problem reported as "PATH:LINE: ...".
 * Release @p with policy__release() either way.
 */
int policy__load(struct policy *p, const char *path);
void policy__release(struct policy *p);

/*
 * The reason 'kabidiff waivers' gives every waiver it writes, for a person
 * to replace with the real one: waivers__load() refuses a waiver whose
 * reason is still this ("FILE:LINE: the reason is still the placeholder").
 */
#define WAIVER_REASON_PLACEHOLDER	"FIXME: say why this change is accepted"

struct waiver {
	bool any_kind;		/* "*" */
	enum change_kind kind;
	char *pattern;		/* fnmatch() pattern for the subject */
	char *reason;
	unsigned int line;
	size_t matched;		/* changes it accepted */
};

/*
 * waiver__format_subject() - the SUBJECT field of a waiver that accepts
 * the subject @subject and no other: its fnmatch() metacharacters ('*',
 * '?', '[' and '\') escaped with '\', in double quotes when it holds a
 * blank or begins with '#' (docs/policy.md).  A grouped finding's subject,
 * a What: pattern or a shape whose '*' stands for the instances, is
 * escaped the same: it is matched as the text it is, like any subject.
 *
 * Returns a malloc()ed string, or NULL with errno ENOMEM, or EINVAL and
 * *@why saying what the syntax cannot hold: a line break, a '"' with a
 * blank (a quoted field ends at its '"'), an empty subject.
 */
char *waiver__format_subject(const char *subject, const char **why);

struct waivers {
	char *file;
	struct waiver *v;
	size_t nr;
	size_t alloc;
};

/*
 * waivers__load() - read the waiver file @path into @w (zeroed by the
 * caller).  Returns 0, or -errno with the problem reported as
 * "PATH:LINE: ...".  Release @w with waivers__release() either way.
 */
int waivers__load(struct waivers *w, const char *path);
void waivers__release(struct waivers *w);

/*
 * doc_entry__cmp() - the order of doc entries @a and @b (NULL: none) in a
 * report: by file, then line, none last; 0 for the same entry.
 */
int doc_entry__cmp(const struct doc_entry *a, const struct doc_entry *b);

/* One change, judged. */
struct finding {
	const struct change *change;
	enum abi_level level;
	const struct doc_entry *doc;	/* the entry giving the level, or NULL */
	const char *cap;		/* the cap that lowered the level, or NULL */
	bool removal_ahead;		/* obsolete, removed before its date */
	enum verdict verdict;
	const struct waiver *waiver;	/* accepted by it, or NULL */
};

/*
 * The judged changes, in the order reports show them: accepted ones last,
 * then by verdict (most severe first), level (most stable first), doc entry
 * (by file and line, none last) and the diff's order.
 */
struct judgement {
	const struct snapshot *old, *new;
	const char *old_name, *new_name;	/* the sides' files, or NULL */
	const char *policy_file;		/* NULL: the default policy */
	const char *maintainers_file;		/* whom to notify by, or NULL */
	const struct diff *diff;
	const struct waivers *waivers;	/* NULL: none given */
	struct finding *v;
	size_t nr;
	size_t count[VERDICT_COUNT];	/* not counting accepted ones */
	size_t waived;
	/*
	 * Removals of obsolete interfaces whose entry announces a removal
	 * date, judged as if it had passed: there was no date to judge it
	 * against, neither the policy's nor NEW's build date.
	 */
	size_t undated;
};

/*
 * policy__judge() - judge every change of @d (a diff of @old and @new) by
 * @p into @j, accepting those that a waiver of @w (NULL for none) matches.
 * An obsolete interface removed before the date its entry announces is
 * a warn at least, the date judged against being @p's, else @new's build
 * date; with neither, j->undated counts the removals it would have judged.
 * @j borrows from all of them.  Returns 0 or -ENOMEM; release @j with
 * judgement__release() either way.
 */
int policy__judge(const struct policy *p, struct waivers *w,
		  const struct snapshot *old, const struct snapshot *new,
		  const struct diff *d, struct judgement *j);
void judgement__release(struct judgement *j);

const char *verdict__name(enum verdict v);

/*
 * verdict__parse() - the verdict called @name ("break", "warn", "note")
 * into *@out.  Returns 0, or -EINVAL for another name.
 */
int verdict__parse(const char *name, enum verdict *out);

#endif /* KABIDIFF_POLICY_H */
