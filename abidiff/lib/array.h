/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Growing arrays of plain structures, as the model and the indexes keep them.
 */
#ifndef KABIDIFF_ARRAY_H
#define KABIDIFF_ARRAY_H

#include <stddef.h>
#include <stdint.h>

/*
 * array__append() - append one zeroed element of @size bytes to the array
 * *@v of *@nr elements with room for *@alloc, growing it geometrically (8,
 * 16, 32, ...).  Returns the new element, or NULL (ENOMEM) with the array
 * unchanged.
 */
void *array__append(void **v, size_t *nr, size_t *alloc, size_t size);

/*
 * array__implied_alloc() - the room array__append() gave an array of @nr
 * elements, for arrays that keep no capacity field to stay small.
 */
size_t array__implied_alloc(size_t nr);

/*
 * array__find_name() - the index of the record of @base (@nr records of
 * @size bytes, sorted by the string at @name_offset, byte by byte, a NULL
 * one first) whose string is the @len bytes at @key, or -1.
 */
int32_t array__find_name(const void *base, size_t nr, size_t size,
			 size_t name_offset, const char *key, size_t len);

/*
 * strings__append() - append a copy of @s to the array of strings *@v, of
 * *@nr of them and no capacity field.  Returns 0 or -ENOMEM, the array
 * unchanged.
 */
int strings__append(char ***v, size_t *nr, const char *s);

/* strings__free() - free the @nr strings of @v, and @v. */
void strings__free(char **v, size_t nr);

#define ARRAY_APPEND(v, nr, alloc) \
	array__append((void **)&(v), &(nr), &(alloc), sizeof(*(v)))

/* Append to an array with no capacity field: its count implies it. */
#define ARRAY_APPEND_ITEM(v, nr) ({				\
	size_t alloc__ = array__implied_alloc(nr);		\
	ARRAY_APPEND(v, nr, alloc__);				\
})

#endif /* KABIDIFF_ARRAY_H */
