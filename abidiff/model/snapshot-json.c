// SPDX-License-Identifier: GPL-2.0-only
/*
 * Snapshot <-> JSON, through jansson.
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
#include "jstr.h"
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
	char where[512] = "", msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jpath_format(jp, where, sizeof(where));
	if (where[0])
		pr_err("%s: %s: %s", ld->file, where, msg);
	else
		pr_err("%s: %s", ld->file, msg);
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

/* @obj must be an object whose keys are all in the NULL-terminated @fields. */
static int want_object(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, const char *const *fields)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return wrong_type(ld, jp, "an object", obj);
	json_object_foreach((json_t *)obj, key, v) {
		const char *const *f;

		for (f = fields; *f && strcmp(*f, key); f++)
			;
		if (!*f) {
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

static int opt_string(const struct loader *ld, const struct jpath *jp,
		      const json_t *obj, char **out)
{
	const json_t *v = optional(obj, jp->key);

	return v ? want_string(ld, jp, v, out) : 0;
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

/* A string naming a value of an enum, looked up by @parse. */
#define want_name(ld, jp, v, parse, out) ({				\
	char *name__ = NULL;						\
	int err__ = want_string(ld, jp, v, &name__);			\
									\
	if (!err__ && parse(name__, out))				\
		err__ = bad(ld, jp, "unknown value \"%s\"", name__);	\
	free(name__);							\
	err__;								\
})

static const char *const kernel_fields[] = {
	"release", "version", "arch", "build_id", "git", "collected_by", NULL
};

static int load_kernel(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, struct kernel_ident *k)
{
	int err;

	if (!obj)
		return missing_field(ld, jp);
	err = want_object(ld, jp, obj, kernel_fields);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "release"), obj, &k->release);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "version"), obj, &k->version);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "arch"), obj, &k->arch);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "build_id"), obj, &k->build_id);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "git"), obj, &k->git);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "collected_by"), obj,
				 &k->collected_by);
	return err;
}

static const char *const syscall_source_names[] = { "table", "dwarf", "ftrace" };

static int load_sources(const struct loader *ld, const struct jpath *jp,
			const json_t *arr, unsigned int *sources)
{
	size_t i, n;
	int err = want_array(ld, jp, arr);

	for (i = 0; !err && i < json_array_size(arr); i++) {
		const struct jpath *ejp = JP_INDEX(jp, i);
		const json_t *v = json_array_get(arr, i);

		if (!json_is_string(v))
			return wrong_type(ld, ejp, "a string", v);
		for (n = 0; n < ARRAY_SIZE(syscall_source_names); n++)
			if (!strcmp(json_string_value(v), syscall_source_names[n]))
				break;
		if (n == ARRAY_SIZE(syscall_source_names) || (*sources & 1u << n))
			return bad(ld, ejp, "unknown or repeated source \"%s\"",
				   json_string_value(v));
		*sources |= 1u << n;
	}
	return err;
}

static const char *const arg_fields[] = { "name", "type", NULL };

static int load_arg(const struct loader *ld, const struct jpath *jp,
		    const json_t *obj, struct syscall *sc)
{
	struct syscall_arg *arg;
	int err;

	err = want_object(ld, jp, obj, arg_fields);
	if (err)
		return err;
	arg = syscall__add_arg(sc);
	if (!arg)
		return -ENOMEM;
	err = opt_string(ld, JP_FIELD(jp, "name"), obj, &arg->name);
	if (!err)
		err = want_string(ld, JP_FIELD(jp, "type"),
				  json_object_get(obj, "type"), &arg->type);
	return err;
}

static const char *const syscall_fields[] = {
	"abi", "nr", "name", "entry", "implemented", "args", "sources", NULL
};

