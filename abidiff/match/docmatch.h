/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which Documentation/ABI entry documents each sysfs node, through the node's
 * real path or any of its alias paths through links.
 */
#ifndef KABIDIFF_DOCMATCH_H
#define KABIDIFF_DOCMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/*
 * How many links one name may pass through.  One gives the names the
 * documentation uses (/sys/class/net/eth0/mtu, /sys/bus/pci/devices/X/...),
 * as get_abi.pl's aliases do; names through two (.../eth0/device/vendor)
 * matched 7 more of 13,501 attributes on a real /sys and cost 10 times
 * the time.
 */
#define DOCMATCH_MAX_LINKS	1

/*
 * docmatch__run() - find the entry of @docs documenting each node of @tree.
 *
 * @tree's sysfs part must be in canonical order (snapshot__sort()).  Fills
 * @entry[i] for node i of @tree with the index in @docs->docs.v of the
 * entry that documents it, or -1.  When several do, the most stable level
 * wins, then the first entry in canonical order.  Returns 0 or -ENOMEM.
 */
int docmatch__run(const struct snapshot *tree, const struct snapshot *docs,
		  int32_t *entry);

/*
 * One What: line matching one node: node @node of the tree, What: @what of
 * entry @entry of the docs.  A node has a hit for every pattern of every
 * entry that matches it, not only for the entry docmatch__run() chose.
 */
struct docmatch_hit {
	int32_t node;
	int32_t entry;
	uint32_t what;
};

struct docmatch_hits {
	struct docmatch_hit *v;
	size_t nr;
	size_t alloc;
};

/*
 * docmatch__run_hits() - docmatch__run(), and every (node, entry, What:)
 * match into @hits (zeroed by the caller), sorted by node, entry and What:
 * index, without duplicates.  What a node's entry promises is kept per
 * pattern: which of an entry's What: lines still has instances.  Returns 0
 * or -ENOMEM; release @hits with docmatch_hits__release() either way.
 */
int docmatch__run_hits(const struct snapshot *tree, const struct snapshot *docs,
		       int32_t *entry, struct docmatch_hits *hits);
void docmatch_hits__release(struct docmatch_hits *hits);

/*
 * The What: patterns of a snapshot's docs compiled once, for matching
 * several trees against them (the diff matches both sides' nodes against
 * OLD's docs).  docmatch_docs__new() returns an owned object that borrows
 * @docs's entries, or NULL (ENOMEM); docmatch_docs__free(NULL) is a no-op.
 */
struct docmatch_docs;

struct docmatch_docs *docmatch_docs__new(const struct snapshot *docs);
void docmatch_docs__free(struct docmatch_docs *dd);

/*
 * docmatch_docs__run() - docmatch__run_hits() against the compiled docs
 * @dd (@hits may be NULL), which it only reads.
 */
int docmatch_docs__run(const struct docmatch_docs *dd,
		       const struct snapshot *tree, int32_t *entry,
		       struct docmatch_hits *hits);

#endif /* KABIDIFF_DOCMATCH_H */
