// SPDX-License-Identifier: GPL-2.0-only
/*
 * Snapshot <-> JSON, through jansson, by the field tables of snapshot-fields.h.
 *
 * Loading is strict: every field is checked for presence, type and range,
 * unknown fields are refused, and an error names the file and the place in
 * the document, so that a hand-edited or damaged baseline is caught at once
 * instead of turning into a misleading diff.  A field that may be absent may
 * also be null.  Saving writes keys in the order of the specification and
 * records in canonical order; strings go through the byte codec of jstr.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/atomic-file.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "json-arena.h"
#include "jstr.h"
#include "snapshot-fields.h"
#include "snapshot-json.h"

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

struct loader {
	const char *file;
};

static int __printf(3, 4)
bad(const struct loader *ld, const struct jpath *jp, const char *fmt, ...)
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

static const char *json_type_name(const json_t *v)
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
	return bad(ld, jp, "expected %s, found %s", expected,
		   json_type_name(v));
}

static int missing_field(const struct loader *ld, const struct jpath *jp)
{
	return bad(ld, jp->up, "missing field \"%s\"", jp->key);
}

/* A field that may be absent: NULL when absent or null. */
static const json_t *optional(const json_t *obj, const char *key)
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

			return bad(ld, jp, "unknown field %s",
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
		return missing_field(ld, jp);
	if (!json_is_string(v))
		return wrong_type(ld, jp, "a string", v);
	err = jstr__decode(v, out);
	if (err == -EINVAL)
		return bad(ld, jp, "bad byte escape or NUL in string");
	return err;
}

static int want_uint(const struct loader *ld, const struct jpath *jp,
		     const json_t *v, uint64_t max, uint64_t *out)
{
	json_int_t n;

	if (!v)
		return missing_field(ld, jp);
	if (!json_is_integer(v))
		return wrong_type(ld, jp, "an integer", v);
	n = json_integer_value(v);
	if (n < 0 || (uint64_t)n > max)
		return bad(ld, jp, "%" JSON_INTEGER_FORMAT
			   " is out of range (0 to %" PRIu64 ")", n, max);
	*out = n;
	return 0;
}

static int want_bool(const struct loader *ld, const struct jpath *jp,
		     const json_t *v, bool *out)
{
	if (!v)
		return missing_field(ld, jp);
	if (!json_is_boolean(v))
		return wrong_type(ld, jp, "a boolean", v);
	*out = json_is_true(v);
	return 0;
}

static int want_array(const struct loader *ld, const struct jpath *jp,
		      const json_t *v)
{
	if (!v)
		return missing_field(ld, jp);
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
		return missing_field(ld, jp);
	if (!json_is_string(v))
		return wrong_type(ld, jp, "a string", v);
	s = json_string_value(v);
	for (i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '7')
			break;
	if (i != 4 || s[4])
		return bad(ld, jp, "\"%s\" is not four octal digits", s);
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
	return bad(ld, f->flags & JF_REFUSED_HERE ? jp->up : jp, "%s",
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
		err = bad(ld, jp, "unknown value \"%s\"", name);
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
			return bad(ld, ejp, "%s \"%s\"", f->refused,
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

static int load_object(const struct loader *ld, const struct jpath *jp,
		       const struct jrecord *r, const json_t *obj, void *rec)
{
	int err;

	if (!obj)
		return missing_field(ld, jp);
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
			return bad(ld, jp, "bad byte escape or NUL in %s name",
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
		return missing_field(ld, jp);
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
static int load_value(const struct loader *ld, const struct jpath *jp,
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
		err = want_uint(ld, jp, v, f->max, &n);
		if (!err && n < (uint64_t)f->min)
			err = refuse(ld, jp, f);
		if (!err)
			put_uint(p, f->size, n);
		return err;
	case JF_INT:
		if (!v)
			return missing_field(ld, jp);
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
		return load_object(ld, jp, f->record, v, p);
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
		    optional(obj, g->key))
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
		return load_value(ld, fjp, f, json_object_get(obj, f->key), rec);
	v = optional(obj, f->key);
	if (!v && !(f->flags & JF_HAVE && comes_with(r, obj, f)))
		return 0;
	if (v && f->flags & JF_HAVE)
		*(bool *)((char *)rec + f->have) = true;
	return load_value(ld, fjp, f, v, rec);
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

static json_t *build_record(const struct jrecord *r, const void *rec);

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
		       build_record(f->record, v + i * size), &err);
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
		json_t *val = build_record(f->record, item);

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
		return build_record(f->record, p);
	case JF_STRINGS:
	case JF_RECORDS:
		return build_items(f, rec);
	case JF_MAP:
		return build_map(f, rec);
	}
	return NULL;
}

/* The object for @rec, with the fields of @r that it has, in table order. */
static json_t *build_record(const struct jrecord *r, const void *rec)
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

/*
 * The tables.  Around each, RECORD_TYPE is the C structure of its record, so
 * that FIELD() can find the member that holds a key's value.
 */
#define AT(member)	offsetof(RECORD_TYPE, member)
#define FIELD(key_, kind_, flags_, member, ...) {			\
	.key = key_, .kind = JF_##kind_, .flags = flags_,		\
	.offset = AT(member), .size = sizeof(((RECORD_TYPE *)0)->member), \
	__VA_ARGS__ }
#define JRECORD(name_, fields_, ...) {					\
	.name = name_, .size = sizeof(RECORD_TYPE), .fields = fields_,	\
	.nr_fields = ARRAY_SIZE(fields_), __VA_ARGS__ }