static int load_syscall(const struct loader *ld, const struct jpath *jp,
			const json_t *obj, struct snapshot *s)
{
	const json_t *args;
	struct syscall *sc;
	uint64_t nr;
	size_t i;
	int err;

	err = want_object(ld, jp, obj, syscall_fields);
	if (err)
		return err;
	sc = snapshot__add_syscall(s);
	if (!sc)
		return -ENOMEM;
	err = want_string(ld, JP_FIELD(jp, "abi"), json_object_get(obj, "abi"),
			  &sc->abi);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "nr"),
				json_object_get(obj, "nr"), SYSCALL_NR_MAX, &nr);
	if (err)
		return err;
	sc->nr = nr;
	err = want_string(ld, JP_FIELD(jp, "name"),
			  json_object_get(obj, "name"), &sc->name);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "entry"), obj, &sc->entry);
	if (!err)
		err = want_bool(ld, JP_FIELD(jp, "implemented"),
				json_object_get(obj, "implemented"),
				&sc->implemented);
	if (!err)
		err = load_sources(ld, JP_FIELD(jp, "sources"),
				   json_object_get(obj, "sources"),
				   &sc->sources);
	args = json_object_get(obj, "args");
	if (!err)
		err = want_array(ld, JP_FIELD(jp, "args"), args);
	for (i = 0; !err && i < json_array_size(args); i++)
		err = load_arg(ld, JP_INDEX(JP_FIELD(jp, "args"), i),
			       json_array_get(args, i), sc);
	return err;
}

static const char *const member_fields[] = {
	"name", "type", "offset", "size", "bit_offset", "bit_size", NULL
};

static int load_bitfield(const struct loader *ld, const struct jpath *jp,
			 const json_t *obj, struct type_member *m)
{
	const json_t *bit_offset = optional(obj, "bit_offset");
	const json_t *bit_size = optional(obj, "bit_size");
	uint64_t bits;
	int err;

	if (!bit_offset && !bit_size)
		return 0;
	m->bitfield = true;
	err = want_uint(ld, JP_FIELD(jp, "bit_offset"), bit_offset,
			TYPE_SIZE_MAX * 8, &m->bit_offset);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "bit_size"), bit_size, 64,
				&bits);
	if (err)
		return err;
	m->bit_size = bits;
	if (!bits)
		return bad(ld, jp, "bit_size must not be 0");
	if (m->offset != m->bit_offset / 8)
		return bad(ld, jp, "offset must be bit_offset / 8");
	return 0;
}

static int load_member(const struct loader *ld, const struct jpath *jp,
		       const json_t *obj, struct type_def *t)
{
	struct type_member *m;
	int err;

	err = want_object(ld, jp, obj, member_fields);
	if (err)
		return err;
	m = type__add_member(t);
	if (!m)
		return -ENOMEM;
	err = opt_string(ld, JP_FIELD(jp, "name"), obj, &m->name);
	if (!err)
		err = want_string(ld, JP_FIELD(jp, "type"),
				  json_object_get(obj, "type"), &m->type);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "offset"),
				json_object_get(obj, "offset"), TYPE_SIZE_MAX,
				&m->offset);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "size"),
				json_object_get(obj, "size"), TYPE_SIZE_MAX,
				&m->size);
	if (!err)
		err = load_bitfield(ld, jp, obj, m);
	return err;
}

static const char *const enumerator_fields[] = { "name", "value", NULL };

static int load_enumerator(const struct loader *ld, const struct jpath *jp,
			   const json_t *obj, struct type_def *t)
{
	const json_t *value = json_object_get(obj, "value");
	struct enumerator *e;
	int err;

	err = want_object(ld, jp, obj, enumerator_fields);
	if (err)
		return err;
	e = type__add_enumerator(t);
	if (!e)
		return -ENOMEM;
	err = want_string(ld, JP_FIELD(jp, "name"),
			  json_object_get(obj, "name"), &e->name);
	if (err)
		return err;
	if (!value)
		return missing_field(ld, JP_FIELD(jp, "value"));
	if (!json_is_integer(value))
		return wrong_type(ld, JP_FIELD(jp, "value"), "an integer", value);
	e->value = json_integer_value(value);
	return 0;
}

/* Load the array field @key of @obj, one element at a time with @load_one. */
static int load_items(const struct loader *ld, const struct jpath *jp,
		      const json_t *obj, const char *key,
		      int (*load_one)(const struct loader *ld,
				      const struct jpath *jp,
				      const json_t *item, struct type_def *t),
		      struct type_def *t)
{
	const struct jpath *ajp = JP_FIELD(jp, key);
	const json_t *arr = json_object_get(obj, key);
	size_t i;
	int err = want_array(ld, ajp, arr);

	for (i = 0; !err && i < json_array_size(arr); i++)
		err = load_one(ld, JP_INDEX(ajp, i), json_array_get(arr, i), t);
	return err;
}

static const char *const type_fields[] = {
	"kind", "size", "incomplete", "target", "members", "enumerators", NULL
};

