/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which Documentation/ABI entry documents each sysfs node, through the node's
 * real path or any of its alias paths through links.
 */
#ifndef KABIDIFF_DOCMATCH_H
#define KABIDIFF_DOCMATCH_H

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

#endif /* KABIDIFF_DOCMATCH_H */
