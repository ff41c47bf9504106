/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fields of a snapshot's JSON form, as data.
 *
 * Each kind of JSON object in docs/snapshot-format.md is a record type, a
 * struct jrecord: its fields in the order the specification gives them, each
 * a struct jfield that names the key, says what kind of value it holds and
 * where it goes in the C structure of model.h.  snapshot-json.c loads, checks
 * and writes snapshots by walking these tables, so that each key is spelled
 * once in C; tests/unit/test-snapshot-json.c checks them against
 * docs/snapshot.schema.json.  What a table cannot say (which fields a type of
 * each kind has, for one) a record says in its hooks.
 */
#ifndef KABIDIFF_SNAPSHOT_FIELDS_H
#define KABIDIFF_SNAPSHOT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum jfield_kind {
	JF_CONST_STRING,	/* always .value; read before anything else */
	JF_CONST_UINT,		/* .max written; read before anything else */
	JF_STRING,		/* char *, a byte string (jstr.h); NULL is absent */
	JF_UINT,		/* an unsigned integer of .size bytes, .min to .max */
	JF_INT,			/* int64_t: any integer JSON has, .min to .max */
	JF_BOOL,		/* bool */
	JF_ENUM,		/* an enum of .size bytes, named by .names */
	JF_FLAGS,		/* unsigned int: an array of the .names of its bits */
	JF_MODE,		/* unsigned int permission bits: "0644" */
	JF_STRINGS,		/* char **, .nr of them: an array of byte strings */
	JF_RECORD,		/* a struct of type .record */
	JF_RECORDS,		/* .nr structs of type .record: an array */
	JF_MAP,			/* the same as an object keyed by their .map_key */
};

/* jfield.flags */
#define JF_OPTIONAL	0u
#define JF_REQUIRED	(1u << 0)	/* present and not null */
#define JF_HAVE		(1u << 1)	/* present when the bool at .have is set */
#define JF_BY_HOOK	(1u << 2)	/* loaded by the record's load() hook */
#define JF_REFUSED_HERE	(1u << 3)	/* .refused is said of the record */

struct loader;
struct jpath;
struct jrecord;

struct jfield {
	const char *key;
	enum jfield_kind kind;
	unsigned int flags;
	size_t offset;		/* of the value in the C structure */
	size_t size;		/* of the value */
	size_t nr;		/* JF_STRINGS, JF_RECORDS, JF_MAP: of the size_t count */
	/*
	 * JF_HAVE: of a bool that says whether the field is there.  Loading
	 * sets it; fields that share it come together or not at all.
	 */
	size_t have;
	size_t map_key;		/* JF_MAP: of each record's char * name */
	/*
	 * JF_UINT: the range; below .min is refused with .refused.  JF_ENUM:
	 * .max is the last value a file may hold, a later value that .names
	 * knows is refused.  JF_STRINGS: .min is the fewest items, fewer are
	 * refused.  JF_CONST_UINT: .max is the constant written, and what
	 * a file holds is read from .min to .max.
	 */
	int64_t min, max;
	const char *refused;	/* JF_FLAGS: said of an unknown or repeated name */
	/* JF_ENUM, JF_FLAGS: the name of each value below .nr_names, or NULL */
	const char *(*names)(unsigned int value);
	unsigned int nr_names;
	const char *value;	/* JF_CONST_STRING */
	const struct jrecord *record;	/* JF_RECORD, JF_RECORDS, JF_MAP */
	/* JF_RECORDS, JF_MAP: append a zeroed record to the array in @rec */
	void *(*add)(void *rec);
	/* JF_STRINGS: append a copy of @s to the array in @rec; 0 or -ENOMEM */
	int (*append)(void *rec, const char *s);
};

struct jrecord {
	const char *name;	/* as the schema's $defs has it */
	size_t size;		/* of the C structure */
	const struct jfield *fields;
	size_t nr_fields;
	/*
	 * Called once the fields of the table are loaded, for the JF_BY_HOOK
	 * fields and the rules that join fields: 0 or -errno, reported.
	 */
	int (*load)(const struct loader *ld, const struct jpath *jp,
		    const json_t *obj, void *rec);
	/* When writing: whether @rec has field @f (NULL: every field does). */
	bool (*has)(const void *rec, const struct jfield *f);
};

/* The document: struct snapshot, from which every other record is reached. */
extern const struct jrecord snapshot_jrecord;

#endif /* KABIDIFF_SNAPSHOT_FIELDS_H */
