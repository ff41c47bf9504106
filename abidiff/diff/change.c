// SPDX-License-Identifier: GPL-2.0-only
/*
 * The change taxonomy (each kind's name, class and part) and the record
 * list the parts of the diff append to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "change.h"

static const struct {
	const char *name;
	enum change_class class;
	enum change_part part;
} kinds[CHANGE_KIND_COUNT] = {
	[CHANGE_NODE_REMOVED]		= { "node-removed", CLASS_REMOVED, PART_SYSFS },
	[CHANGE_NODE_ADDED]		= { "node-added", CLASS_ADDED, PART_SYSFS },
	[CHANGE_INSTANCE_REMOVED]	= { "instance-removed", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_INSTANCE_ADDED]		= { "instance-added", CLASS_ADDED, PART_SYSFS },
	[CHANGE_NODE_MOVED]		= { "node-moved", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_NODE_KIND_CHANGED]	= { "node-kind-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_MODE_LOST]		= { "mode-lost", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_MODE_GAINED]		= { "mode-gained", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_WORLD_WRITABLE]		= { "world-writable", CLASS_SECURITY, PART_SYSFS },
	[CHANGE_LINK_TARGET_CHANGED]	= { "link-target-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_VALUE_SHAPE_CHANGED]	= { "value-shape-changed", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_VALUE_SHAPE_WIDENED]	= { "value-shape-widened", CLASS_COMPATIBLE, PART_SYSFS },
	[CHANGE_BECAME_UNREADABLE]	= { "became-unreadable", CLASS_INCOMPATIBLE, PART_SYSFS },
	[CHANGE_SYSCALL_REMOVED]	= { "syscall-removed", CLASS_REMOVED, PART_SYSCALLS },
	[CHANGE_SYSCALL_ADDED]		= { "syscall-added", CLASS_ADDED, PART_SYSCALLS },
	[CHANGE_SYSCALL_RENUMBERED]	= { "syscall-renumbered", CLASS_INCOMPATIBLE, PART_SYSCALLS },
	[CHANGE_SYSCALL_ARGS_CHANGED]	= { "syscall-args-changed", CLASS_INCOMPATIBLE, PART_SYSCALLS },
	[CHANGE_SYSCALL_ARG_POINTEE_CHANGED] = { "syscall-arg-pointee-changed", CLASS_REVIEW, PART_SYSCALLS },
	[CHANGE_VDSO_SYMBOL_REMOVED]	= { "vdso-symbol-removed", CLASS_REMOVED, PART_VDSO },
	[CHANGE_VDSO_SYMBOL_ADDED]	= { "vdso-symbol-added", CLASS_ADDED, PART_VDSO },
	[CHANGE_VDSO_SYMBOL_REVERSIONED] = { "vdso-symbol-reversioned", CLASS_INCOMPATIBLE, PART_VDSO },
	[CHANGE_VDSO_PROTOTYPE_CHANGED]	= { "vdso-prototype-changed", CLASS_INCOMPATIBLE, PART_VDSO },
	[CHANGE_VDSO_ARG_POINTEE_CHANGED] = { "vdso-arg-pointee-changed", CLASS_REVIEW, PART_VDSO },
	[CHANGE_TYPE_REMOVED]		= { "type-removed", CLASS_REMOVED, PART_TYPES },
	[CHANGE_TYPE_ADDED]		= { "type-added", CLASS_ADDED, PART_TYPES },
	[CHANGE_TYPE_KIND_CHANGED]	= { "type-kind-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_TYPE_SIZE_CHANGED]	= { "type-size-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_TYPE_EXTENDED]		= { "type-extended", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_TYPEDEF_CHANGED]	= { "typedef-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_REMOVED]		= { "member-removed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_ADDED]		= { "member-added", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_RENAMED]		= { "member-renamed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_RESERVED_USED]	= { "member-reserved-used", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_OFFSET_CHANGED]	= { "member-offset-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_SIZE_CHANGED]	= { "member-size-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_MEMBER_TYPE_CHANGED]	= { "member-type-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_REMOVED]	= { "enumerator-removed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_ADDED]	= { "enumerator-added", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_VALUE_CHANGED] = { "enumerator-value-changed", CLASS_INCOMPATIBLE, PART_TYPES },
	[CHANGE_ENUMERATOR_LIMIT_CHANGED] = { "enumerator-limit-changed", CLASS_COMPATIBLE, PART_TYPES },
	[CHANGE_DOC_DEMOTED]		= { "doc-demoted", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_REMOVED_EARLY]	= { "doc-removed-early", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_DROPPED]		= { "doc-dropped", CLASS_DEMOTED, PART_DOCS },
	[CHANGE_DOC_DROPPED_LIVE]	= { "doc-dropped-live", CLASS_REVIEW, PART_DOCS },
	[CHANGE_DOC_MOVED]		= { "doc-moved", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_OBSOLETED]		= { "doc-obsoleted", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_RETIRED]		= { "doc-retired", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_PROMOTED]		= { "doc-promoted", CLASS_COMPATIBLE, PART_DOCS },
	[CHANGE_DOC_ADDED]		= { "doc-added", CLASS_ADDED, PART_DOCS },
	[CHANGE_ATTR_REMOVED]		= { "attribute-removed", CLASS_REMOVED, PART_CENSUS },
	[CHANGE_ATTR_MODE_LOST]		= { "attribute-mode-lost", CLASS_INCOMPATIBLE, PART_CENSUS },
	[CHANGE_MODULE_REMOVED]		= { "module-removed", CLASS_REMOVED, PART_CENSUS },
};

static const char * const class_names[CLASS_COUNT] = {
	[CLASS_REMOVED]		= "removed",
	[CLASS_INCOMPATIBLE]	= "incompatible",
	[CLASS_COMPATIBLE]	= "compatible",
	[CLASS_ADDED]		= "added",
	[CLASS_SECURITY]	= "security",
	[CLASS_DEMOTED]		= "demoted",
	[CLASS_REVIEW]		= "review",
};

const char *change_kind__name(enum change_kind kind)
{
	return kind < CHANGE_KIND_COUNT ? kinds[kind].name : NULL;
}

int change_kind__parse(const char *name, enum change_kind *out)
{
	int i;

	for (i = 0; i < CHANGE_KIND_COUNT; i++) {
		if (!strcmp(kinds[i].name, name)) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

enum change_class change_kind__class(enum change_kind kind)
{
	return kinds[kind].class;
}

enum change_part change_kind__part(enum change_kind kind)
{
	return kinds[kind].part;
}

const char *change_part__name(enum change_part part)
{
	static const char * const names[PART_COUNT] = {
		[PART_SYSFS] = "sysfs", [PART_SYSCALLS] = "syscalls",
		[PART_VDSO] = "vdso", [PART_TYPES] = "types", [PART_DOCS] = "docs",
		[PART_CENSUS] = "census",
	};

	return part < PART_COUNT ? names[part] : NULL;
}

const char *change_class__name(enum change_class class)
{
	return class < CLASS_COUNT ? class_names[class] : NULL;
}

int change_class__parse(const char *name, enum change_class *out)
{
	unsigned int i;
	int err = name_table__parse(class_names, CLASS_COUNT, name, &i);

	if (!err)
		*out = i;
	return err;
}

static char *dup_or_null(const char *s, int *err)
{
	char *copy;

	if (!s)
		return NULL;
	copy = strdup(s);
	if (!copy)
		*err = -ENOMEM;
	return copy;
}

int diff_add(struct diff *d, enum change_kind kind, const char *subject,
	     const char *old, const char *new, int32_t old_ref, int32_t new_ref)
{
	struct change *c = ARRAY_APPEND(d->v, d->nr, d->alloc);
	int err = 0;

	if (!c)
		return -ENOMEM;
	c->kind = kind;
	c->instances = NULL;
	c->nr_instances = 0;
	c->old_ref = old_ref;
	c->new_ref = new_ref;
	c->subject = dup_or_null(subject, &err);
	c->old = dup_or_null(old, &err);
	c->new = dup_or_null(new, &err);
	return err;
}

int diff_add_instances(struct diff *d, enum change_kind kind,
		       const char *subject, const char *old, const char *new,
		       int32_t old_ref, int32_t new_ref,
		       const char *const *instances, size_t nr)
{
	int err = diff_add(d, kind, subject, old, new, old_ref, new_ref);
	struct change *c;
	size_t i;

	if (err || !nr)
		return err;
	c = &d->v[d->nr - 1];
	c->instances = calloc(nr, sizeof(*c->instances));
	if (!c->instances)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		c->instances[i] = strdup(instances[i]);
		if (!c->instances[i])
			return -ENOMEM;
		c->nr_instances++;
	}
	return 0;
}

void diff__release(struct diff *d)
{
	size_t i, j;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].subject);
		free(d->v[i].old);
		free(d->v[i].new);
		for (j = 0; j < d->v[i].nr_instances; j++)
			free(d->v[i].instances[j]);
		free(d->v[i].instances);
	}
	free(d->v);
	d->v = NULL;
	d->nr = d->alloc = 0;
	free(d->old_entry);
	free(d->old_census_entry);
	d->old_entry = NULL;
}
