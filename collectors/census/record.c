// SPDX-License-Identifier: GPL-2.0-only
/* The census's records, made whole from borrowed strings. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"

static char *copy(const char *s, bool *failed)
{
	char *out = s ? strdup(s) : NULL;

	*failed |= s && !out;
	return out;
}

struct census_attr *census_add_attr(struct census *c,
				    const struct census_attr *from)
{
	struct census_attr *a = snapshot__add_census_attr(c->s);
	bool failed = false;

	if (!a)
		return NULL;
	*a = *from;
	a->module = copy(from->module, &failed);
	a->file = copy(from->file, &failed);
	a->symbol = copy(from->symbol, &failed);
	a->name = copy(from->name, &failed);
	a->type = copy(from->type, &failed);
	a->group = copy(from->group, &failed);
	a->path = copy(from->path, &failed);
	return failed ? NULL : a;
}
