/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shape of a snapshot's sysfs part as a tree: each node's parent, its
 * children and, for a link, the node it points to.  Shared by the matcher
 * (docmatch.c) and the diff, which both follow links by name.
 */
#ifndef KABIDIFF_SYSFS_TREE_H
#define KABIDIFF_SYSFS_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct sysfs_tree {
	const struct sysfs_node *v;	/* borrowed from the snapshot */
	size_t nr;
	int32_t *parent;	/* index of the parent directory, or -1 */
	int32_t *first;		/* children of i: child[first[i] .. first[i+1]) */
	int32_t *child;
	int32_t *target;	/* links: index of the target, or -1 */
};

/*
 * sysfs_tree__build() - index the sysfs part of @s into @t.
 *
 * @s's sysfs part must be in canonical order (snapshot__sort()) and must
 * outlive @t.  Returns 0 or -ENOMEM; release @t with sysfs_tree__release()
 * either way.
 */
int sysfs_tree__build(struct sysfs_tree *t, const struct snapshot *s);

/* sysfs_tree__release() - free what sysfs_tree__build() allocated. */
void sysfs_tree__release(struct sysfs_tree *t);

/* sysfs_tree__find() - the node at @path (its first @len bytes), or -1. */
int32_t sysfs_tree__find(const struct sysfs_tree *t, const char *path,
			 size_t len);

/* sysfs_basename() - the last component of @path ("mtu"). */
const char *sysfs_basename(const char *path);

/*
 * sysfs_link_resolve() - the absolute path a link at @link holding @target
 * points to, with "." and ".." resolved by name (as the kernel's relative
 * sysfs links are meant).  A malloc()ed string, or NULL (ENOMEM).
 */
char *sysfs_link_resolve(const char *link, const char *target);

#endif /* KABIDIFF_SYSFS_TREE_H */
