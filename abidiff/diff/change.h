/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The changes a diff finds: their kinds, classes and parts, and the flat
 * list of change records the parts of the diff (parts.h) append to.
 */
#ifndef KABIDIFF_DIFF_CHANGE_H
#define KABIDIFF_DIFF_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/*
 * What a change does to its users decides which row of the policy table
 * judges it.  The names are those of docs/policy.md.
 */
enum change_class {
	CLASS_REMOVED,		/* an interface is gone */
	CLASS_INCOMPATIBLE,	/* present, but old users may fail */
	CLASS_COMPATIBLE,	/* present, old users keep working */
	CLASS_ADDED,		/* a new interface */
	CLASS_SECURITY,		/* compatible, but worth a look */
	CLASS_DEMOTED,		/* the documentation broke its own rules */
	CLASS_REVIEW,		/* compatible in form, maybe not in meaning */
	CLASS_COUNT,
};

/*
 * The change kinds, grouped by the part of the snapshot they are about.
 * Their names ("node-removed", ...) are used in reports, policy and waiver
 * files; change_kind__class() gives each one's class.
 */
enum change_kind {
	/* sysfs and /proc/sys: the subject is the node's path */
	CHANGE_NODE_REMOVED,
	CHANGE_NODE_ADDED,
	CHANGE_INSTANCE_REMOVED,	/* one of an interface's instances */
	CHANGE_INSTANCE_ADDED,
	CHANGE_NODE_MOVED,		/* real path moved, a link kept its name */
	CHANGE_NODE_KIND_CHANGED,	/* file, dir, link */
	CHANGE_MODE_LOST,		/* a permission bit went away */
	CHANGE_MODE_GAINED,
	CHANGE_WORLD_WRITABLE,		/* newly writable by anyone */
	CHANGE_LINK_TARGET_CHANGED,
	CHANGE_VALUE_SHAPE_CHANGED,
	CHANGE_VALUE_SHAPE_WIDENED,	/* the new shape includes the old */
	CHANGE_BECAME_UNREADABLE,
	/* syscalls: the subject is "ABI/NAME" */
	CHANGE_SYSCALL_REMOVED,
	CHANGE_SYSCALL_ADDED,
	CHANGE_SYSCALL_RENUMBERED,
	CHANGE_SYSCALL_ARGS_CHANGED,
	CHANGE_SYSCALL_ARG_POINTEE_CHANGED,	/* same size and class */
	/* the vDSO: the subject is "IMAGE/SYMBOL" */
	CHANGE_VDSO_SYMBOL_REMOVED,
	CHANGE_VDSO_SYMBOL_ADDED,
	CHANGE_VDSO_SYMBOL_REVERSIONED,		/* another version, or none */
	CHANGE_VDSO_PROTOTYPE_CHANGED,
	CHANGE_VDSO_ARG_POINTEE_CHANGED,	/* same size and class */
	/* types: the subject is the type's name, or "TYPE.MEMBER" */
	CHANGE_TYPE_REMOVED,
	CHANGE_TYPE_ADDED,
	CHANGE_TYPE_KIND_CHANGED,
	CHANGE_TYPE_SIZE_CHANGED,
	CHANGE_TYPE_EXTENDED,		/* an extensible struct grew at its end */
	CHANGE_TYPEDEF_CHANGED,
	CHANGE_MEMBER_REMOVED,
	CHANGE_MEMBER_ADDED,
	CHANGE_MEMBER_RENAMED,
	CHANGE_MEMBER_RESERVED_USED,	/* a new member in reserved space */
	CHANGE_MEMBER_OFFSET_CHANGED,
	CHANGE_MEMBER_SIZE_CHANGED,
	CHANGE_MEMBER_TYPE_CHANGED,
	CHANGE_ENUMERATOR_REMOVED,
	CHANGE_ENUMERATOR_ADDED,
	CHANGE_ENUMERATOR_VALUE_CHANGED,
	CHANGE_ENUMERATOR_LIMIT_CHANGED,	/* a FOO_MAX, NUM_FOO, ... moved */
	/* Documentation/ABI: the subject is the entry's first What: */
	CHANGE_DOC_DEMOTED,		/* to a less stable level */
	CHANGE_DOC_REMOVED_EARLY,	/* to removed/ not through obsolete/ */
	CHANGE_DOC_DROPPED,		/* gone from the tree */
	CHANGE_DOC_DROPPED_LIVE,	/* gone, its interface still there */
	CHANGE_DOC_MOVED,		/* the same interface at another What: */
	CHANGE_DOC_OBSOLETED,
	CHANGE_DOC_RETIRED,		/* obsolete/ to removed/ */
	CHANGE_DOC_PROMOTED,
	CHANGE_DOC_ADDED,