/* The model's functions, with the types the tables call them by. */
#define ADD(name, add)							\
static void *name(void *rec)						\
{									\
	return add(rec);						\
}
ADD(add_syscall, snapshot__add_syscall)
ADD(add_arg, syscall__add_arg)
ADD(add_vdso_symbol, snapshot__add_vdso_symbol)
ADD(add_vdso_arg, vdso_symbol__add_arg)
ADD(add_type, snapshot__add_type)
ADD(add_member, type__add_member)
ADD(add_enumerator, type__add_enumerator)
ADD(add_sysfs_node, snapshot__add_sysfs_node)
ADD(add_doc, snapshot__add_doc)
ADD(add_module_load, machine__add_module)

static int add_what(void *rec, const char *s)
{
	return doc_entry__add_what(rec, s);
}

static int add_syscall_abi(void *rec, const char *s)
{
	return snapshot__add_syscall_abi(rec, s);
}

#define NAMES(prefix)							\
static const char *prefix##_names(unsigned int value)			\
{									\
	return prefix##__name(value);					\
}
NAMES(type_kind)
NAMES(node_kind)
NAMES(value_shape)
NAMES(abi_level)
NAMES(module_how)

static const char *const syscall_source_names[] = {
	"table", "dwarf", "ftrace", "switch", "tbl",
};

static const char *source_names(unsigned int value)
{
	return value < ARRAY_SIZE(syscall_source_names) ?
	       syscall_source_names[value] : NULL;
}

#define RECORD_TYPE struct kernel_ident
/* A build date is a real day: the policy compares removal dates with it. */
static int load_kernel(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, void *rec)
{
	const struct kernel_ident *k = rec;

	if (k->build_date && date__parse(k->build_date, NULL))
		return bad(ld, JP_FIELD(jp, "build_date"),
			   "\"%s\" is not a date YYYY-MM-DD", k->build_date);
	return 0;
}

static const struct jfield kernel_fields[] = {
	FIELD("release", STRING, JF_OPTIONAL, release),
	FIELD("version", STRING, JF_OPTIONAL, version),
	FIELD("build_date", STRING, JF_OPTIONAL, build_date),
	FIELD("arch", STRING, JF_OPTIONAL, arch),
	FIELD("build_id", STRING, JF_OPTIONAL, build_id),
	FIELD("git", STRING, JF_OPTIONAL, git),
	FIELD("collected_by", STRING, JF_OPTIONAL, collected_by),
};
static const struct jrecord kernel_jrecord = JRECORD("kernel", kernel_fields,
						     .load = load_kernel);
#undef RECORD_TYPE

