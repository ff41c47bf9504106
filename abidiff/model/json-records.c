// SPDX-License-Identifier: GPL-2.0-only
/*
 * Any record of the snapshot's JSON form, loaded and checked or built by its
 * table (snapshot-fields.h): the walker that snapshot-json.c's tables drive.
 *
 * Loading is strict: every field is checked for presence, type and range,
 * unknown fields are refused, and an error names the file and the place in
 * the document.  A field that may be absent may also be null.  Building
 * writes keys in the order of the table; strings go through the byte codec
 * of jstr.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "json-records.h"
#include "jstr.h"

static size_t jpath_format(const struct jpath *jp, char *buf, size_t size)
{
	size_t len;
	char q[128];

	if (!jp)
		return 0;
	len = jpath_format(jp->up, buf, size);
	if (len >= size)
		return len;
	if (jp->map_key)
		len += snprintf(buf + len, size - len, "[%s]",
				quote_buf(q, sizeof(q), jp->key));
	else if (jp->key)
		len += snprintf(buf + len, size - len, "%s%s",
				jp->up ? "." : "", jp->key);
	else
		len += snprintf(buf + len, size - len, "[%zu]", jp->index);
	return len;
}

int __printf(3, 4)
jrecord__fail(const struct loader *ld, const struct jpath *jp, const char *fmt, ...)
{
	char where[512] = "", *msg;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	jpath_format(jp, where, sizeof(where));
	pr_err("%s: %s%s%s", ld->file, where, where[0] ? ": " : "",
	       msg ? msg : fmt);
	free(msg);
	return -EINVAL;
}

const char *jrecord__type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

static int wrong_type(const struct loader *ld, const struct jpath *jp,
		      const char *expected, const json_t *v)
{
	return jrecord__fail(ld, jp, "expected %s, found %s", expected,
		   jrecord__type_name(v));
}

int jrecord__missing_field(const struct loader *ld, const struct jpath *jp)
{
	return jrecord__fail(ld, jp->up, "missing field \"%s\"", jp->key);
}

/* A field that may be absent: NULL when absent or null. */
const json_t *jrecord__optional(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_null(v) ? NULL : v;
}

static const struct jfield *find_field(const struct jrecord *r, const char *key)
{
	const struct jfield *f;

	for (f = r->fields; f < r->fields + r->nr_fields; f++)
		if (!strcmp(f->key, key))
			return f;
	return NULL;
}

/* @obj must be an object whose keys are all fields of @r. */
static int want_object(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, const struct jrecord *r)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return wrong_type(ld, jp, "an object", obj);
	json_object_foreach((json_t *)obj, key, v) {
		if (!find_field(r, key)) {
			char q[128];

			return jrecord__fail(ld, jp, "unknown field %s",
				   quote_buf(q, sizeof(q), key));
		}
	}
	return 0;
}

static int want_string(const struct loader *ld, const struct jpath *jp,
		       const json_t *v, char **out)
{
	int err;

	if (!v)
		return jrecord__missing_field(ld, jp);
	if (!json_is_string(v))
		return wrong_type(ld, jp, "a string", v);
	err = jstr__decode(v, out);
	if (err == -EINVAL)
		return jrecord__fail(ld, jp, "bad byte escape or NUL in string");
	return err;
}

int jrecord__want_uint(const struct loader *ld, const struct jpath *jp,
		     const json_t *v, uint64_t max, uint64_t *out)
{
	json_int_t n;

	if (!v)
		return jrecord__missing_field(ld, jp);
	if (!json_is_integer(v))
		return wrong_type(ld, jp, "an integer", v);
	n = json_integer_value(v);
	if (n < 0 || (uint64_t)n > max)
		return jrecord__fail(ld, jp, "%" JSON_INTEGER_FORMAT
			   " is out of range (0 to %" PRIu64 ")", n, max);
	*out = n;
	return 0;
}

static int want_bool(const struct loader *ld, const struct jpath *jp,
		     const json_t *v, bool *out)
{
	if (!v)
		return jrecord__missing_field(ld, jp);
	if (!json_is_boolean(v))
		return wrong_type(ld, jp, "a boolean", v);
	*out = json_is_true(v);
	return 0;
}

static int want_array(const struct loader *ld, const struct jpath *jp,
		      const json_t *v)
{
	if (!v)
		return jrecord__missing_field(ld, jp);
	if (!json_is_array(v))
		return wrong_type(ld, jp, "an array", v);
	return 0;
}

