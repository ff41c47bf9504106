/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table of the documentation entries observed live, by the census,
 * by both and by neither, per level: what `show` and `undocumented
 * --level` print after their own (abidiff/match/observed.h counts it).
 */
#ifndef KABIDIFF_CLI_OBSERVED_H
#define KABIDIFF_CLI_OBSERVED_H

#include "match/observed.h"

/*
 * show_observed_text() - print @o on standard output: a line naming the
 * sources, then a row for each level with entries and the total, "-"
 * where a source that is not there leaves a count unknown.
 */
void show_observed_text(const struct doc_observed *o);

#endif /* KABIDIFF_CLI_OBSERVED_H */