/* Which fields a type of each kind has besides "kind". */
static int check_type_fields(const struct loader *ld, const struct jpath *jp,
			     const json_t *obj, const struct type_def *t)
{
	bool aggregate = t->kind == TYPE_STRUCT || t->kind == TYPE_UNION;
	const char *kind = type_kind__name(t->kind);

	if (t->incomplete && optional(obj, "size"))
		return bad(ld, jp, "an incomplete type has no size");
	if (!t->incomplete && !optional(obj, "size"))
		return missing_field(ld, JP_FIELD(jp, "size"));
	if ((t->incomplete || !aggregate) && optional(obj, "members"))
		return bad(ld, jp, "a %s%s has no members",
			   t->incomplete ? "declared-only " : "", kind);
	if ((t->incomplete || t->kind != TYPE_ENUM) &&
	    optional(obj, "enumerators"))
		return bad(ld, jp, "a %s%s has no enumerators",
			   t->incomplete ? "declared-only " : "", kind);
	if ((t->incomplete || t->kind != TYPE_TYPEDEF) && optional(obj, "target"))
		return bad(ld, jp, "a %s%s has no target",
			   t->incomplete ? "declared-only " : "", kind);
	return 0;
}

static int load_type(const struct loader *ld, const struct jpath *jp,
		     const char *key, size_t key_len, const json_t *obj,
		     struct snapshot *s)
{
	const json_t *incomplete = optional(obj, "incomplete");
	struct type_def *t;
	int err;

	err = want_object(ld, jp, obj, type_fields);
	if (err)
		return err;
	t = snapshot__add_type(s);
	if (!t)
		return -ENOMEM;
	err = jstr__decode_buf(key, key_len, &t->name);
	if (err == -EINVAL)
		return bad(ld, jp, "bad byte escape or NUL in type name");
	if (!err)
		err = want_name(ld, JP_FIELD(jp, "kind"),
				json_object_get(obj, "kind"), type_kind__parse,
				&t->kind);
	if (!err && incomplete)
		err = want_bool(ld, JP_FIELD(jp, "incomplete"), incomplete,
				&t->incomplete);
	if (!err)
		err = check_type_fields(ld, jp, obj, t);
	if (err || t->incomplete)
		return err;
	err = want_uint(ld, JP_FIELD(jp, "size"), json_object_get(obj, "size"),
			TYPE_SIZE_MAX, &t->size);
	if (!err && t->kind == TYPE_TYPEDEF)
		err = want_string(ld, JP_FIELD(jp, "target"),
				  json_object_get(obj, "target"), &t->target);
	if (!err && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION))
		err = load_items(ld, jp, obj, "members", load_member, t);
	if (!err && t->kind == TYPE_ENUM)
		err = load_items(ld, jp, obj, "enumerators", load_enumerator, t);
	return err;
}

static const char *const value_fields[] = { "shape", "error", "raw", NULL };

static int load_value(const struct loader *ld, const struct jpath *jp,
		      const json_t *obj, struct node_value *val)
{
	int err = want_object(ld, jp, obj, value_fields);

	if (!err)
		err = want_name(ld, JP_FIELD(jp, "shape"),
				json_object_get(obj, "shape"),
				value_shape__parse, &val->shape);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "error"), obj, &val->error);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "raw"), obj, &val->raw);
	if (!err && val->error && val->shape != SHAPE_UNREADABLE)
		err = bad(ld, jp, "only an unreadable value has an error");
	return err;
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

static const char *const node_fields[] = {
	"path", "kind", "mode", "target", "value", NULL
};

static int load_sysfs_node(const struct loader *ld, const struct jpath *jp,
			   const json_t *obj, struct snapshot *s)
{
	const json_t *value = optional(obj, "value");
	struct sysfs_node *n;
	int err;

	err = want_object(ld, jp, obj, node_fields);
	if (err)
		return err;
	n = snapshot__add_sysfs_node(s);
	if (!n)
		return -ENOMEM;
	err = want_string(ld, JP_FIELD(jp, "path"),
			  json_object_get(obj, "path"), &n->path);
	if (!err)
		err = want_name(ld, JP_FIELD(jp, "kind"),
				json_object_get(obj, "kind"), node_kind__parse,
				&n->kind);
	if (!err)
		err = load_mode(ld, JP_FIELD(jp, "mode"),
				json_object_get(obj, "mode"), &n->mode);
	if (err)
		return err;
	if (n->kind == NODE_LINK)
		err = want_string(ld, JP_FIELD(jp, "target"),
				  optional(obj, "target"), &n->target);
	else if (optional(obj, "target"))
		err = bad(ld, jp, "only a link has a target");
	if (!err && value && n->kind != NODE_FILE)
		err = bad(ld, jp, "only a file has a value");
	if (!err && value)
		err = load_value(ld, JP_FIELD(jp, "value"), value, &n->value);
	return err;
}

