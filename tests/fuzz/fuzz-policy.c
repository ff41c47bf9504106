// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the policy and waiver file parsers.
 *
 * The input is written to a memfd (both loaders open a path) and read
 * twice: as a policy file by policy__load() and as a waiver file by
 * waivers__load().  Besides what ASan and UBSan catch, the harness aborts
 * when a loader returns what its contract does not allow (0, -EINVAL or
 * -ENOMEM), refuses without saying why in one "PATH:..." line, or loads
 * what docs/policy.md refuses: a cell that holds no verdict, a cap of no
 * pattern or at the level undocumented, a waiver of an unknown kind, with
 * an empty pattern or reason, or of the kind and pattern of an earlier one.
 *
 * Then whatever loaded judges a small fixed diff (sysfs removals under and
 * outside debugfs, a lost mode bit, a removed syscall).  Each finding must
 * have a known level and verdict, be accepted only by a waiver that matches
 * it and, when none accepted it, match no waiver at all; the counts must add
 * up.
 *
 *   make fuzz-build && build/fuzz/fuzz-policy build/fuzz/corpus-policy
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff/diff.h"
#include "lib/compiler.h"
#include "lib/print.h"
#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static unsigned int errors;
static char first_error[256];

static void count_errors(enum kabi_print_level level, const char *fmt,
			 va_list ap)
{
	if (level == KABI_ERROR && !errors++)
		vsnprintf(first_error, sizeof(first_error), fmt, ap);
}

static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz-policy: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* @err is what @what may return, with one message if it is an error. */
static void check_result(int err, const char *what)
{
	if (err && err != -EINVAL && err != -ENOMEM)
		fail("%s returned %d", what, err);
	if (!err && errors)
		fail("%s succeeded but said: %s", what, first_error);
	if (err == -EINVAL && (errors != 1 ||
			       strncmp(first_error, path, strlen(path)) ||
			       first_error[strlen(path)] != ':'))
		fail("%s refused with %u messages, the first '%s'", what,
		     errors, first_error);
}

static void check_policy(const struct policy *p)
{
	size_t i;
	int k, l;

	for (k = 0; k < CHANGE_KIND_COUNT; k++)
		for (l = 0; l < LEVEL_COUNT; l++)
			if (p->cell[k][l] >= VERDICT_COUNT)
				fail("cell %s/%s holds %d",
				     change_kind__name(k), abi_level__name(l),
				     p->cell[k][l]);
	for (i = 0; i < p->nr_caps; i++)
		if (!p->caps[i].pattern || !p->caps[i].pattern[0] ||
		    (!p->caps[i].none && p->caps[i].level >= LEVEL_UNDOCUMENTED))
			fail("cap %zu has no pattern or level %d", i,
			     p->caps[i].level);
}

static bool same_waiver(const struct waiver *a, const struct waiver *b)
{
	return a->any_kind == b->any_kind &&
	       (a->any_kind || a->kind == b->kind) &&
	       !strcmp(a->pattern, b->pattern);
}

static void check_waivers(const struct waivers *w)
{
	size_t i, j;

	for (i = 0; i < w->nr; i++) {
		const struct waiver *wv = &w->v[i];

		if (!wv->pattern || !wv->pattern[0] || !wv->reason ||
		    !wv->reason[strspn(wv->reason, " \t\r")])
			fail("waiver %zu has no pattern or no reason", i);
		if (!wv->any_kind && !change_kind__name(wv->kind))
			fail("waiver %zu has kind %d", i, wv->kind);
		if (i && wv->line <= w->v[i - 1].line)
			fail("waiver %zu is on line %u, after line %u", i,
			     wv->line, w->v[i - 1].line);
		for (j = 0; j < i; j++)
			if (same_waiver(&w->v[j], wv))
				fail("the waivers of lines %u and %u are the same",
				     w->v[j].line, wv->line);
	}
}

static bool waives(const struct waiver *wv, const struct change *c)
{
	return (wv->any_kind || wv->kind == c->kind) &&
	       !fnmatch(wv->pattern, c->subject, 0);
}

/* The diff every input judges: built once, never changed. */
static struct snapshot *old, *new;
static struct diff d;

static void add_node(struct snapshot *s, const char *p, enum node_kind kind,
		     unsigned int mode)
{
	struct sysfs_node *n = snapshot__add_sysfs_node(s);

	if (!n)
		abort();
	n->path = strdup(p);
	if (!n->path)
		abort();
	n->kind = kind;
	n->mode = mode;
}

