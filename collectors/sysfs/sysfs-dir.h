/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sysfs part of a snapshot from a directory: a live /sys, or a copy of
 * one (dirs, files and links), walked with the guest agent's own walker.
 */
#ifndef KABIDIFF_SYSFS_DIR_H
#define KABIDIFF_SYSFS_DIR_H

#include <stdbool.h>

#include "model/model.h"

/*
 * sysfs_dir__collect() - add every node under @dir to @s as the tree @prefix
 * ("/sys"): @dir/kernel/mm becomes "/sys/kernel/mm".
 *
 * Records path, kind, link targets and, with @modes, the permission bits of
 * files (a stat each; without, a file's mode is 0); values are not read.
 * Links are not followed and other filesystems mounted inside are not entered.
 * Marks the sysfs part collected.  Returns 0 or -errno, reported as one line
 * naming the node where the walk stopped: a tree deeper or with longer
 * paths than the walk's limits (guest-agent/walk.h), or running out of
 * descriptors, is an error, never a tree with fewer nodes.
 */
int sysfs_dir__collect(const char *dir, const char *prefix, bool modes,
		       struct snapshot *s);

#endif /* KABIDIFF_SYSFS_DIR_H */