static const char *const doc_fields[] = {
	"level", "file", "line", "what", "date", "kernel_version", "contact",
	"users", "description", NULL
};

static int load_what(const struct loader *ld, const struct jpath *jp,
		     const json_t *arr, struct doc_entry *d)
{
	size_t i;
	int err = want_array(ld, jp, arr);

	if (!err && !json_array_size(arr))
		return bad(ld, jp, "an entry needs at least one What: pattern");
	for (i = 0; !err && i < json_array_size(arr); i++) {
		char *what;

		err = want_string(ld, JP_INDEX(jp, i), json_array_get(arr, i),
				  &what);
		if (err)
			break;
		err = doc_entry__add_what(d, what);
		free(what);
	}
	return err;
}

static int load_doc(const struct loader *ld, const struct jpath *jp,
		    const json_t *obj, struct snapshot *s)
{
	struct doc_entry *d;
	uint64_t line;
	int err;

	err = want_object(ld, jp, obj, doc_fields);
	if (err)
		return err;
	d = snapshot__add_doc(s);
	if (!d)
		return -ENOMEM;
	err = want_name(ld, JP_FIELD(jp, "level"),
			json_object_get(obj, "level"), abi_level__parse,
			&d->level);
	if (!err && d->level == LEVEL_UNDOCUMENTED)
		err = bad(ld, JP_FIELD(jp, "level"),
			  "a doc entry cannot be undocumented");
	if (!err)
		err = want_string(ld, JP_FIELD(jp, "file"),
				  json_object_get(obj, "file"), &d->file);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "line"),
				json_object_get(obj, "line"), DOC_LINE_MAX,
				&line);
	if (!err && !line)
		err = bad(ld, JP_FIELD(jp, "line"), "lines count from 1");
	if (err)
		return err;
	d->line = line;
	err = load_what(ld, JP_FIELD(jp, "what"), json_object_get(obj, "what"),
			d);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "date"), obj, &d->date);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "kernel_version"), obj,
				 &d->kernel_version);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "contact"), obj, &d->contact);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "users"), obj, &d->users);
	if (!err)
		err = opt_string(ld, JP_FIELD(jp, "description"), obj,
				 &d->description);
	return err;
}

static const char *const coverage_fields[] = { "sysfs_nodes", "documented", NULL };

static int load_coverage(const struct loader *ld, const struct jpath *jp,
			 const json_t *obj, struct coverage *c)
{
	int err = want_object(ld, jp, obj, coverage_fields);

	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "sysfs_nodes"),
				json_object_get(obj, "sysfs_nodes"), INT64_MAX,
				&c->sysfs_nodes);
	if (!err)
		err = want_uint(ld, JP_FIELD(jp, "documented"),
				json_object_get(obj, "documented"), INT64_MAX,
				&c->documented);
	if (!err && c->documented > c->sysfs_nodes)
		err = bad(ld, jp, "more nodes documented than there are");
	c->computed = !err;
	return err;
}

/* Load the array part @key of the snapshot with @load_one per record. */
static int load_part(const struct loader *ld, const json_t *root,
		     const char *key, bool *collected,
		     int (*load_one)(const struct loader *ld,
				     const struct jpath *jp,
				     const json_t *item, struct snapshot *s),
		     struct snapshot *s)
{
	const struct jpath *jp = JP_FIELD(NULL, key);
	const json_t *arr = optional(root, key);
	size_t i;
	int err = 0;

	if (!arr)
		return 0;
	err = want_array(ld, jp, arr);
	*collected = true;
	for (i = 0; !err && i < json_array_size(arr); i++)
		err = load_one(ld, JP_INDEX(jp, i), json_array_get(arr, i), s);
	return err;
}

