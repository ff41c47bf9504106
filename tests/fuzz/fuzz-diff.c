// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the diff, the policy and the reports.
 *
 * The input is two snapshots, OLD and NEW, separated by its first NUL byte
 * (without one, the input is compared with itself).  Each is loaded through
 * a memfd (snapshot__load() opens a path); when both load, they are
 * diffed, judged by the default policy, and rendered in every format to
 * /dev/null.  Besides what ASan and UBSan catch, the harness aborts when a
 * snapshot compared with itself shows a change, when a change has no
 * subject, or when the verdict counts do not add up.  The corpus starts
 * from the hand-made pairs of tests/fixtures/diff.
 *
 *   make fuzz-build && build/fuzz/fuzz-diff build/fuzz/corpus-diff
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff/diff.h"
#include "lib/print.h"
#include "model/json-arena.h"
#include "model/snapshot-json.h"
#include "notify/notify.h"
#include "policy/policy.h"
#include "report/report.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the loads go through the arena, as the program's do */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	json_arena__install();
	return 0;
}

static struct snapshot *load(const uint8_t *data, size_t size)
{
	struct snapshot *s;
	char path[64];
	int fd = memfd_create("fuzz-diff", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = snapshot__load(path);
	close(fd);
	return s;
}

static void judge_and_render(const struct snapshot *old,
			     const struct snapshot *new, bool same)
{
	struct judgement j = { 0 };
	struct notify n = { 0 };
	struct diff d = { 0 };
	struct policy p;
	FILE *null = fopen("/dev/null", "w");
	size_t i;

	if (!null)
		abort();
	policy__init(&p);
	if (diff__run(old, new, &d) || policy__judge(&p, NULL, old, new, &d, &j))
		abort();	/* only -ENOMEM is possible, and ASan has a limit */
	if (same && d.nr) {
		fprintf(stderr, "fuzz-diff: a snapshot differs from itself: %s %s\n",
			change_kind__name(d.v[0].kind), d.v[0].subject);
		abort();
	}
	for (i = 0; i < d.nr; i++)
		if (!d.v[i].subject || !change_kind__name(d.v[i].kind))
			abort();
	if (j.count[VERDICT_NOTE] + j.count[VERDICT_WARN] +
	    j.count[VERDICT_BREAK] + j.waived != d.nr)
		abort();
	if (notify__build(&n, &j, NULL) ||
	    show_report_text(&j, NULL, NULL, &n, null, true) ||
	    show_report_json(&j, NULL, &n, null) ||
	    show_report_markdown(&j, NULL, &n, null))
		abort();
	notify__release(&n);
	fclose(null);
	judgement__release(&j);
	diff__release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t old_size = nul ? (size_t)(nul - data) : size;
	struct snapshot *old, *new = NULL;

	kabi_set_print(NULL);
	old = load(data, old_size);
	if (old && nul)
		new = load(nul + 1, size - old_size - 1);
	if (old && (new || !nul))
		judge_and_render(old, new ? new : old, !nul);
	snapshot__free(old);
	snapshot__free(new);
	return 0;
}
