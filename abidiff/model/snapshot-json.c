// SPDX-License-Identifier: GPL-2.0-only
/*
 * Snapshot <-> JSON, through jansson: the record tables of snapshot-fields.h
 * for each kind of object, walked by json-records.c, and the files.
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
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/atomic-file.h"
#include "lib/bytes.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "json-arena.h"
#include "json-records.h"
#include "jstr.h"
#include "snapshot-fields.h"
#include "snapshot-json.h"

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
ADD(add_census_attr, snapshot__add_census_attr)

static int add_what(void *rec, const char *s)
{
	return doc_entry__add_what(rec, s);
}

static int add_syscall_abi(void *rec, const char *s)
{
	return snapshot__add_syscall_abi(rec, s);
}

static int add_census_module(void *rec, const char *s)
{
	return snapshot__add_census_module(rec, s);
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
NAMES(doc_source)
NAMES(module_how)
NAMES(census_kind)

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
		return jrecord__fail(ld, JP_FIELD(jp, "build_date"),
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
		return jrecord__fail(ld, jp, "arguments without a return type");
	if (sym->ret.type && sym->ret.name)
		return jrecord__fail(ld, jp, "a return type has no name");
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
		return jrecord__fail(ld, jp, "offset must be bit_offset / 8");
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
		there = jrecord__optional(obj, f->key);
		if (!there && f == size && type_has(t, f))
			return jrecord__missing_field(ld, JP_FIELD(jp, f->key));
		if (!there || type_has(t, f))
			continue;
		if (f == size)
			return jrecord__fail(ld, jp, "an incomplete type has no %s", f->key);
		return jrecord__fail(ld, jp, "a %s%s has no %s",
			   t->incomplete ? "declared-only " : "",
			   type_kind__name(t->kind), f->key);
	}
	for (f = type_fields; f < type_fields + ARRAY_SIZE(type_fields); f++) {
		if (!(f->flags & JF_BY_HOOK) || !type_has(t, f))
			continue;
		err = jrecord__load_value(ld, JP_FIELD(jp, f->key), f,
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
		return jrecord__fail(ld, jp, "only an unreadable value has an error");
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
	const json_t *v = jrecord__optional(obj, target->key);
	struct sysfs_node *n = rec;
	int err = 0;

	if (n->kind == NODE_LINK)
		err = jrecord__load_value(ld, JP_FIELD(jp, target->key), target, v, n);
	else if (v)
		err = jrecord__fail(ld, jp, "only a link has a target");
	v = jrecord__optional(obj, value->key);
	if (!err && v && n->kind != NODE_FILE)
		err = jrecord__fail(ld, jp, "only a file has a value");
	if (!err && v)
		err = jrecord__load_value(ld, JP_FIELD(jp, value->key), value, v, n);
	return err;
}

static const struct jrecord node_jrecord =
	JRECORD("sysfs-node", node_fields, .load = load_node, .has = node_has);
#undef RECORD_TYPE

#define RECORD_TYPE struct doc_entry
enum { DF_LEVEL, DF_SOURCE };
static const struct jfield doc_fields[] = {
	[DF_LEVEL] = FIELD("level", ENUM, JF_REQUIRED, level,
			   .names = abi_level_names, .nr_names = LEVEL_COUNT,
			   .max = LEVEL_SYSCTL,
			   .refused = "a doc entry cannot be undocumented"),
	/* absent for Documentation/ABI, which is what snapshots held first */
	[DF_SOURCE] = FIELD("source", ENUM, JF_OPTIONAL, source,
			    .names = doc_source_names,
			    .nr_names = DOC_SOURCE_COUNT,
			    .max = DOC_SOURCE_COUNT - 1),
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

static bool doc_has(const void *rec, const struct jfield *f)
{
	const struct doc_entry *d = rec;

	return f != &doc_fields[DF_SOURCE] || d->source != DOC_SOURCE_ABI;
}

/* A sysctl's level is sysctl or obsolete, an ABI entry's never sysctl. */
static int load_doc(const struct loader *ld, const struct jpath *jp,
		    const json_t *obj, void *rec)
{
	const struct doc_entry *d = rec;
	bool sysctl = d->source == DOC_SOURCE_SYSCTL;

	if (sysctl ? d->level != LEVEL_SYSCTL && d->level != LEVEL_OBSOLETE :
		     d->level == LEVEL_SYSCTL)
		return jrecord__fail(ld, JP_FIELD(jp, "level"), sysctl ?
				     "a sysctl's level is sysctl or obsolete" :
				     "only a sysctl's level is sysctl");
	return 0;
}

static const struct jrecord doc_jrecord =
	JRECORD("doc", doc_fields, .load = load_doc, .has = doc_has);
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
		return jrecord__fail(ld, jp, "more nodes documented than there are");
	return 0;
}