/* "0644": exactly four octal digits. */
static int load_mode(const struct loader *ld, const struct jpath *jp,
		     const json_t *v, unsigned int *mode)
{
	const char *s;
	int i;

	if (!v)
		return jrecord__missing_field(ld, jp);
	if (!json_is_string(v))
		return wrong_type(ld, jp, "a string", v);
	s = json_string_value(v);
	for (i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '7')
			break;
	if (i != 4 || s[4])
		return jrecord__fail(ld, jp, "\"%s\" is not four octal digits", s);
	*mode = strtoul(s, NULL, 8);
	return 0;
}

/* Integers of 4 or 8 bytes (enums are 4), wherever a table says they are. */
static void put_uint(void *p, size_t size, uint64_t n)
{
	if (size == sizeof(uint32_t))
		*(uint32_t *)p = n;
	else
		*(uint64_t *)p = n;
}

static uint64_t get_uint(const void *p, size_t size)
{
	return size == sizeof(uint32_t) ? *(const uint32_t *)p : *(const uint64_t *)p;
}

/* A value that the model can hold and @f refuses, in the field's words. */
static int refuse(const struct loader *ld, const struct jpath *jp,
		  const struct jfield *f)
{
	return jrecord__fail(ld, f->flags & JF_REFUSED_HERE ? jp->up : jp, "%s",
		   f->refused);
}

/* A string naming a value of an enum. */
static int load_enum(const struct loader *ld, const struct jpath *jp,
		     const struct jfield *f, const json_t *v, void *p)
{
	char *name = NULL;
	unsigned int i = 0;
	int err = want_string(ld, jp, v, &name);

	for (; !err && i < f->nr_names; i++)
		if (f->names(i) && !strcmp(f->names(i), name))
			break;
	if (!err && i == f->nr_names)
		err = jrecord__fail(ld, jp, "unknown value \"%s\"", name);
	else if (!err && i > f->max)
		err = refuse(ld, jp, f);
	free(name);
	if (!err)
		put_uint(p, f->size, i);
	return err;
}

/* An array of names, each of one bit, each once. */
static int load_flags(const struct loader *ld, const struct jpath *jp,
		      const struct jfield *f, const json_t *arr,
		      unsigned int *bits)
{
	size_t i, n;
	int err = want_array(ld, jp, arr);

	for (i = 0; !err && i < json_array_size(arr); i++) {
		const struct jpath *ejp = JP_INDEX(jp, i);
		const json_t *v = json_array_get(arr, i);

		if (!json_is_string(v))
			return wrong_type(ld, ejp, "a string", v);
		for (n = 0; n < f->nr_names; n++)
			if (!strcmp(json_string_value(v), f->names(n)))
				break;
		if (n == f->nr_names || (*bits & 1u << n))
			return jrecord__fail(ld, ejp, "%s \"%s\"", f->refused,
				   json_string_value(v));
		*bits |= 1u << n;
	}
	return err;
}

static int load_strings(const struct loader *ld, const struct jpath *jp,
			const struct jfield *f, const json_t *arr, void *rec)
{
	size_t i;
	int err = want_array(ld, jp, arr);

	if (!err && json_array_size(arr) < (size_t)f->min)
		return refuse(ld, jp, f);
	for (i = 0; !err && i < json_array_size(arr); i++) {
		char *s;

		err = want_string(ld, JP_INDEX(jp, i), json_array_get(arr, i),
				  &s);
		if (err)
			break;
		err = f->append(rec, s);
		free(s);
	}
	return err;
}

static int load_fields(const struct loader *ld, const struct jpath *jp,
		       const struct jrecord *r, const json_t *obj, void *rec);

int jrecord__load_object(const struct loader *ld, const struct jpath *jp,
		       const struct jrecord *r, const json_t *obj, void *rec)
{
	int err;

	if (!obj)
		return jrecord__missing_field(ld, jp);
	err = want_object(ld, jp, obj, r);
	return err ? err : load_fields(ld, jp, r, obj, rec);
}

/* An element of the array or map @f of @parent: a map's has a @key. */
static int load_item(const struct loader *ld, const struct jpath *jp,
		     const struct jfield *f, const json_t *obj, void *parent,
		     const char *key, size_t key_len)
{
	char *item;
	int err = want_object(ld, jp, obj, f->record);

	if (err)
		return err;
	item = f->add(parent);
	if (!item)
		return -ENOMEM;
	if (key) {
		err = jstr__decode_buf(key, key_len, (char **)(item + f->map_key));
		if (err == -EINVAL)
			return jrecord__fail(ld, jp, "bad byte escape or NUL in %s name",
				   f->record->name);
		if (err)
			return err;
	}
	return load_fields(ld, jp, f->record, obj, item);
}

