/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which Documentation/ABI entry documents each attribute of a census: the
 * code defines attributes, not paths, so the join has rules of its own.
 *
 * An attribute whose path the code gives (a class's or a bus's groups,
 * hwmon, module parameters) joins the entries whose What: patterns match
 * that path.  One without a path joins an entry when both
 *  - the last component of one of its What: patterns matches the
 *    attribute's name ("inY_input" matches "in0_input"; a name the code
 *    makes at run time from a template, "temp%d_offset", is taken with
 *    its number: "temp1_offset"), and
 *  - the entry and the attribute share a word of their subsystem: one of
 *    the directories of its What: patterns or a word of its file's name
 *    ("sysfs-class-hwmon": hwmon) is one of the directories or words of
 *    the file that declares the attribute, or of its module's name
 *    ("drivers/hwmon/it87.c": drivers, hwmon, it87).  Words every path
 *    has ("sys", "devices", "class", "bus", "drivers", ...) are not
 *    subsystems.
 * A join the rules cannot make is not guessed.  When several entries
 * join, the most stable wins, then the first in canonical order.
 */
#ifndef KABIDIFF_CENSUS_JOIN_H
#define KABIDIFF_CENSUS_JOIN_H

#include <stdint.h>

#include "model/model.h"

/*
 * census_join__run() - @entry[i] is the index in @docs->docs.v of the
 * entry census attribute i of @census joins, or -1.  Returns 0 or -ENOMEM.
 */
int census_join__run(const struct snapshot *census, const struct snapshot *docs,
		     int32_t *entry);

#endif /* KABIDIFF_CENSUS_JOIN_H */
