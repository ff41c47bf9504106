// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall part of the diff: syscalls are paired by (ABI, name), and
 * their numbers and argument types compared, in each ABI whose table both
 * snapshots collected (a snapshot older than the ia32 and x32 tables has
 * only x86_64's; the judging warns of the others).  An argument spelt another
 * way that names the same layout is no change (types_ref_equiv()); a
 * pointer that points to another type is still a pointer, which the
 * caller passes alike, so it is only worth a look
 * (syscall-arg-pointee-changed) unless what it points to has another
 * known size.  That comparison of signatures, diff_signature(), serves
 * the vDSO part too, which adds a return type to it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

/* Syscalls are known by (ABI, name): a number is what may change. */
static int syscall_key_cmp(const struct syscall *a, const struct syscall *b)
{
	int c = strcmp(a->abi, b->abi);

	return c ? c : strcmp(a->name, b->name);
}

/*
 * Names are unique in an ABI when syscall_*.tbl gave them, not always when
 * entry points did (ia32's fcntl and fcntl64 both run compat_sys_fcntl64):
 * ties go by number, so that the merge pairs them in that order.
 */
static int syscall_index_cmp(const void *pa, const void *pb, void *base)
{
	const struct syscall *v = base;
	const struct syscall *a = &v[*(const int32_t *)pa];
	const struct syscall *b = &v[*(const int32_t *)pb];
	int c = syscall_key_cmp(a, b);

	return c ? c : (a->nr > b->nr) - (a->nr < b->nr);
}

/*
 * The implemented syscalls of @s in (ABI, name) order, of the ABIs @other
 * collected too; NULL (ENOMEM).
 */
static int32_t *index_syscalls(const struct snapshot *s,
			       const struct snapshot *other, size_t *nr)
{
	int32_t *idx = malloc((s->syscalls.nr + 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	*nr = 0;
	for (i = 0; i < s->syscalls.nr; i++)
		if (s->syscalls.v[i].implemented &&
		    snapshot__has_syscall_abi(other, s->syscalls.v[i].abi))
			idx[(*nr)++] = i;
	qsort_r(idx, *nr, sizeof(*idx), syscall_index_cmp, s->syscalls.v);
	return idx;
}

static bool args_known(const struct syscall *sc)
{
	return sc->sources & (SYSCALL_SRC_DWARF | SYSCALL_SRC_FTRACE);
}

/* Where a signature compares its return type: after its arguments. */
static size_t nr_slots(const struct signature *sig)
{
	return sig->nr_args + !!sig->ret;
}

static const struct syscall_arg *slot(const struct signature *sig, size_t k)
{
	return k < sig->nr_args ? &sig->args[k] : sig->ret;
}

/*
 * "(unsigned int fd, char * buf)", or with a return type "int (clockid_t
 * clock, struct __kernel_timespec * ts)", malloc()ed; NULL (ENOMEM).
 */
static char *describe_signature(const struct signature *sig)
{
	char *s = sig->ret ? xasprintf("%s (", sig->ret->type) : strdup("("), *next;
	size_t i;

	for (i = 0; s && i < sig->nr_args; i++) {
		next = xasprintf("%s%s%s %s", s, i ? ", " : "",
				 sig->args[i].type, sig->args[i].name ?: "");
		free(s);
		s = next;
	}
	next = s ? xasprintf("%s)", s) : NULL;
	free(s);
	return next;
}

/*
 * Is the argument spelt @type (resolved @ref) in @s a data pointer?  1
 * with the size of what it points to in *@pointee (0 when unknown: void,
 * a declared-only type), 0, or -ENOMEM.
 */
static int data_pointer(const struct snapshot *s, const char *type,
			const struct type_ref *ref, uint64_t *pointee)
{
	struct type_ref r = { .base = -1 };
	const char *text, *decl;
	size_t n;
	int yes;

	if (type_ref__resolve(s, type, ref, &r, &text))
		return -ENOMEM;
	decl = r.base >= 0 ? (r.declarator ? r.declarator : "") : text;
	n = strlen(decl);
	yes = n && decl[n - 1] == '*';
	*pointee = 0;
	if (yes && r.base >= 0 && !strcmp(decl, "*") &&
	    !s->types.v[r.base].incomplete)
		*pointee = s->types.v[r.base].size;
	else if (yes && r.base >= 0 && n > 1 && decl[n - 2] == '*')
		*pointee = sizeof(void *);	/* to another pointer */
	type_ref__release(&r);
	return yes;
}

/*
 * How argument @k changed: 0 not at all, 1 in its pointee only (both
 * pointers, which keeps the size and class the caller passes, and the
 * pointees not two known sizes that differ: an int * that became a
 * long * has the kernel write beyond the caller's int), 2 otherwise,
 * and always when the size an ILP32 ABI passes changed; or -ENOMEM.
 */
static int arg_change(const struct snapshot *old, const struct snapshot *new,
		      const struct syscall_arg *a, const struct syscall_arg *b)
{
	uint64_t sa, sb;
	int same, pa, pb;

	if (a->abi_size && b->abi_size && a->abi_size != b->abi_size)
		return 2;
	same = types_ref_equiv(old, new, a->type, &a->type_ref, b->type,
			       &b->type_ref);
	if (same)
		return same < 0 ? same : 0;
	pa = data_pointer(old, a->type, &a->type_ref, &sa);
	pb = data_pointer(new, b->type, &b->type_ref, &sb);
	if (pa < 0 || pb < 0)
		return -ENOMEM;
	if (!pa || !pb || (sa && sb && sa != sb))
		return 2;
	return 1;
}

/* "int * mnt_id (arg 4)", "void * (return)" */
static char *describe_slot(const struct signature *sig, size_t k)
{
	const struct syscall_arg *arg = slot(sig, k);

	if (k == sig->nr_args)
		return xasprintf("%s (return)", arg->type);
	return xasprintf("%s %s (arg %zu)", arg->type, arg->name ?: "", k + 1);
}

/* One pointer argument (or return type) that points elsewhere. */
static int add_pointee_change(struct diff *d, enum change_kind kind,
			      const char *subject, size_t k,
			      const struct signature *a,
			      const struct signature *b, int32_t i, int32_t j)
{
	char *was = describe_slot(a, k), *now = describe_slot(b, k);
	int err = was && now ? diff_add(d, kind, subject, was, now, i, j) :
		  -ENOMEM;

	free(was);
	free(now);
	return err;
}

int diff_signature(const struct snapshot *old, const struct snapshot *new,
		   const struct signature *a, const struct signature *b,
		   const char *subject, int32_t i, int32_t j,
		   enum change_kind changed, enum change_kind pointee,
		   struct diff *d)
{
	size_t n = nr_slots(a), k;
	int *how = calloc(n + 1, sizeof(*how));
	int worst = n == nr_slots(b) && !a->ret == !b->ret ? 0 : 2, err = 0;
	char *was, *now;

	if (!how)
		return -ENOMEM;
	for (k = 0; worst < 2 && k < n; k++) {
		how[k] = arg_change(old, new, slot(a, k), slot(b, k));
		if (how[k] < 0) {
			err = how[k];
			free(how);
			return err;
		}
		worst = how[k] > worst ? how[k] : worst;
	}
	if (worst == 2) {
		was = describe_signature(a);
		now = describe_signature(b);
		err = was && now ? diff_add(d, changed, subject, was, now, i, j) :
		      -ENOMEM;
		free(was);
		free(now);
	}
	for (k = 0; !err && worst == 1 && k < n; k++)
		if (how[k] == 1)
			err = add_pointee_change(d, pointee, subject, k, a, b, i, j);
	free(how);
	return err;
}

static int compare_syscall(const struct snapshot *old, const struct snapshot *new,
			   int32_t i, int32_t j, struct diff *d)
{
	const struct syscall *a = &old->syscalls.v[i], *b = &new->syscalls.v[j];
	char *subject = xasprintf("%s/%s", a->abi, a->name);
	char *was = NULL, *now = NULL;
	int err = subject ? 0 : -ENOMEM;

	if (!err && a->nr != b->nr) {
		was = xasprintf("nr %u", a->nr);
		now = xasprintf("nr %u", b->nr);
		err = was && now ? diff_add(d, CHANGE_SYSCALL_RENUMBERED, subject,
					    was, now, i, j) : -ENOMEM;
		free(was);
		free(now);
	}
	if (!err && args_known(a) && args_known(b)) {
		struct signature sa = { .args = a->args, .nr_args = a->nr_args };
		struct signature sb = { .args = b->args, .nr_args = b->nr_args };

		err = diff_signature(old, new, &sa, &sb, subject, i, j,
				     CHANGE_SYSCALL_ARGS_CHANGED,
				     CHANGE_SYSCALL_ARG_POINTEE_CHANGED, d);
	}
	free(subject);
	return err;
}

/* One syscall present on one side only. */
static int syscall_alone(const struct snapshot *s, int32_t i, bool removed,
			 struct diff *d)
{
	const struct syscall *sc = &s->syscalls.v[i];
	char *subject = xasprintf("%s/%s", sc->abi, sc->name);
	char *what = xasprintf("nr %u", sc->nr);
	int err = -ENOMEM;

	if (subject && what)
		err = removed ?
		      diff_add(d, CHANGE_SYSCALL_REMOVED, subject, what, NULL, i, -1) :
		      diff_add(d, CHANGE_SYSCALL_ADDED, subject, NULL, what, -1, i);
	free(subject);
	free(what);
	return err;
}

/* A merge of both sides in (ABI, name) order. */
int diff_syscalls(const struct snapshot *old, const struct snapshot *new,
		  struct diff *d)
{
	size_t nr_a, nr_b, i = 0, j = 0;
	int32_t *a = index_syscalls(old, new, &nr_a);
	int32_t *b = index_syscalls(new, old, &nr_b);
	int err = a && b ? 0 : -ENOMEM;

	while (!err && (i < nr_a || j < nr_b)) {
		int c = i == nr_a ? 1 : j == nr_b ? -1 :
			syscall_key_cmp(&old->syscalls.v[a[i]],
					&new->syscalls.v[b[j]]);

		if (c < 0)
			err = syscall_alone(old, a[i++], true, d);
		else if (c > 0)
			err = syscall_alone(new, b[j++], false, d);
		else
			err = compare_syscall(old, new, a[i++], b[j++], d);
	}
	free(a);
	free(b);
	return err;
}