	CHANGE_ATTR_REMOVED,		/* the code defines it no more */
	CHANGE_ATTR_MODE_LOST,		/* a permission bit went away */
	CHANGE_MODULE_REMOVED,		/* a module with attributes is gone */
	CHANGE_KIND_COUNT,
};

/* The snapshot part a change is about, and so what its refs index. */
enum change_part {
	PART_SYSFS,
	PART_SYSCALLS,
	PART_VDSO,
	PART_TYPES,
	PART_DOCS,
	PART_CENSUS,
	PART_COUNT,
};

/*
 * One change.  @old and @new describe the subject before and after in a
 * few words ("0644", "file 0444 uint", "struct foo * (8 bytes)"); NULL
 * where it did not exist.  @old_ref and @new_ref index the record of the
 * part (change_kind__part()) in the old and the new snapshot, or are -1.
 *
 * A change about several nodes at once (every instance of a What: pattern
 * gone, sysfs.c explains when) has a pattern for @subject, the paths of
 * the nodes in @instances, and its refs index the first of them.
 */
struct change {
	enum change_kind kind;
	char *subject;
	char *old;
	char *new;
	int32_t old_ref;
	int32_t new_ref;
	char **instances;	/* NULL when about @subject alone */
	size_t nr_instances;
};

struct diff {
	struct change *v;
	size_t nr;
	size_t alloc;
	bool compared[PART_COUNT];	/* both snapshots had the part */
	/*
	 * Which of OLD's doc entries documents each sysfs node of OLD, as
	 * docmatch__run(old, old) finds it, when the diff matched them
	 * (both sides have sysfs, OLD has docs), else NULL: the policy
	 * judges by it and need not match them again.
	 */
	int32_t *old_entry;
	/*
	 * The same for OLD's census attributes, as census_join__run(old,
	 * old) joins them, when both sides have a census and OLD docs.
	 */
	int32_t *old_census_entry;
};

/*
 * diff_add() - append a change of @kind about @subject to @d, with @old and
 * @new descriptions (copied; NULL for none) and the records it is about.
 * Returns 0 or -ENOMEM.
 */
int diff_add(struct diff *d, enum change_kind kind, const char *subject,
	     const char *old, const char *new, int32_t old_ref, int32_t new_ref);

/*
 * diff_add_instances() - diff_add(), for a change about the @nr nodes
 * whose paths are @instances (copied).  Returns 0 or -ENOMEM.
 */
int diff_add_instances(struct diff *d, enum change_kind kind,
		       const char *subject, const char *old, const char *new,
		       int32_t old_ref, int32_t new_ref,
		       const char *const *instances, size_t nr);

/* diff__release() - free the changes of @d and their strings. */
void diff__release(struct diff *d);

const char *change_kind__name(enum change_kind kind);
/* change_kind__parse() - 0 and the kind in @out, or -EINVAL. */
int change_kind__parse(const char *name, enum change_kind *out);
enum change_class change_kind__class(enum change_kind kind);
enum change_part change_kind__part(enum change_kind kind);

/* change_part__name() - "sysfs", "syscalls", "vdso", "types" or "docs". */
const char *change_part__name(enum change_part part);

const char *change_class__name(enum change_class class);
/* change_class__parse() - 0 and the class in @out, or -EINVAL. */
int change_class__parse(const char *name, enum change_class *out);

#endif /* KABIDIFF_DIFF_CHANGE_H */