static void add_doc(const char *what, enum abi_level level, const char *file)
{
	struct doc_entry *e = snapshot__add_doc(old);

	if (!e)
		abort();
	e->file = strdup(file);
	if (!e->file || doc_entry__add_what(e, what))
		abort();
	e->level = level;
	e->line = 1;
}

static void make_diff(void)
{
	struct syscall *sc;

	old = snapshot__new();
	new = snapshot__new();
	if (!old || !new)
		abort();
	add_node(old, "/sys", NODE_DIR, 0555);
	add_node(old, "/sys/kabi", NODE_DIR, 0755);
	add_node(old, "/sys/kabi/attr", NODE_FILE, 0644);
	add_node(old, "/sys/kabi/undoc", NODE_FILE, 0444);
	add_node(old, "/sys/kernel", NODE_DIR, 0755);
	add_node(old, "/sys/kernel/debug", NODE_DIR, 0700);
	add_node(old, "/sys/kernel/debug/kabi", NODE_FILE, 0444);
	add_node(new, "/sys", NODE_DIR, 0555);
	add_node(new, "/sys/kabi", NODE_DIR, 0755);
	add_node(new, "/sys/kabi/attr", NODE_FILE, 0444);
	add_node(new, "/sys/kernel", NODE_DIR, 0755);
	add_node(new, "/sys/kernel/debug", NODE_DIR, 0700);
	add_doc("/sys/kabi/attr", LEVEL_TESTING, "testing/sysfs-kabi");
	add_doc("/sys/kernel/debug/kabi", LEVEL_STABLE, "stable/sysfs-kabi");
	add_doc("/sys/nowhere", LEVEL_OBSOLETE, "obsolete/sysfs-kabi");
	sc = snapshot__add_syscall(old);
	if (!sc)
		abort();
	sc->abi = strdup("x86_64");
	sc->name = strdup("kabi_test");
	if (!sc->abi || !sc->name)
		abort();
	sc->nr = 500;
	sc->implemented = true;
	new->syscalls.collected = true;
	new->docs.collected = true;
	if (snapshot__sort(old, "old") || snapshot__sort(new, "new") ||
	    diff__run(old, new, &d) || !d.nr)
		abort();
}

static void judge(const struct policy *p, struct waivers *w)
{
	struct judgement j = { 0 };
	size_t i, k, counted = 0, matched = 0;

	if (policy__judge(p, w, old, new, &d, &j))
		abort();	/* only -ENOMEM is possible, and ASan has a limit */
	for (i = 0; i < j.nr; i++) {
		const struct finding *f = &j.v[i];

		if (f->level >= LEVEL_COUNT || f->verdict >= VERDICT_COUNT)
			fail("%s: level %d, verdict %d", f->change->subject,
			     f->level, f->verdict);
		if (f->waiver && !waives(f->waiver, f->change))
			fail("%s: accepted by line %u, which does not match it",
			     f->change->subject, f->waiver->line);
		for (k = 0; w && !f->waiver && k < w->nr; k++)
			if (waives(&w->v[k], f->change))
				fail("%s: line %u matches it but did not accept it",
				     f->change->subject, w->v[k].line);
	}
	for (i = 0; i < VERDICT_COUNT; i++)
		counted += j.count[i];
	for (i = 0; w && i < w->nr; i++)
		matched += w->v[i].matched;
	if (j.nr != d.nr || counted + j.waived != d.nr || matched != j.waived)
		fail("%zu findings of %zu changes, %zu counted, %zu waived, %zu matched",
		     j.nr, d.nr, counted, j.waived, matched);
	judgement__release(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct waivers w = { 0 };
	struct policy p;
	int fd, policy_err, waivers_err;

	if (!old)
		make_diff();
	kabi_set_print(count_errors);
	fd = memfd_create("fuzz-policy", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	policy__init(&p);
	errors = 0;
	policy_err = policy__load(&p, path);
	check_result(policy_err, "policy__load");
	errors = 0;
	waivers_err = waivers__load(&w, path);
	check_result(waivers_err, "waivers__load");
	close(fd);

	if (policy_err) {
		policy__release(&p);
		policy__init(&p);
	}
	check_policy(&p);
	if (!waivers_err)
		check_waivers(&w);
	judge(&p, waivers_err ? NULL : &w);
	policy__release(&p);
	waivers__release(&w);
	return 0;
}
