// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "census-join.h"
#include "docmatch.h"
#include "observed.h"

int doc_observed__count(struct doc_observed *o, const struct snapshot *docs,
			const struct snapshot *tree, const int32_t *node_entry,
			const int32_t *attr_entry)
{
	unsigned char *seen = calloc(docs->docs.nr + 1, 1);
	size_t i;

	if (!seen)
		return -ENOMEM;
	memset(o, 0, sizeof(*o));
	o->live = node_entry;
	o->census = attr_entry;
	for (i = 0; node_entry && i < tree->sysfs.nr; i++)
		if (tree->sysfs.v[i].kind == NODE_FILE && node_entry[i] >= 0)
			seen[node_entry[i]] |= OBSERVED_LIVE;
	for (i = 0; attr_entry && i < tree->census.nr; i++)
		if (attr_entry[i] >= 0)
			seen[attr_entry[i]] |= OBSERVED_CENSUS;
	for (i = 0; i < docs->docs.nr; i++) {
		struct observed_counts *c = &o->level[docs->docs.v[i].level];

		c->entries++;
		c->by[seen[i]]++;
		o->total.entries++;
		o->total.by[seen[i]]++;
	}
	free(seen);
	return 0;
}

int doc_observed__run(struct doc_observed *o, const struct snapshot *docs,
		      const struct snapshot *tree, const int32_t *node_entry)
{
	int32_t *nodes = NULL, *attrs = NULL;
	int err = 0;

	if (tree->sysfs.collected && !node_entry) {
		nodes = calloc(tree->sysfs.nr + 1, sizeof(*nodes));
		err = nodes ? docmatch__run(tree, docs, nodes) : -ENOMEM;
		node_entry = nodes;
	}
	if (!err && tree->census.collected) {
		attrs = calloc(tree->census.nr + 1, sizeof(*attrs));
		err = attrs ? census_join__run(tree, docs, attrs) : -ENOMEM;
	}
	if (!err)
		err = doc_observed__count(o, docs, tree, node_entry, attrs);
	free(nodes);
	free(attrs);
	return err;
}

bool doc_observed__known(const struct doc_observed *o, enum observed_by by)
{
	if (by == OBSERVED_NEITHER)
		return o->live || o->census;
	return (!(by & OBSERVED_LIVE) || o->live) &&
	       (!(by & OBSERVED_CENSUS) || o->census);
}

size_t doc_observed__seen(const struct observed_counts *c)
{
	return c->entries - c->by[OBSERVED_NEITHER];
}
