/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What OLD and NEW of a comparison can be: a snapshot file, a kernel build
 * directory (collected on the fly), a directory holding a kernel's Debian
 * packages, or debian:ABI[-FLAVOUR] (a kernel of Debian's archive).  The
 * snapshots of packages are kept in the cache (snapshots/), keyed by what
 * made them, so a second comparison of the same kernels only diffs.
 */
#ifndef KABIDIFF_PIPELINE_SIDE_H
#define KABIDIFF_PIPELINE_SIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

struct machine_profile;

/*
 * side_load() - the snapshot @name gives, or NULL when it cannot be had
 * (reported); a kernel collected boots on @machine (NULL: the default
 * profile).  Progress and timing go through pr_info().
 */
struct snapshot *side_load(const char *name,
			   const struct machine_profile *machine);

/*
 * side_maintainers() - the MAINTAINERS file of the kernel tree side @name
 * has at hand, malloc()ed, or NULL: a debian: side's or a directory of
 * .deb files' linux-source package in the cache, a build directory's tree
 * (BUILD/source, else BUILD); none for a snapshot file.
 */
char *side_maintainers(const char *name);

/*
 * side_concurrent() - whether side_load() of @name only reads a snapshot
 * file, which it may do in a thread beside the other side's (after
 * sides_prepare()).
 */
bool side_concurrent(const char *name);

/*
 * sides_prepare() - when two or more of @names need collecting (no
 * snapshot file, no cached snapshot), collect them at once, each in a
 * process of its own, for side_load() to find.  Returns 0, or -errno when
 * one failed (reported by its process).
 */
int sides_prepare(const char *const *names, size_t nr,
		  const struct machine_profile *machine);

#endif /* KABIDIFF_PIPELINE_SIDE_H */
