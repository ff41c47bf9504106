// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vDSO part of the diff: symbols are paired by (image, name).  A
 * program finds a vDSO function by name and version (glibc asks for
 * __vdso_clock_gettime at LINUX_2.6), so a symbol gone, or now under
 * another version, is one it no longer finds; a new symbol is an
 * addition.  Prototypes are compared as the syscalls' arguments are
 * (diff_signature()), the return type with them; a symbol without a
 * prototype on either side (one written in assembly, or an image without
 * DWARF) has only its name and version compared.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

static int vdso_key_cmp(const struct vdso_symbol *a, const struct vdso_symbol *b)
{
	int c = strcmp(a->image, b->image);

	return c ? c : strcmp(a->name, b->name);
}

static char *subject_of(const struct vdso_symbol *sym)
{
	return xasprintf("%s/%s", sym->image, sym->name);
}

/* "LINUX_2.6", or "(no version)" */
static const char *version_of(const struct vdso_symbol *sym)
{
	return sym->version ?: "(no version)";
}

/* One symbol present on one side only. */
static int symbol_alone(const struct snapshot *s, int32_t i, bool removed,
			struct diff *d)
{
	const struct vdso_symbol *sym = &s->vdso.v[i];
	char *subject = subject_of(sym);
	int err = -ENOMEM;

	if (subject)
		err = removed ?
		      diff_add(d, CHANGE_VDSO_SYMBOL_REMOVED, subject,
			       version_of(sym), NULL, i, -1) :
		      diff_add(d, CHANGE_VDSO_SYMBOL_ADDED, subject, NULL,
			       version_of(sym), -1, i);
	free(subject);
	return err;
}

static int compare_symbol(const struct snapshot *old, const struct snapshot *new,
			  int32_t i, int32_t j, struct diff *d)
{
	const struct vdso_symbol *a = &old->vdso.v[i], *b = &new->vdso.v[j];
	struct signature sa = { &a->ret, a->args, a->nr_args };
	struct signature sb = { &b->ret, b->args, b->nr_args };
	char *subject = subject_of(a);
	int err = subject ? 0 : -ENOMEM;

	if (!err && strcmp(version_of(a), version_of(b)))
		err = diff_add(d, CHANGE_VDSO_SYMBOL_REVERSIONED, subject,
			       version_of(a), version_of(b), i, j);
	if (!err && a->ret.type && b->ret.type)
		err = diff_signature(old, new, &sa, &sb, subject, i, j,
				     CHANGE_VDSO_PROTOTYPE_CHANGED,
				     CHANGE_VDSO_ARG_POINTEE_CHANGED, d);
	free(subject);
	return err;
}

/* A merge of both sides, sorted by (image, name) already. */
int diff_vdso(const struct snapshot *old, const struct snapshot *new,
	      struct diff *d)
{
	size_t i = 0, j = 0;
	int err = 0;

	while (!err && (i < old->vdso.nr || j < new->vdso.nr)) {
		int c = i == old->vdso.nr ? 1 : j == new->vdso.nr ? -1 :
			vdso_key_cmp(&old->vdso.v[i], &new->vdso.v[j]);

		if (c < 0)
			err = symbol_alone(old, i++, true, d);
		else if (c > 0)
			err = symbol_alone(new, j++, false, d);
		else
			err = compare_symbol(old, new, i++, j++, d);
	}
	return err;
}
