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

/*
 * finding__declaring_file() - the source file that declares the type or
 * defines the syscall finding @f of @j is about, as the snapshot that has
 * it (OLD's first) records it; NULL when not known.
 */
const char *finding__declaring_file(const struct judgement *j,
				    const struct finding *f);

/* One address to tell about a finding, and why. */
struct notice {
	char *address;	/* as written: "linux-pm@vger.kernel.org", "A <a@b>" */
	char *why;	/* "Contact: of stable/sysfs-module#1" */
	bool contact;	/* from the doc entry's Contact: */
};

/*
 * notify__finding() - whom to tell about finding @f of @j, each address
 * once, with @m the tree's MAINTAINERS or NULL: a malloc()ed array of *@nr
 * notices into *@v (NULL when there is none), released with
 * notices__free().  Returns 0 or -ENOMEM.
 */
int notify__finding(const struct judgement *j, const struct finding *f,
		    const struct maintainers *m, struct notice **v, size_t *nr);
void notices__free(struct notice *v, size_t nr);

/*
 * notify__findings() - notify__finding() for the @nr_findings findings at
 * @f together: each address once, with the reason it first had.
 */
int notify__findings(const struct judgement *j, const struct finding *f,
		     size_t nr_findings, const struct maintainers *m,
		     struct notice **v, size_t *nr);

/* An address and what it is told about. */
struct recipient {
	char *address;			/* as first written */
	char **why;			/* each reason once, in order */
	size_t nr_why;
	const struct finding **findings;	/* in the report's order */
	size_t nr_findings;
	size_t alloc_findings;
};

struct notify {
	struct recipient *v;	/* in the order of their first finding */
	size_t nr;
	size_t alloc;
	size_t nobody;		/* findings with no one to tell */
};

/*
 * notify__build() - the recipients of the findings of @j into @n (zeroed
 * by the caller), @m as for notify__finding().  Returns 0 or -ENOMEM;
 * release @n with notify__release() either way.
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
