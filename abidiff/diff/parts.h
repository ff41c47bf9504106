/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the diff: each part's comparison (diff.c, diff-sysfs.c,
 * diff-types.c) and the one way they add change records.
 */
#ifndef KABIDIFF_DIFF_PARTS_H
#define KABIDIFF_DIFF_PARTS_H

#include "lib/bytes.h"
#include "diff.h"

/*
 * diff_add() - append a change of @kind about @subject to @d, with @old and
 * @new descriptions (copied; NULL for none) and the records it is about.
 * Returns 0 or -ENOMEM.
 */
int diff_add(struct diff *d, enum change_kind kind, const char *subject,
	     const char *old, const char *new, int32_t old_ref, int32_t new_ref);

int diff_sysfs(const struct snapshot *old, const struct snapshot *new,
	       struct diff *d);
int diff_types(const struct snapshot *old, const struct snapshot *new,
	       struct diff *d);

/*
 * types_spelling_equiv() - do C type spellings @a (in @old) and @b (in @new)
 * name the same layout?  Typedefs are looked through and differently named
 * structures compared member by member (diff-types.c explains how).
 * Returns 1, 0, or -ENOMEM.
 */
int types_spelling_equiv(const struct snapshot *old, const struct snapshot *new,
			 const char *a, const char *b);

#endif /* KABIDIFF_DIFF_PARTS_H */