#define RECORD_TYPE struct syscall_arg
enum { AF_NAME, AF_TYPE, AF_ABI_SIZE };
static const struct jfield arg_fields[] = {
	[AF_NAME] = FIELD("name", STRING, JF_OPTIONAL, name),
	[AF_TYPE] = FIELD("type", STRING, JF_REQUIRED, type),
	/* 0 is "not recorded", which a file says by leaving it out */
	[AF_ABI_SIZE] = FIELD("abi_size", UINT, JF_OPTIONAL, abi_size, .min = 1,
			      .max = UINT32_MAX,
			      .refused = "abi_size must not be 0"),
};

static bool arg_has(const void *rec, const struct jfield *f)
{
	const struct syscall_arg *arg = rec;

	return f - arg_fields != AF_ABI_SIZE || arg->abi_size;
}

static const struct jrecord arg_jrecord = JRECORD("arg", arg_fields,
						  .has = arg_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct syscall
static const struct jfield syscall_fields[] = {
	FIELD("abi", STRING, JF_REQUIRED, abi),
	FIELD("nr", UINT, JF_REQUIRED, nr, .max = SYSCALL_NR_MAX),
	FIELD("name", STRING, JF_REQUIRED, name),
	FIELD("entry", STRING, JF_OPTIONAL, entry),
	FIELD("file", STRING, JF_OPTIONAL, file),
	FIELD("implemented", BOOL, JF_REQUIRED, implemented),
	FIELD("args", RECORDS, JF_REQUIRED, args, .nr = AT(nr_args),
	      .record = &arg_jrecord, .add = add_arg),
	FIELD("sources", FLAGS, JF_REQUIRED, sources, .names = source_names,
	      .nr_names = ARRAY_SIZE(syscall_source_names),
	      .refused = "unknown or repeated source"),
};
static const struct jrecord syscall_jrecord = JRECORD("syscall", syscall_fields);
#undef RECORD_TYPE

/* A symbol has "return" when it has a prototype, and arguments only then. */
#define RECORD_TYPE struct vdso_symbol
enum { VF_IMAGE, VF_NAME, VF_VERSION, VF_RETURN, VF_ARGS };

static const struct jfield vdso_fields[] = {
	[VF_IMAGE] = FIELD("image", STRING, JF_REQUIRED, image),
	[VF_NAME] = FIELD("name", STRING, JF_REQUIRED, name),
	[VF_VERSION] = FIELD("version", STRING, JF_OPTIONAL, version),
	[VF_RETURN] = FIELD("return", RECORD, JF_OPTIONAL, ret,
			    .record = &arg_jrecord),
	[VF_ARGS] = FIELD("args", RECORDS, JF_OPTIONAL, args, .nr = AT(nr_args),
			  .record = &arg_jrecord, .add = add_vdso_arg),
};

static bool vdso_has(const void *rec, const struct jfield *f)
{
	const struct vdso_symbol *sym = rec;

	return (f != &vdso_fields[VF_RETURN] && f != &vdso_fields[VF_ARGS]) ||
	       sym->ret.type;
}

static int load_vdso_symbol(const struct loader *ld, const struct jpath *jp,
			    const json_t *obj, void *rec)
{
	const struct vdso_symbol *sym = rec;

	if (!sym->ret.type && sym->nr_args)
		return bad(ld, jp, "arguments without a return type");
	if (sym->ret.type && sym->ret.name)
		return bad(ld, jp, "a return type has no name");
	return 0;
}

static const struct jrecord vdso_jrecord =
	JRECORD("vdso-symbol", vdso_fields, .load = load_vdso_symbol,
		.has = vdso_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct type_member
static int load_member(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, void *rec)
{
	const struct type_member *m = rec;

	if (m->bitfield && m->offset != m->bit_offset / 8)
		return bad(ld, jp, "offset must be bit_offset / 8");
	return 0;
}

static const struct jfield member_fields[] = {
	FIELD("name", STRING, JF_OPTIONAL, name),
	FIELD("type", STRING, JF_REQUIRED, type),
	FIELD("offset", UINT, JF_REQUIRED, offset, .max = TYPE_SIZE_MAX),
	FIELD("size", UINT, JF_REQUIRED, size, .max = TYPE_SIZE_MAX),
	/* a bitfield has both, any other member neither */
	FIELD("bit_offset", UINT, JF_HAVE, bit_offset, .have = AT(bitfield),
	      .max = TYPE_SIZE_MAX * 8),
	FIELD("bit_size", UINT, JF_HAVE | JF_REFUSED_HERE, bit_size,
	      .have = AT(bitfield), .min = 1, .max = 64,
	      .refused = "bit_size must not be 0"),
};
static const struct jrecord member_jrecord =
	JRECORD("member", member_fields, .load = load_member);
#undef RECORD_TYPE

#define RECORD_TYPE struct enumerator
static const struct jfield enumerator_fields[] = {
	FIELD("name", STRING, JF_REQUIRED, name),
	FIELD("value", INT, JF_REQUIRED, value, .min = INT64_MIN, .max = INT64_MAX),
};
static const struct jrecord enumerator_jrecord =
	JRECORD("enumerator", enumerator_fields);
#undef RECORD_TYPE

/* A type's fields but its kind depend on the kind, and on being complete. */
#define RECORD_TYPE struct type_def
enum {
	TF_KIND, TF_SIZE, TF_INCOMPLETE, TF_TARGET, TF_FILE, TF_MEMBERS,
	TF_ENUMERATORS
};

static const struct jfield type_fields[] = {
	[TF_KIND] = FIELD("kind", ENUM, JF_REQUIRED, kind,
			  .names = type_kind_names, .nr_names = TYPE_KIND_COUNT,
			  .max = TYPE_KIND_COUNT - 1),
	[TF_SIZE] = FIELD("size", UINT, JF_BY_HOOK, size, .max = TYPE_SIZE_MAX),
	[TF_INCOMPLETE] = FIELD("incomplete", BOOL, JF_OPTIONAL, incomplete),
	[TF_TARGET] = FIELD("target", STRING, JF_BY_HOOK, target),
	[TF_FILE] = FIELD("file", STRING, JF_OPTIONAL, file),
	[TF_MEMBERS] = FIELD("members", RECORDS, JF_BY_HOOK, members,
			     .nr = AT(nr_members), .record = &member_jrecord,
			     .add = add_member),
	[TF_ENUMERATORS] = FIELD("enumerators", RECORDS, JF_BY_HOOK, enumerators,
				 .nr = AT(nr_enumerators),
				 .record = &enumerator_jrecord,
				 .add = add_enumerator),
};

static bool type_has(const void *rec, const struct jfield *f)
{
	const struct type_def *t = rec;

	switch (f - type_fields) {
	case TF_INCOMPLETE:
		return t->incomplete;
	case TF_SIZE:
		return !t->incomplete;
	case TF_TARGET:
		return !t->incomplete && t->kind == TYPE_TYPEDEF;
	case TF_MEMBERS:
		return !t->incomplete &&
		       (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION);
	case TF_ENUMERATORS:
		return !t->incomplete && t->kind == TYPE_ENUM;
	}
	return true;
}

/* Once "kind" and "incomplete" are read: the fields they call for. */
static int load_type(const struct loader *ld, const struct jpath *jp,
		     const json_t *obj, void *rec)
{
	static const unsigned char order[] = {
		TF_SIZE, TF_MEMBERS, TF_ENUMERATORS, TF_TARGET
	};
	const struct jfield *size = &type_fields[TF_SIZE], *f;
	struct type_def *t = rec;
	bool there;
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		f = &type_fields[order[i]];
		there = optional(obj, f->key);
		if (!there && f == size && type_has(t, f))
			return missing_field(ld, JP_FIELD(jp, f->key));
		if (!there || type_has(t, f))
			continue;
		if (f == size)
			return bad(ld, jp, "an incomplete type has no %s", f->key);
		return bad(ld, jp, "a %s%s has no %s",
			   t->incomplete ? "declared-only " : "",
			   type_kind__name(t->kind), f->key);
	}
	for (f = type_fields; f < type_fields + ARRAY_SIZE(type_fields); f++) {
		if (!(f->flags & JF_BY_HOOK) || !type_has(t, f))
			continue;
		err = load_value(ld, JP_FIELD(jp, f->key), f,
				 json_object_get(obj, f->key), t);
		if (err)
			return err;
	}
	return 0;
}

static const struct jrecord type_jrecord =
	JRECORD("type", type_fields, .load = load_type, .has = type_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct node_value
static int load_node_value(const struct loader *ld, const struct jpath *jp,
			   const json_t *obj, void *rec)
{
	const struct node_value *val = rec;

	if (val->error && val->shape != SHAPE_UNREADABLE)
		return bad(ld, jp, "only an unreadable value has an error");
	return 0;
}

static const struct jfield value_fields[] = {
	FIELD("shape", ENUM, JF_REQUIRED, shape, .names = value_shape_names,
	      .nr_names = SHAPE_COUNT, .max = SHAPE_COUNT - 1),
	FIELD("error", STRING, JF_OPTIONAL, error),
	FIELD("raw", STRING, JF_OPTIONAL, raw),
};
static const struct jrecord value_jrecord =
	JRECORD("value", value_fields, .load = load_node_value);
#undef RECORD_TYPE

/* Only a link has a target, only a file a value. */
#define RECORD_TYPE struct sysfs_node
enum { NF_PATH, NF_KIND, NF_MODE, NF_TARGET, NF_VALUE };

static const struct jfield node_fields[] = {
	[NF_PATH] = FIELD("path", STRING, JF_REQUIRED, path),
	[NF_KIND] = FIELD("kind", ENUM, JF_REQUIRED, kind,
			  .names = node_kind_names, .nr_names = NODE_KIND_COUNT,
			  .max = NODE_KIND_COUNT - 1),
	[NF_MODE] = FIELD("mode", MODE, JF_REQUIRED, mode),
	[NF_TARGET] = FIELD("target", STRING, JF_BY_HOOK, target),
	[NF_VALUE] = FIELD("value", RECORD, JF_BY_HOOK, value,
			   .record = &value_jrecord),
};

static bool node_has(const void *rec, const struct jfield *f)
{
	const struct sysfs_node *n = rec;

	return f != &node_fields[NF_VALUE] || n->value.shape != SHAPE_NONE;
}

static int load_node(const struct loader *ld, const struct jpath *jp,
		     const json_t *obj, void *rec)
{
	const struct jfield *target = &node_fields[NF_TARGET];
	const struct jfield *value = &node_fields[NF_VALUE];
	const json_t *v = optional(obj, target->key);
	struct sysfs_node *n = rec;
	int err = 0;

	if (n->kind == NODE_LINK)
		err = load_value(ld, JP_FIELD(jp, target->key), target, v, n);
	else if (v)
		err = bad(ld, jp, "only a link has a target");
	v = optional(obj, value->key);
	if (!err && v && n->kind != NODE_FILE)
		err = bad(ld, jp, "only a file has a value");
	if (!err && v)
		err = load_value(ld, JP_FIELD(jp, value->key), value, v, n);
	return err;
}

static const struct jrecord node_jrecord =
	JRECORD("sysfs-node", node_fields, .load = load_node, .has = node_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct doc_entry
static const struct jfield doc_fields[] = {
	FIELD("level", ENUM, JF_REQUIRED, level, .names = abi_level_names,
	      .nr_names = LEVEL_COUNT, .max = LEVEL_REMOVED,
	      .refused = "a doc entry cannot be undocumented"),
	FIELD("file", STRING, JF_REQUIRED, file),
	FIELD("line", UINT, JF_REQUIRED, line, .min = 1, .max = DOC_LINE_MAX,
	      .refused = "lines count from 1"),
	FIELD("what", STRINGS, JF_REQUIRED, what, .nr = AT(nr_what), .min = 1,
	      .refused = "an entry needs at least one What: pattern",
	      .append = add_what),
	FIELD("date", STRING, JF_OPTIONAL, date),
	FIELD("kernel_version", STRING, JF_OPTIONAL, kernel_version),
	FIELD("contact", STRING, JF_OPTIONAL, contact),
	FIELD("users", STRING, JF_OPTIONAL, users),
	FIELD("description", STRING, JF_OPTIONAL, description),
};
static const struct jrecord doc_jrecord = JRECORD("doc", doc_fields);
#undef RECORD_TYPE

#define RECORD_TYPE struct module_load
static const struct jfield module_fields[] = {
	FIELD("name", STRING, JF_REQUIRED, name),
	FIELD("how", ENUM, JF_REQUIRED, how, .names = module_how_names,
	      .nr_names = MODULE_HOW_COUNT, .max = MODULE_HOW_COUNT - 1),
	FIELD("cause", STRING, JF_OPTIONAL, cause),
	FIELD("error", STRING, JF_OPTIONAL, error),
};
static const struct jrecord module_jrecord = JRECORD("module", module_fields);
#undef RECORD_TYPE

/* A machine without modules loaded (a kernel that has none) says nothing of them. */
#define RECORD_TYPE struct machine
enum { MF_PROFILE, MF_MODULES };
static const struct jfield machine_fields[] = {
	[MF_PROFILE] = FIELD("profile", STRING, JF_OPTIONAL, profile),
	[MF_MODULES] = FIELD("modules", RECORDS, JF_OPTIONAL, modules,
			     .nr = AT(nr_modules), .record = &module_jrecord,
			     .add = add_module_load),
};

static bool machine_has(const void *rec, const struct jfield *f)
{
	const struct machine *m = rec;

	return f != &machine_fields[MF_MODULES] || m->nr_modules;
}

static const struct jrecord machine_jrecord =
	JRECORD("machine", machine_fields, .has = machine_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct coverage
static int load_coverage(const struct loader *ld, const struct jpath *jp,
			 const json_t *obj, void *rec)
{
	const struct coverage *c = rec;

	if (c->documented > c->sysfs_nodes)
		return bad(ld, jp, "more nodes documented than there are");
	return 0;
}

static const struct jfield coverage_fields[] = {
	FIELD("sysfs_nodes", UINT, JF_REQUIRED, sysfs_nodes, .max = INT64_MAX),
	FIELD("documented", UINT, JF_REQUIRED, documented, .max = INT64_MAX),
};
static const struct jrecord coverage_jrecord =
	JRECORD("coverage", coverage_fields, .load = load_coverage);
#undef RECORD_TYPE

/* A part that is there is collected: an empty one too. */
#define RECORD_TYPE struct snapshot
#define PART(key, kind, part, add_one, ...)				\
	FIELD(key, kind, JF_HAVE, part.v, .nr = AT(part.nr),		\
	      .have = AT(part.collected), .add = add_one, __VA_ARGS__)
enum { ROOT_FORMAT, ROOT_VERSION, ROOT_KERNEL, ROOT_SYSCALL_ABIS };

static const struct jfield snapshot_fields[] = {
	[ROOT_FORMAT] = { .key = "format", .kind = JF_CONST_STRING,
			  .flags = JF_REQUIRED, .value = SNAPSHOT_FORMAT },
	[ROOT_VERSION] = { .key = "version", .kind = JF_CONST_UINT,
			   .flags = JF_REQUIRED, .min = 1,
			   .max = SNAPSHOT_VERSION },
	[ROOT_KERNEL] = FIELD("kernel", RECORD, JF_REQUIRED, kernel,
			      .record = &kernel_jrecord),
	/* absent in version 1, and written only when the list is not empty */
	[ROOT_SYSCALL_ABIS] = FIELD("syscall_abis", STRINGS, JF_OPTIONAL,
				    syscall_abis, .nr = AT(nr_syscall_abis),
				    .min = 1, .refused = "no syscall ABI listed",
				    .append = add_syscall_abi),
	PART("syscalls", RECORDS, syscalls, add_syscall,
	     .record = &syscall_jrecord),
	PART("vdso", RECORDS, vdso, add_vdso_symbol, .record = &vdso_jrecord),
	PART("types", MAP, types, add_type, .record = &type_jrecord,
	     .map_key = offsetof(struct type_def, name)),
	PART("sysfs", RECORDS, sysfs, add_sysfs_node, .record = &node_jrecord),
	PART("docs", RECORDS, docs, add_doc, .record = &doc_jrecord),
	FIELD("machine", RECORD, JF_HAVE, machine,
	      .have = AT(machine.recorded), .record = &machine_jrecord),
	FIELD("coverage", RECORD, JF_HAVE, coverage,
	      .have = AT(coverage.computed), .record = &coverage_jrecord),
};
static bool snapshot_has(const void *rec, const struct jfield *f)
{
	const struct snapshot *s = rec;

	return f != &snapshot_fields[ROOT_SYSCALL_ABIS] || s->nr_syscall_abis;
}

const struct jrecord snapshot_jrecord =
	JRECORD("snapshot", snapshot_fields, .has = snapshot_has);
#undef PART
#undef RECORD_TYPE

/* The format and version come first: they decide whether to read on. */
static int check_format(const struct loader *ld, const json_t *root)
{
	const struct jfield *format = &snapshot_fields[ROOT_FORMAT];
	const struct jfield *version = &snapshot_fields[ROOT_VERSION];
	const json_t *v;
	uint64_t n;
	int err;

	if (!json_is_object(root))
		return bad(ld, NULL, "not a kabidiff snapshot: found %s, not an object",
			   json_type_name(root));
	v = json_object_get(root, format->key);
	if (!json_is_string(v) || strcmp(json_string_value(v), format->value))
		return bad(ld, NULL, "not a kabidiff snapshot: \"%s\" is not \"%s\"",
			   format->key, format->value);
	err = want_uint(ld, JP_FIELD(NULL, version->key),
			json_object_get(root, version->key), UINT32_MAX, &n);
	if (err)
		return err;
	if (n > (uint64_t)version->max) {
		pr_err("%s: snapshot format version %" PRIu64
		       " is newer than this kabidiff reads (up to %" PRId64 "); upgrade kabidiff",
		       ld->file, n, version->max);
		return -EPROTONOSUPPORT;
	}
	if (n < (uint64_t)version->min)
		return bad(ld, JP_FIELD(NULL, version->key),
			   "version %" PRIu64 " does not exist", n);
	return 0;
}

static int load_snapshot(const struct loader *ld, const json_t *root,
			 struct snapshot *s)
{
	int err = check_format(ld, root);

	if (!err)
		err = load_object(ld, NULL, &snapshot_jrecord, root, s);
	if (!err)
		err = snapshot__sort(s, ld->file);
	return err;
}

struct snapshot *snapshot__load(const char *path)
{
	struct loader ld = { .file = path };
	struct snapshot *s = NULL;
	json_t *root = NULL;
	json_error_t jerr;
	char *buf;
	size_t len;
	int err;

	err = read_file_or_report(path, SNAPSHOT_FILE_MAX, &buf, &len);
	if (err)
		goto out;
	if (!len) {
		err = bad(&ld, NULL, "empty file, not a kabidiff snapshot");
		goto out_free_buf;
	}
	root = json_arena__loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		pr_err("%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		err = -EINVAL;
		goto out_free_arena;
	}
	s = snapshot__new();
	err = s ? load_snapshot(&ld, root, s) : -ENOMEM;
out_free_arena:
	json_arena__release(root);
out_free_buf:
	free(buf);
out:
	if (err == -ENOMEM)
		pr_err("%s: out of memory", path);
	if (err) {
		snapshot__free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

int snapshot__write(struct snapshot *s, FILE *f)
{
	json_t *root;
	int err;

	err = snapshot__sort(s, "snapshot");
	if (err)
		return err;
	root = build_record(&snapshot_jrecord, s);
	if (!root) {
		pr_err("out of memory while building the snapshot's JSON");
		return -ENOMEM;
	}
	err = json_dumpf(root, f, JSON_INDENT(2)) || fputc('\n', f) == EOF ||
	      ferror(f) ? -EIO : 0;
	json_decref(root);
	return err;
}

static int write_snapshot(FILE *f, void *s)
{
	int err = snapshot__write(s, f);

	/* atomic_write() reports its own file's errors, this one only ours */
	return err == -EIO ? 0 : err;
}

int snapshot__save(struct snapshot *s, const char *path, unsigned int flags)
{
	return atomic_write(path, flags, write_snapshot, s);
}

json_t *doc_entry__to_json(const struct doc_entry *d)
{
	return build_record(&doc_jrecord, d);
}
