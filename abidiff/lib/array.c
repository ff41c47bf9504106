// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "array.h"

#define ARRAY_FIRST_ALLOC	8

void *array__append(void **v, size_t *nr, size_t *alloc, size_t size)
{
	char *elem;

	if (*nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : ARRAY_FIRST_ALLOC;
		void *p = reallocarray(*v, n, size);

		if (!p)
			return NULL;
		*v = p;
		*alloc = n;
	}
	elem = (char *)*v + *nr * size;
	memset(elem, 0, size);
	(*nr)++;
	return elem;
}

size_t array__implied_alloc(size_t nr)
{
	size_t alloc = ARRAY_FIRST_ALLOC;

	if (!nr)
		return 0;
	while (alloc < nr)
		alloc *= 2;
	return alloc;
}