static int load_records(const struct loader *ld, const struct jpath *jp,
			const struct jfield *f, const json_t *arr, void *rec)
{
	size_t i;
	int err = want_array(ld, jp, arr);

	for (i = 0; !err && i < json_array_size(arr); i++)
		err = load_item(ld, JP_INDEX(jp, i), f, json_array_get(arr, i),
				rec, NULL, 0);
	return err;
}

static int load_map(const struct loader *ld, const struct jpath *jp,
		    const struct jfield *f, const json_t *obj, void *rec)
{
	const char *key;
	size_t key_len;
	json_t *v;
	int err;

	if (!obj)
		return jrecord__missing_field(ld, jp);
	if (!json_is_object(obj))
		return wrong_type(ld, jp, "an object", obj);
	json_object_keylen_foreach((json_t *)obj, key, key_len, v) {
		err = load_item(ld, JP_MAPKEY(jp, key), f, v, rec, key, key_len);
		if (err)
			return err;
	}
	return 0;
}

/* The value @v of field @f (NULL when absent) at @jp into record @rec. */
int jrecord__load_value(const struct loader *ld, const struct jpath *jp,
		      const struct jfield *f, const json_t *v, void *rec)
{
	void *p = (char *)rec + f->offset;
	uint64_t n;
	int err;

	switch (f->kind) {
	case JF_CONST_STRING:
	case JF_CONST_UINT:
		break;		/* check_format() read them */
	case JF_STRING:
		return want_string(ld, jp, v, p);
	case JF_UINT:
		err = jrecord__want_uint(ld, jp, v, f->max, &n);
		if (!err && n < (uint64_t)f->min)
			err = refuse(ld, jp, f);
		if (!err)
			put_uint(p, f->size, n);
		return err;
	case JF_INT:
		if (!v)
			return jrecord__missing_field(ld, jp);
		if (!json_is_integer(v))
			return wrong_type(ld, jp, "an integer", v);
		*(int64_t *)p = json_integer_value(v);
		break;
	case JF_BOOL:
		return want_bool(ld, jp, v, p);
	case JF_ENUM:
		return load_enum(ld, jp, f, v, p);
	case JF_FLAGS:
		return load_flags(ld, jp, f, v, p);
	case JF_MODE:
		return load_mode(ld, jp, v, p);
	case JF_STRINGS:
		return load_strings(ld, jp, f, v, rec);
	case JF_RECORD:
		return jrecord__load_object(ld, jp, f->record, v, p);
	case JF_RECORDS:
		return load_records(ld, jp, f, v, rec);
	case JF_MAP:
		return load_map(ld, jp, f, v, rec);
	}
	return 0;
}

/* Whether a field that comes with @f (JF_HAVE, the same .have) is there. */
static bool comes_with(const struct jrecord *r, const json_t *obj,
		       const struct jfield *f)
{
	const struct jfield *g;

	for (g = r->fields; g < r->fields + r->nr_fields; g++)
		if (g != f && g->flags & JF_HAVE && g->have == f->have &&
		    jrecord__optional(obj, g->key))
			return true;
	return false;
}

/* Field @f of record @r from @obj at @jp into @rec. */
static int load_field(const struct loader *ld, const struct jpath *jp,
		      const struct jrecord *r, const json_t *obj,
		      const struct jfield *f, void *rec)
{
	const struct jpath *fjp = JP_FIELD(jp, f->key);
	const json_t *v;

	if (f->flags & JF_REQUIRED)
		return jrecord__load_value(ld, fjp, f, json_object_get(obj, f->key), rec);
	v = jrecord__optional(obj, f->key);
	if (!v && !(f->flags & JF_HAVE && comes_with(r, obj, f)))
		return 0;
	if (v && f->flags & JF_HAVE)
		*(bool *)((char *)rec + f->have) = true;
	return jrecord__load_value(ld, fjp, f, v, rec);
}

static bool holds_records(const struct jfield *f)
{
	return f->kind == JF_RECORD || f->kind == JF_RECORDS || f->kind == JF_MAP;
}

/*
 * The fields of @r from @obj into @rec, in table order, but the fields that
 * hold records after the others: a record's own values are checked before
 * the records in it.  Then the record's hook.
 */
static int load_fields(const struct loader *ld, const struct jpath *jp,
		       const struct jrecord *r, const json_t *obj, void *rec)
{
	const struct jfield *f;
	int inner, err = 0;

	for (inner = 0; inner < 2; inner++)
		for (f = r->fields; !err && f < r->fields + r->nr_fields; f++)
			if (!(f->flags & JF_BY_HOOK) && holds_records(f) == inner)
				err = load_field(ld, jp, r, obj, f, rec);
	if (!err && r->load)
		err = r->load(ld, jp, obj, rec);
	return err;
}