static int load_types(const struct loader *ld, const json_t *root,
		      struct snapshot *s)
{
	const struct jpath *jp = JP_FIELD(NULL, "types");
	const json_t *obj = optional(root, "types");
	const char *key;
	size_t key_len;
	json_t *v;
	int err;

	if (!obj)
		return 0;
	if (!json_is_object(obj))
		return wrong_type(ld, jp, "an object", obj);
	s->types.collected = true;
	json_object_keylen_foreach((json_t *)obj, key, key_len, v) {
		err = load_type(ld, JP_MAPKEY(jp, key), key, key_len, v, s);
		if (err)
			return err;
	}
	return 0;
}

static const char *const root_fields[] = {
	"format", "version", "kernel", "syscalls", "types", "sysfs", "docs",
	"coverage", NULL
};

/* The format and version come first: they decide whether to read on. */
static int check_format(const struct loader *ld, const json_t *root)
{
	const json_t *format, *version;
	uint64_t v;
	int err;

	if (!json_is_object(root))
		return bad(ld, NULL, "not a kabidiff snapshot: found %s, not an object",
			   json_type_name(root));
	format = json_object_get(root, "format");
	if (!json_is_string(format) ||
	    strcmp(json_string_value(format), SNAPSHOT_FORMAT))
		return bad(ld, NULL, "not a kabidiff snapshot: \"format\" is not \"%s\"",
			   SNAPSHOT_FORMAT);
	version = json_object_get(root, "version");
	err = want_uint(ld, JP_FIELD(NULL, "version"), version, UINT32_MAX, &v);
	if (err)
		return err;
	if (v > SNAPSHOT_VERSION) {
		pr_err("%s: snapshot format version %" PRIu64
		       " is newer than this kabidiff reads (up to %d); upgrade kabidiff",
		       ld->file, v, SNAPSHOT_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (!v)
		return bad(ld, JP_FIELD(NULL, "version"), "version 0 does not exist");
	return 0;
}

static int load_snapshot(const struct loader *ld, const json_t *root,
			 struct snapshot *s)
{
	const json_t *coverage = optional(root, "coverage");
	int err;

	err = check_format(ld, root);
	if (!err)
		err = want_object(ld, NULL, root, root_fields);
	if (!err)
		err = load_kernel(ld, JP_FIELD(NULL, "kernel"),
				  json_object_get(root, "kernel"), &s->kernel);
	if (!err)
		err = load_part(ld, root, "syscalls", &s->syscalls.collected,
				load_syscall, s);
	if (!err)
		err = load_types(ld, root, s);
	if (!err)
		err = load_part(ld, root, "sysfs", &s->sysfs.collected,
				load_sysfs_node, s);
	if (!err)
		err = load_part(ld, root, "docs", &s->docs.collected, load_doc, s);
	if (!err && coverage)
		err = load_coverage(ld, JP_FIELD(NULL, "coverage"), coverage,
				    &s->coverage);
	if (!err)
		err = snapshot__sort(s, ld->file);
	return err;
}

/*
 * jansson allocates every JSON value, string and hash table on its own, and
 * frees them one by one: for a snapshot of 20,000 nodes that allocating and
 * freeing took more time than the parsing.  The parsed tree lives only
 * until it is converted to the model, so while a snapshot is loaded jansson
 * allocates from large blocks instead, freed all at once.  The allocator is
 * jansson's global one, installed for the load only: kabidiff is single
 * threaded.
 */
#define ARENA_BLOCK	(1 << 20)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static struct arena_block *arena;

static void *arena_malloc(size_t size)
{
	struct arena_block *b = arena;
	size_t need = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (!b || b->size - b->used < need) {
		size_t bytes = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		b = malloc(sizeof(*b) + bytes);
		if (!b)
			return NULL;
		b->size = bytes;
		b->used = 0;
		/* a block for one large request goes second, the first keeps room */
		if (arena && need > ARENA_BLOCK) {
			b->next = arena->next;
			arena->next = b;
		} else {
			b->next = arena;
			arena = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += need;
	return p;
}

static void arena_free(void *p)
{
	(void)p;	/* all of it goes in arena_release() */
}

static void arena_release(void)
{
	while (arena) {
		struct arena_block *next = arena->next;

		free(arena);
		arena = next;
	}
}

/* json_loadb() with the arena: release it once the tree is no longer used. */
static json_t *arena_loadb(const char *buf, size_t len, json_error_t *jerr)
{
	json_malloc_t old_malloc;
	json_free_t old_free;
	json_t *root;

	json_get_alloc_funcs(&old_malloc, &old_free);
	json_set_alloc_funcs(arena_malloc, arena_free);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, jerr);
	json_set_alloc_funcs(old_malloc, old_free);
	return root;
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

	err = read_file_or_report(path, &buf, &len);
	if (err)
		goto out;
	if (!len) {
		err = bad(&ld, NULL, "empty file, not a kabidiff snapshot");
		goto out_free_buf;
	}
	root = arena_loadb(buf, len, &jerr);
	if (!root) {
		pr_err("%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		err = -EINVAL;
		goto out_free_arena;
	}
	s = snapshot__new();
	err = s ? load_snapshot(&ld, root, s) : -ENOMEM;
out_free_arena:
	arena_release();	/* the tree: json_decref() would free nothing */
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

static void set_str(json_t *obj, const char *key, const char *s, int *err)
{
	if (s)
		set(obj, key, jstr__new(s), err);
}

static json_t *finish(json_t *obj, int err)
{
	if (err) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *build_kernel(const struct kernel_ident *k)
{
	json_t *obj = json_object();
	int err = 0;

	set_str(obj, "release", k->release, &err);
	set_str(obj, "version", k->version, &err);
	set_str(obj, "arch", k->arch, &err);
	set_str(obj, "build_id", k->build_id, &err);
	set_str(obj, "git", k->git, &err);
	set_str(obj, "collected_by", k->collected_by, &err);
	return finish(obj, err);
}

static json_t *build_syscall(const void *rec)
{
	const struct syscall *sc = rec;
	json_t *obj = json_object(), *args = json_array(), *src = json_array();
	int err = 0;
	size_t i;

	set_str(obj, "abi", sc->abi, &err);
	set(obj, "nr", json_integer(sc->nr), &err);
	set_str(obj, "name", sc->name, &err);
	set_str(obj, "entry", sc->entry, &err);
	set(obj, "implemented", json_boolean(sc->implemented), &err);
	for (i = 0; i < sc->nr_args; i++) {
		json_t *arg = json_object();

		set_str(arg, "name", sc->args[i].name, &err);
		set_str(arg, "type", sc->args[i].type, &err);
		if (json_array_append_new(args, arg))
			err = -ENOMEM;
	}
	set(obj, "args", args, &err);
	for (i = 0; i < ARRAY_SIZE(syscall_source_names); i++)
		if (sc->sources & 1u << i &&
		    json_array_append_new(src, json_string(syscall_source_names[i])))
			err = -ENOMEM;
	set(obj, "sources", src, &err);
	return finish(obj, err);
}

static json_t *build_member(const struct type_member *m)
{
	json_t *obj = json_object();
	int err = 0;

	set_str(obj, "name", m->name, &err);
	set_str(obj, "type", m->type, &err);
	set(obj, "offset", json_integer(m->offset), &err);
	set(obj, "size", json_integer(m->size), &err);
	if (m->bitfield) {
		set(obj, "bit_offset", json_integer(m->bit_offset), &err);
		set(obj, "bit_size", json_integer(m->bit_size), &err);
	}
	return finish(obj, err);
}

static json_t *build_enumerator(const struct enumerator *e)
{
	json_t *obj = json_object();
	int err = 0;

	set_str(obj, "name", e->name, &err);
	set(obj, "value", json_integer(e->value), &err);
	return finish(obj, err);
}

static json_t *build_type(const struct type_def *t)
{
	bool aggregate = t->kind == TYPE_STRUCT || t->kind == TYPE_UNION;
	json_t *obj = json_object(), *items;
	int err = 0;
	size_t i;

	set(obj, "kind", json_string(type_kind__name(t->kind)), &err);
	if (t->incomplete) {
		set(obj, "incomplete", json_true(), &err);
		return finish(obj, err);
	}
	set(obj, "size", json_integer(t->size), &err);
	if (t->kind == TYPE_TYPEDEF)
		set_str(obj, "target", t->target, &err);
	if (aggregate) {
		items = json_array();
		for (i = 0; i < t->nr_members; i++)
			if (json_array_append_new(items, build_member(&t->members[i])))
				err = -ENOMEM;
		set(obj, "members", items, &err);
	}
	if (t->kind == TYPE_ENUM) {
		items = json_array();
		for (i = 0; i < t->nr_enumerators; i++)
			if (json_array_append_new(items,
					build_enumerator(&t->enumerators[i])))
				err = -ENOMEM;
		set(obj, "enumerators", items, &err);
	}
	return finish(obj, err);
}

static json_t *build_sysfs_node(const void *rec)
{
	const struct sysfs_node *n = rec;
	json_t *obj = json_object(), *val;
	char mode[8];
	int err = 0;

	snprintf(mode, sizeof(mode), "%04o", n->mode & 07777);
	set_str(obj, "path", n->path, &err);
	set(obj, "kind", json_string(node_kind__name(n->kind)), &err);
	set(obj, "mode", json_string(mode), &err);
	set_str(obj, "target", n->target, &err);
	if (n->value.shape != SHAPE_NONE) {
		val = json_object();
		set(val, "shape", json_string(value_shape__name(n->value.shape)),
		    &err);
		set_str(val, "error", n->value.error, &err);
		set_str(val, "raw", n->value.raw, &err);
		set(obj, "value", val, &err);
	}
	return finish(obj, err);
}

json_t *doc_entry__to_json(const struct doc_entry *d)
{
	json_t *obj = json_object(), *what = json_array();
	int err = 0;
	size_t i;

	set(obj, "level", json_string(abi_level__name(d->level)), &err);
	set_str(obj, "file", d->file, &err);
	set(obj, "line", json_integer(d->line), &err);
	for (i = 0; i < d->nr_what; i++)
		if (json_array_append_new(what, jstr__new(d->what[i])))
			err = -ENOMEM;
	set(obj, "what", what, &err);
	set_str(obj, "date", d->date, &err);
	set_str(obj, "kernel_version", d->kernel_version, &err);
	set_str(obj, "contact", d->contact, &err);
	set_str(obj, "users", d->users, &err);
	set_str(obj, "description", d->description, &err);
	return finish(obj, err);
}

static json_t *build_doc(const void *rec)
{
	return doc_entry__to_json(rec);
}

/* The array of @nr records of @size bytes at @v, one build_one() each. */
static json_t *build_array(const void *v, size_t nr, size_t size,
			   json_t *(*build_one)(const void *rec))
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < nr; i++) {
		if (json_array_append_new(arr, build_one((const char *)v + i * size))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

#define BUILD_PART(s, part, build_one) \
	build_array((s)->part.v, (s)->part.nr, sizeof(*(s)->part.v), build_one)

static json_t *build_types(const struct snapshot *s)
{
	json_t *obj = json_object();
	int err = 0;
	size_t i;

	for (i = 0; obj && !err && i < s->types.nr; i++) {
		const struct type_def *t = &s->types.v[i];
		size_t len;
		char *key = jstr__encode(t->name, &len);
		json_t *v = build_type(t);

		if (!key || !v || json_object_setn_new_nocheck(obj, key, len, v))
			err = -ENOMEM;
		free(key);
	}
	return finish(obj, err);
}

static json_t *build_snapshot(const struct snapshot *s)
{
	json_t *root = json_object(), *cov;
	int err = 0;

	set(root, "format", json_string(SNAPSHOT_FORMAT), &err);
	set(root, "version", json_integer(SNAPSHOT_VERSION), &err);
	set(root, "kernel", build_kernel(&s->kernel), &err);
	if (s->syscalls.collected)
		set(root, "syscalls", BUILD_PART(s, syscalls, build_syscall), &err);
	if (s->types.collected)
		set(root, "types", build_types(s), &err);
	if (s->sysfs.collected)
		set(root, "sysfs", BUILD_PART(s, sysfs, build_sysfs_node), &err);
	if (s->docs.collected)
		set(root, "docs", BUILD_PART(s, docs, build_doc), &err);
	if (s->coverage.computed) {
		cov = json_object();
		set(cov, "sysfs_nodes", json_integer(s->coverage.sysfs_nodes), &err);
		set(cov, "documented", json_integer(s->coverage.documented), &err);
		set(root, "coverage", cov, &err);
	}
	return finish(root, err);
}

int snapshot__write(struct snapshot *s, FILE *f)
{
	json_t *root;
	int err;

	err = snapshot__sort(s, "snapshot");
	if (err)
		return err;
	root = build_snapshot(s);
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

int snapshot__save(struct snapshot *s, const char *path)
{
	return atomic_write(path, write_snapshot, s);
}
