/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walker of the record tables (snapshot-fields.h), for snapshot-json.c
 * and the hooks of its tables: load and check a JSON object into a record,
 * or build the object of a record, by its struct jrecord.  Private to the
 * model.
 */
#ifndef KABIDIFF_JSON_RECORDS_H
#define KABIDIFF_JSON_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "lib/compiler.h"
#include "snapshot-fields.h"

/*
 * Where a value sits in the document, as a chain from the value up to the
 * root, built on the stack while descending: "syscalls[3].args[0].type".
 */
struct jpath {
	const struct jpath *up;
	const char *key;	/* field or map key; NULL for an array element */
	size_t index;
	bool map_key;		/* key is data (a type name), shown quoted */
};

#define JP_FIELD(parent, name) (&(struct jpath){ .up = (parent), .key = (name) })
#define JP_INDEX(parent, i) (&(struct jpath){ .up = (parent), .index = (i) })
#define JP_MAPKEY(parent, name) \
	(&(struct jpath){ .up = (parent), .key = (name), .map_key = true })

struct loader {
	const char *file;
};

/*
 * jrecord__fail() - report that the document @ld reads is wrong at @jp
 * ("FILE: syscalls[3].nr: ..."); returns -EINVAL.
 */
int __printf(3, 4)
jrecord__fail(const struct loader *ld, const struct jpath *jp, const char *fmt, ...);

/* jrecord__type_name() - "a string", "an object", ...: what @v is. */
const char *jrecord__type_name(const json_t *v);

/* jrecord__missing_field() - report the required field @jp as missing. */
int jrecord__missing_field(const struct loader *ld, const struct jpath *jp);

/* jrecord__optional() - field @key of @obj, NULL when absent or null. */
const json_t *jrecord__optional(const json_t *obj, const char *key);

/* jrecord__want_uint() - @v as an integer 0 to @max into @out, or -EINVAL. */
int jrecord__want_uint(const struct loader *ld, const struct jpath *jp,
		       const json_t *v, uint64_t max, uint64_t *out);

/*
 * jrecord__load_object() - the object @obj at @jp into @rec by the table
 * @r, every field checked.  Returns 0 or -errno, reported.
 */
int jrecord__load_object(const struct loader *ld, const struct jpath *jp,
			 const struct jrecord *r, const json_t *obj, void *rec);

/*
 * jrecord__load_value() - the value @v of field @f (NULL when absent) at
 * @jp into record @rec.  Returns 0 or -errno, reported.
 */
int jrecord__load_value(const struct loader *ld, const struct jpath *jp,
			const struct jfield *f, const json_t *v, void *rec);

/*
 * jrecord__build() - the object for @rec, with the fields of @r that it
 * has, in table order; NULL when out of memory.
 */
json_t *jrecord__build(const struct jrecord *r, const void *rec);

#endif /* KABIDIFF_JSON_RECORDS_H */
