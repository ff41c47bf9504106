/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whom to tell about the findings of a judgement: the Contact: of the doc
 * entry that judged a finding; the kernel's API list for a syscall, type
 * or vDSO change; and, given the tree's MAINTAINERS, the lists of the
 * subsystem owning the file that declares the type or syscall, or the
 * doc entry's file.
 */
#ifndef KABIDIFF_NOTIFY_H
#define KABIDIFF_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "notify/maintainers.h"
#include "policy/policy.h"

/* Where the kernel's userspace API is discussed (man-pages' list too). */
#define LINUX_API_LIST	"linux-api@vger.kernel.org"

/* One address to tell about a finding, and why. */
struct notice {
	char *address;	/* as written: "linux-pm@vger.kernel.org", "A <a@b>" */
	char *why;	/* "Contact: of stable/sysfs-module#1" */
	bool contact;	/* from the doc entry's Contact: */
	/*
	 * The last finding before this one that the same mailbox is told
	 * about, or NULL: of a run of findings, the notices whose @prev is
	 * outside it name each of their mailboxes once.
	 */
	const struct finding *prev;
};

/* Whom to tell about one finding, each mailbox once, and by what file. */
struct finding_notices {
	/*
	 * The source file that declares the type or defines the syscall the
	 * finding is about, as the snapshot that has it (OLD's first)
	 * records it, borrowed from it; NULL when not known.
	 */
	const char *declared_in;
	struct notice *v;
	size_t nr;
};

/* An address and what it is told about. */
struct recipient {
	char *address;			/* as first written */
	char **why;			/* each reason once, in order */
	size_t nr_why;
	const struct finding **findings;	/* in the report's order */
	size_t nr_findings;
	size_t alloc_findings;
};

/* Whom to tell about the findings of a judgement, as reports show it. */
struct notify {
	struct recipient *v;	/* in the order of their first finding */
	size_t nr;
	size_t alloc;
	struct finding_notices *findings;	/* [i]: of the judgement's v[i] */
	size_t nr_findings;
	size_t nobody;		/* findings with no one to tell */
	bool maintainers;	/* MAINTAINERS was asked, as well as the entries */
};

/*
 * notify__build() - whom to tell about each finding of @j and what to tell
 * each recipient, into @n (zeroed by the caller), with @m the tree's
 * MAINTAINERS or NULL.  Reports print @n as it is: to show fewer findings,
 * build it of a judgement of those only.  Returns 0 or -ENOMEM; release
 * @n with notify__release() either way.
 */
int notify__build(struct notify *n, const struct judgement *j,
		  const struct maintainers *m);
void notify__release(struct notify *n);

/*
 * notify__same_address() - whether @a and @b reach the same mailbox: the
 * addresses in their angle brackets, or the whole of them, compared
 * without case.
 */
bool notify__same_address(const char *a, const char *b);

#endif /* KABIDIFF_NOTIFY_H */
