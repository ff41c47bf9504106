/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The diff: what changed between two snapshots, as a flat list of change
 * records (change.h).  It neither judges nor prints: the policy (policy.h)
 * attaches a stability level and a verdict to each record, a renderer
 * prints them.
 */
#ifndef KABIDIFF_DIFF_H
#define KABIDIFF_DIFF_H

#include "model/model.h"
#include "change.h"

/*
 * diff__run() - compare @old with @new into @d (zeroed by the caller).
 *
 * Both snapshots must be in canonical order (snapshot__sort()).  A part is
 * compared only when both collected it (@d->compared tells).  The changes
 * come in a fixed order: by part, then by subject.  Returns 0 or -ENOMEM;
 * release @d with diff__release() either way.
 */
int diff__run(const struct snapshot *old, const struct snapshot *new,
	      struct diff *d);

#endif /* KABIDIFF_DIFF_H */
