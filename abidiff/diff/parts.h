/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the diff: each part's comparison, called by the driver (diff.c).
 * A part depends on the taxonomy (change.h) and on nothing of the driver's;
 * the syscall part uses the type part's equivalence of spellings, the
 * vDSO part the syscall part's comparison of signatures.
 */
#ifndef KABIDIFF_DIFF_PARTS_H
#define KABIDIFF_DIFF_PARTS_H

#include "lib/bytes.h"
#include "match/docmatch.h"
#include "model/model.h"
#include "change.h"

/*
 * Which of OLD's doc entries documents each sysfs node of either side, as
 * docmatch__run() finds it: the promise judged is OLD's.  An index into
 * old->docs.v, or -1; both NULL when the sysfs part is not compared or OLD
 * has no docs.
 */
struct doc_matches {
	int32_t *old_entry;	/* per node of OLD */
	int32_t *new_entry;	/* per node of NEW */
	/* every What: line of OLD's docs matching each node of either side */
	struct docmatch_hits old_hits, new_hits;
};

/* Each compares one part of @old and @new and appends its changes to @d. */
int diff_sysfs(const struct snapshot *old, const struct snapshot *new,
	       const struct doc_matches *m, struct diff *d);
int diff_syscalls(const struct snapshot *old, const struct snapshot *new,
		  struct diff *d);
int diff_vdso(const struct snapshot *old, const struct snapshot *new,
	      struct diff *d);
int diff_types(const struct snapshot *old, const struct snapshot *new,
	       struct diff *d);
int diff_docs(const struct snapshot *old, const struct snapshot *new,
	      const struct doc_matches *m, struct diff *d);
/* ... and the census, leaving OLD's joins (or NULL) in *@old_entry. */
int diff_census(const struct snapshot *old, const struct snapshot *new,
		int32_t **old_entry, struct diff *d);

/*
 * A function's signature, compared as syscalls.c explains: its arguments
 * and, for a vDSO symbol, its return type (NULL for a syscall).
 */
struct signature {
	const struct syscall_arg *ret;
	const struct syscall_arg *args;
	size_t nr_args;
};

/*
 * diff_signature() - compare signature @a, of record @i of @old, with @b,
 * of record @j of @new: one @changed change about @subject for another
 * count of arguments, an argument (or return type) of another size or
 * class, or a return type on one side only; else one @pointee change per
 * pointer that points to another type.  Returns 0 or -ENOMEM.
 */
int diff_signature(const struct snapshot *old, const struct snapshot *new,
		   const struct signature *a, const struct signature *b,
		   const char *subject, int32_t i, int32_t j,
		   enum change_kind changed, enum change_kind pointee,
		   struct diff *d);

/*
 * types_ref_equiv() - do C type spelling @a, resolved to @ra in @old, and
 * @b, resolved to @rb in @new (type_ref__parse()), name the same layout?
 * Typedefs are looked through and differently named structures compared
 * member by member (types.c explains how).  Returns 1, 0, or -ENOMEM.
 */
int types_ref_equiv(const struct snapshot *old, const struct snapshot *new,
		    const char *a, const struct type_ref *ra,
		    const char *b, const struct type_ref *rb);

#endif /* KABIDIFF_DIFF_PARTS_H */
