// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
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

int32_t array__find_name(const void *base, size_t nr, size_t size,
			 size_t name_offset, const char *key, size_t len)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *rec = (const char *)base + mid * size;
		const char *name = *(const char *const *)(rec + name_offset);
		int c = name ? strncmp(name, key, len) : -1;

		if (!c && name[len])
			c = 1;
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int strings__append(char ***v, size_t *nr, const char *s)
{
	char *copy = strdup(s), **slot;

	if (!copy)
		return -ENOMEM;
	slot = ARRAY_APPEND_ITEM(*v, *nr);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	return 0;
}

void strings__free(char **v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}
