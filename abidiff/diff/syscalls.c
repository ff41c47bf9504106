// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall part of the diff: syscalls are paired by (ABI, name), and
 * their numbers and argument types compared.
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

static int syscall_index_cmp(const void *pa, const void *pb, void *base)
{
	const struct syscall *v = base;

	return syscall_key_cmp(&v[*(const int32_t *)pa], &v[*(const int32_t *)pb]);
}

/* The implemented syscalls of @s in (ABI, name) order; NULL (ENOMEM). */
static int32_t *index_syscalls(const struct snapshot *s, size_t *nr)
{
	int32_t *idx = malloc((s->syscalls.nr + 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	*nr = 0;
	for (i = 0; i < s->syscalls.nr; i++)
		if (s->syscalls.v[i].implemented)
			idx[(*nr)++] = i;
	qsort_r(idx, *nr, sizeof(*idx), syscall_index_cmp, s->syscalls.v);
	return idx;
}

static bool args_known(const struct syscall *sc)
{
	return sc->sources & (SYSCALL_SRC_DWARF | SYSCALL_SRC_FTRACE);
}

/* "(unsigned int fd, char * buf)", malloc()ed; NULL (ENOMEM). */
static char *describe_args(const struct syscall *sc)
{
	char *s = strdup("("), *next;
	size_t i;

	for (i = 0; s && i < sc->nr_args; i++) {
		next = xasprintf("%s%s%s %s", s, i ? ", " : "",
				 sc->args[i].type, sc->args[i].name);
		free(s);
		s = next;
	}
	next = s ? xasprintf("%s)", s) : NULL;
	free(s);
	return next;
}

static int args_equiv(const struct snapshot *old, const struct snapshot *new,
		      const struct syscall *a, const struct syscall *b)
{
	size_t i;
	int same = a->nr_args == b->nr_args;

	for (i = 0; same > 0 && i < a->nr_args; i++)
		same = types_ref_equiv(old, new, a->args[i].type,
				       &a->args[i].type_ref, b->args[i].type,
				       &b->args[i].type_ref);
	return same;
}

static int compare_syscall(const struct snapshot *old, const struct snapshot *new,
			   int32_t i, int32_t j, struct diff *d)
{
	const struct syscall *a = &old->syscalls.v[i], *b = &new->syscalls.v[j];
	char *subject = xasprintf("%s/%s", a->abi, a->name);
	char *was = NULL, *now = NULL;
	int err = subject ? 0 : -ENOMEM, same = 1;

	if (!err && a->nr != b->nr) {
		was = xasprintf("nr %u", a->nr);
		now = xasprintf("nr %u", b->nr);
		err = was && now ? diff_add(d, CHANGE_SYSCALL_RENUMBERED, subject,
					    was, now, i, j) : -ENOMEM;
		free(was);
		free(now);
	}
	if (!err && args_known(a) && args_known(b))
		same = args_equiv(old, new, a, b);
	if (!err && same < 0)
		err = same;
	if (!err && !same) {
		was = describe_args(a);
		now = describe_args(b);
		err = was && now ? diff_add(d, CHANGE_SYSCALL_ARGS_CHANGED, subject,
					    was, now, i, j) : -ENOMEM;
		free(was);
		free(now);
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
	int32_t *a = index_syscalls(old, &nr_a);
	int32_t *b = index_syscalls(new, &nr_b);
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
