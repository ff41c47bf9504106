// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whom to tell about each finding, and the findings of each recipient.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/array.h"
#include "lib/bytes.h"
#include "notify.h"

/* The mailbox of "Name <addr>", or of "addr": its start and length. */
static const char *mailbox(const char *s, size_t *len)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt) {
		*len = gt - lt - 1;
		return lt + 1;
	}
	*len = strlen(s);
	return s;
}

bool notify__same_address(const char *a, const char *b)
{
	size_t la, lb;
	const char *ma = mailbox(a, &la), *mb = mailbox(b, &lb);

	return la == lb && !strncasecmp(ma, mb, la);
}

static void notices__free(struct notice *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(v[i].address);
		free(v[i].why);
	}
	free(v);
}

/* Adds @address (its first @len bytes) with @why, unless it is there. */
static int add_notice(struct notice **v, size_t *nr, const char *address,
		      size_t len, const char *why, bool contact)
{
	char *a = strndup(address, len);
	struct notice *n;
	size_t i;

	if (!a)
		return -ENOMEM;
	for (i = 0; i < *nr; i++) {
		if (notify__same_address((*v)[i].address, a)) {
			free(a);
			return 0;
		}
	}
	n = ARRAY_APPEND_ITEM(*v, *nr);
	if (!n) {
		free(a);
		return -ENOMEM;
	}
	n->address = a;
	n->contact = contact;
	n->why = strdup(why);
	return n->why ? 0 : -ENOMEM;
}

/*
 * A Contact: field's addresses: it is free text, "A <a@b>, list@vger..."
 * or several lines; the pieces between commas, semicolons and line ends
 * that hold an '@' are addresses, the rest (a URL, a name alone) is not.
 */
static int add_contacts(struct notice **v, size_t *nr,
			const struct doc_entry *d)
{
	const char *p = d->contact, *end;
	char *why = xasprintf("Contact: of %s#%u", d->file, d->line);
	int err = why ? 0 : -ENOMEM;

	for (; !err && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ",;\n");
		while (p < end && isspace((unsigned char)*p))
			p++;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		if (memchr(p, '@', end - p))
			err = add_notice(v, nr, p, end - p, why, true);
		end += strcspn(end, ",;\n");
	}
	free(why);
	return err;
}

/* finding_notices.declared_in of finding @f of @j */
static const char *declaring_file(const struct judgement *j,
				  const struct finding *f)
{
	const struct change *c = f->change;
	const struct snapshot *s = c->old_ref >= 0 ? j->old : j->new;
	int32_t ref = c->old_ref >= 0 ? c->old_ref : c->new_ref;

	if (ref < 0)
		return NULL;
	switch (change_kind__part(c->kind)) {
	case PART_TYPES:
		return s->types.v[ref].file;
	case PART_SYSCALLS:
		return s->syscalls.v[ref].file;
	default:
		return NULL;
	}
}

/*
 * The lists MAINTAINERS names for @path, not THE REST's: linux-kernel@ is
 * no one in particular to tell.
 */
static int add_maintainers(struct notice **v, size_t *nr,
			   const struct maintainers *m, const char *path)
{
	const struct maintainers_list **lists;
	size_t i, nr_lists;
	char *why;
	int err = maintainers__lists(m, path, false, &lists, &nr_lists);

	if (err || !nr_lists)
		return err;
	why = xasprintf("MAINTAINERS: %s", path);
	err = why ? 0 : -ENOMEM;
	for (i = 0; !err && i < nr_lists; i++)
		err = add_notice(v, nr, lists[i]->address,
				 strlen(lists[i]->address), why, false);
	free(why);
	free(lists);
	return err;
}

/*
 * Whom to tell about finding @f of @j into @to, each mailbox once, @m the
 * tree's MAINTAINERS or NULL.  Returns 0 or -ENOMEM, @to empty then.
 */
static int notices_of(const struct judgement *j, const struct finding *f,
		      const struct maintainers *m, struct finding_notices *to)
{
	enum change_part part = change_kind__part(f->change->kind);
	struct notice **v = &to->v;
	size_t *nr = &to->nr;
	const char *file = declaring_file(j, f);
	char *doc_path = NULL;
	int err = 0;

	to->declared_in = file;
	if (f->doc && f->doc->contact)
		err = add_contacts(v, nr, f->doc);
	if (!err && (part == PART_SYSCALLS || part == PART_TYPES ||
		     part == PART_VDSO))
		err = add_notice(v, nr, LINUX_API_LIST, strlen(LINUX_API_LIST),
				 "the kernel's API list: syscall, type and vDSO changes",
				 false);
	if (!err && m && !file && f->doc) {
		file = doc_path = xasprintf("%s%s", doc_entry__dir(f->doc),
					     f->doc->file);
		err = file ? 0 : -ENOMEM;
	}
	if (!err && m && file)
		err = add_maintainers(v, nr, m, file);
	free(doc_path);
	if (err) {
		notices__free(*v, *nr);
		*v = NULL;
		*nr = 0;
	}
	return err;
}

static struct recipient *recipient_of(struct notify *n, const char *address)
{
	struct recipient *r;
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (notify__same_address(n->v[i].address, address))
			return &n->v[i];
	r = ARRAY_APPEND(n->v, n->nr, n->alloc);
	if (r)
		r->address = strdup(address);
	return r && r->address ? r : NULL;
}

static int add_reason(struct recipient *r, const char *why)
{
	size_t i;

	for (i = 0; i < r->nr_why; i++)
		if (!strcmp(r->why[i], why))
			return 0;
	return strings__append(&r->why, &r->nr_why, why);
}

/* Tells @notice's recipient about @f, and @notice the finding told before. */
static int tell(struct notify *n, struct notice *notice,
		const struct finding *f)
{
	struct recipient *r = recipient_of(n, notice->address);
	const struct finding **slot;

	if (!r || add_reason(r, notice->why))
		return -ENOMEM;
	notice->prev = r->nr_findings ? r->findings[r->nr_findings - 1] : NULL;
	slot = ARRAY_APPEND(r->findings, r->nr_findings, r->alloc_findings);
	if (!slot)
		return -ENOMEM;
	*slot = f;
	return 0;
}

int notify__build(struct notify *n, const struct judgement *j,
		  const struct maintainers *m)
{
	size_t i, k;
	int err = 0;

	n->maintainers = m != NULL;
	n->findings = calloc(j->nr, sizeof(*n->findings));
	if (j->nr && !n->findings)
		return -ENOMEM;
	n->nr_findings = j->nr;
	for (i = 0; !err && i < j->nr; i++) {
		struct finding_notices *to = &n->findings[i];

		err = notices_of(j, &j->v[i], m, to);
		for (k = 0; !err && k < to->nr; k++)
			err = tell(n, &to->v[k], &j->v[i]);
		n->nobody += !err && !to->nr;
	}
	return err;
}

void notify__release(struct notify *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++) {
		free(n->v[i].address);
		strings__free(n->v[i].why, n->v[i].nr_why);
		free(n->v[i].findings);
	}
	free(n->v);
	for (i = 0; i < n->nr_findings; i++)
		notices__free(n->findings[i].v, n->findings[i].nr);
	free(n->findings);
	memset(n, 0, sizeof(*n));
}