/*
 * Building the document.  Every builder returns a new reference or NULL when
 * memory runs out; set() takes over @v and remembers failure in *@err, so a
 * builder can add all its fields and check once at the end.
 */
static void set(json_t *obj, const char *key, json_t *v, int *err)
{
	if (!v || !obj || json_object_set_new_nocheck(obj, key, v))
		*err = -ENOMEM;
}

static void append(json_t *arr, json_t *v, int *err)
{
	if (json_array_append_new(arr, v))
		*err = -ENOMEM;
}

static json_t *finish(json_t *obj, int err)
{
	if (err) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}


/* The array or map of field @f in @rec: its first element, and how many. */
static const char *items_of(const struct jfield *f, const void *rec, size_t *nr)
{
	const char *v;

	memcpy(&v, (const char *)rec + f->offset, sizeof(v));
	*nr = *(const size_t *)((const char *)rec + f->nr);
	return v;
}

static json_t *build_items(const struct jfield *f, const void *rec)
{
	size_t i, nr, size = f->kind == JF_STRINGS ? sizeof(char *) : f->record->size;
	const char *v = items_of(f, rec, &nr);
	json_t *arr = json_array();
	int err = 0;

	for (i = 0; !err && i < nr; i++)
		append(arr, f->kind == JF_STRINGS ?
		       jstr__new(*(char *const *)(v + i * size)) :
		       jrecord__build(f->record, v + i * size), &err);
	return finish(arr, err);
}

static json_t *build_map(const struct jfield *f, const void *rec)
{
	size_t i, nr, len;
	const char *v = items_of(f, rec, &nr);
	json_t *obj = json_object();
	int err = 0;

	for (i = 0; obj && !err && i < nr; i++) {
		const char *item = v + i * f->record->size;
		char *key = jstr__encode(*(char *const *)(item + f->map_key), &len);
		json_t *val = jrecord__build(f->record, item);

		if (!key || !val) {
			json_decref(val);
			err = -ENOMEM;
		} else if (json_object_setn_new_nocheck(obj, key, len, val)) {
			err = -ENOMEM;
		}
		free(key);
	}
	return finish(obj, err);
}

static json_t *build_flags(const struct jfield *f, unsigned int bits)
{
	json_t *arr = json_array();
	unsigned int n;
	int err = 0;

	for (n = 0; n < f->nr_names; n++)
		if (bits & 1u << n)
			append(arr, json_string(f->names(n)), &err);
	return finish(arr, err);
}

static json_t *build_value(const struct jfield *f, const void *rec)
{
	const void *p = (const char *)rec + f->offset;
	char mode[8];

	switch (f->kind) {
	case JF_CONST_STRING:
		return json_string(f->value);
	case JF_CONST_UINT:
		return json_integer(f->max);
	case JF_STRING:
		return jstr__new(*(char *const *)p);
	case JF_UINT:
		return json_integer(get_uint(p, f->size));
	case JF_INT:
		return json_integer(*(const int64_t *)p);
	case JF_BOOL:
		return json_boolean(*(const bool *)p);
	case JF_ENUM:
		return json_string(f->names(get_uint(p, f->size)));
	case JF_FLAGS:
		return build_flags(f, *(const unsigned int *)p);
	case JF_MODE:
		snprintf(mode, sizeof(mode), "%04o", *(const unsigned int *)p & 07777);
		return json_string(mode);
	case JF_RECORD:
		return jrecord__build(f->record, p);
	case JF_STRINGS:
	case JF_RECORDS:
		return build_items(f, rec);
	case JF_MAP:
		return build_map(f, rec);
	}
	return NULL;
}

/* The object for @rec, with the fields of @r that it has, in table order. */
json_t *jrecord__build(const struct jrecord *r, const void *rec)
{
	const struct jfield *f;
	json_t *obj = json_object();
	int err = 0;

	for (f = r->fields; f < r->fields + r->nr_fields; f++) {
		if (f->flags & JF_HAVE && !*(const bool *)((const char *)rec + f->have))
			continue;
		if (r->has && !r->has(rec, f))
			continue;
		if (f->kind == JF_STRING &&
		    !*(char *const *)((const char *)rec + f->offset))
			continue;
		set(obj, f->key, build_value(f, rec), &err);
	}
	return finish(obj, err);
}