static const struct jfield coverage_fields[] = {
	FIELD("sysfs_nodes", UINT, JF_REQUIRED, sysfs_nodes, .max = INT64_MAX),
	FIELD("documented", UINT, JF_REQUIRED, documented, .max = INT64_MAX),
};
static const struct jrecord coverage_jrecord =
	JRECORD("coverage", coverage_fields, .load = load_coverage);
#undef RECORD_TYPE

/* Only an attribute that a group lists can have the group's directory. */
#define RECORD_TYPE struct census_attr
static int load_census_attr(const struct loader *ld, const struct jpath *jp,
			    const json_t *obj, void *rec)
{
	const struct census_attr *a = rec;

	if (a->group && !a->grouped)
		return jrecord__fail(ld, jp, "only a grouped attribute has a group");
	return 0;
}

static const struct jfield census_attr_fields[] = {
	FIELD("module", STRING, JF_REQUIRED, module),
	FIELD("file", STRING, JF_OPTIONAL, file),
	FIELD("symbol", STRING, JF_REQUIRED, symbol),
	FIELD("name", STRING, JF_REQUIRED, name),
	FIELD("kind", ENUM, JF_REQUIRED, kind, .names = census_kind_names,
	      .nr_names = CENSUS_KIND_COUNT, .max = CENSUS_KIND_COUNT - 1),
	FIELD("type", STRING, JF_REQUIRED, type),
	FIELD("mode", MODE, JF_REQUIRED, mode),
	FIELD("mode_at_run_time", BOOL, JF_REQUIRED, mode_at_run_time),
	FIELD("grouped", BOOL, JF_REQUIRED, grouped),
	FIELD("group", STRING, JF_OPTIONAL, group),
	FIELD("path", STRING, JF_OPTIONAL, path),
};
static const struct jrecord census_attr_jrecord =
	JRECORD("census-attr", census_attr_fields, .load = load_census_attr);
#undef RECORD_TYPE

/*
 * The census is one object, but its two arrays are members of the snapshot
 * itself: its record is struct snapshot, at offset 0 of the root.
 */
#define RECORD_TYPE struct snapshot
static const struct jfield census_fields[] = {
	FIELD("modules", STRINGS, JF_REQUIRED, census_modules,
	      .nr = AT(nr_census_modules), .append = add_census_module),
	FIELD("attributes", RECORDS, JF_REQUIRED, census.v, .nr = AT(census.nr),
	      .record = &census_attr_jrecord, .add = add_census_attr),
};
static const struct jrecord census_jrecord = JRECORD("census", census_fields);

/* A part that is there is collected: an empty one too. */
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
	{ .key = "census", .kind = JF_RECORD, .flags = JF_HAVE, .offset = 0,
	  .size = sizeof(struct snapshot), .have = AT(census.collected),
	  .record = &census_jrecord },
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
		return jrecord__fail(ld, NULL, "not a kabidiff snapshot: found %s, not an object",
			   jrecord__type_name(root));
	v = json_object_get(root, format->key);
	if (!json_is_string(v) || strcmp(json_string_value(v), format->value))
		return jrecord__fail(ld, NULL, "not a kabidiff snapshot: \"%s\" is not \"%s\"",
			   format->key, format->value);
	err = jrecord__want_uint(ld, JP_FIELD(NULL, version->key),
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
		return jrecord__fail(ld, JP_FIELD(NULL, version->key),
			   "version %" PRIu64 " does not exist", n);
	return 0;
}

/*
 * Each census attribute was read from a file the census lists.  Both lists
 * are sorted by module: one walk down them.
 */
static int check_census_modules(const struct loader *ld,
				const struct snapshot *s)
{
	const struct census_attr *a;
	char q[128], q_module[128];
	size_t i, k = 0;

	for (i = 0; i < s->census.nr; i++) {
		a = &s->census.v[i];
		while (k < s->nr_census_modules &&
		       strcmp(s->census_modules[k], a->module) < 0)
			k++;
		if (k < s->nr_census_modules &&
		    !strcmp(s->census_modules[k], a->module))
			continue;
		return jrecord__fail(ld, NULL,
			   "census attribute %s of %s: census.modules does not list its module",
			   quote_buf(q, sizeof(q), a->symbol),
			   quote_buf(q_module, sizeof(q_module), a->module));
	}
	return 0;
}

static int load_snapshot(const struct loader *ld, const json_t *root,
			 struct snapshot *s)
{
	int err = check_format(ld, root);

	if (!err)
		err = jrecord__load_object(ld, NULL, &snapshot_jrecord, root, s);
	if (!err)
		err = snapshot__sort(s, ld->file);
	if (!err)
		err = check_census_modules(ld, s);
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
		err = jrecord__fail(&ld, NULL, "empty file, not a kabidiff snapshot");
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
	root = jrecord__build(&snapshot_jrecord, s);
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
	return jrecord__build(&doc_jrecord, d);
}
