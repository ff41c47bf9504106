/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The census of a kernel's attributes (collectors/census/) from where a
 * user has it: a Debian -dbg package, streamed, or a directory or file.
 */
#ifndef KABIDIFF_PIPELINE_CENSUS_H
#define KABIDIFF_PIPELINE_CENSUS_H

#include "model/model.h"

/*
 * collect_census() - the census part of @s from @path: a .deb (a -dbg
 * package, whose vmlinux and modules are read out of its data archive in
 * memory, one file at a time), else what census__collect() reads.
 * Returns 0 or -errno, reported.
 */
int collect_census(struct snapshot *s, const char *path);

#endif /* KABIDIFF_PIPELINE_CENSUS_H */
