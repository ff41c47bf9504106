// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bisect engine of 'kabidiff bisect': find the commit that broke a
 * documented interface.  The good revision is built and collected as the
 * baseline; then the first-parent history from there to the bad revision
 * is bisected, each step built and collected and judged against the
 * baseline: a break is bad, no break is good, a build or collection that
 * fails is skipped.
 *
 * The user's repository is only read.  Each commit is checked out with
 * libgit2 into kabidiff's own directory in the cache, against the tree
 * checked out there before, so only the files that differ are written and
 * the out-of-tree build that follows is incremental; the repository's
 * index, HEAD and working tree are never touched, however the run ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "lib/atomic-file.h"
#include "lib/bytes.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "lib/run-command.h"
#include "model/snapshot-json.h"
#include "bisect.h"
#include "cache.h"
#include "collect.h"
#include "exit-status.h"
#include "judge.h"

/* The configure-and-build script when no --build-cmd is given. */
static const char default_build[] =
	"set -e\n"
	"if [ ! -f \"$KABIDIFF_BUILD/.config\" ]; then\n"
	"	if [ -n \"$KABIDIFF_CONFIG\" ]; then\n"
	"		make -s O=\"$KABIDIFF_BUILD\" tinyconfig\n"
	"		scripts/kconfig/merge_config.sh -m -O \"$KABIDIFF_BUILD\" \\\n"
	"			\"$KABIDIFF_BUILD/.config\" \"$KABIDIFF_CONFIG\"\n"
	"	else\n"
	"		make -s O=\"$KABIDIFF_BUILD\" defconfig\n"
	"	fi\n"
	"fi\n"
	"make -s O=\"$KABIDIFF_BUILD\" olddefconfig\n"
	"make -s O=\"$KABIDIFF_BUILD\" -j\"$(nproc)\" vmlinux bzImage\n";

enum step_state { UNTESTED, GOOD, BAD, SKIPPED };

struct bisect {
	git_repository *repo;
	char *dir;		/* the state directory in the cache */
	char *src, *build, *log, *checked_out;
	git_oid *commits;	/* GOOD (excluded) .. BAD, oldest first */
	enum step_state *state;
	size_t nr;
	git_oid good;
	struct snapshot *baseline;
	const struct bisect_options *o;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
	run_command__stop();
}

static void report_git_error(const char *what)
{
	const git_error *e = git_error_last();

	pr_err("%s: %s", what, e && e->message ? e->message : "libgit2 failed");
}

/* "DIR/NAME", malloc()ed; NULL (ENOMEM). */
static char *join(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/*
 * The state directory: one per repository, configuration, build command
 * and snapshot format, so that a build directory is never reused for
 * another config, nor a commit's snapshot by a kabidiff that writes
 * another format (a version 2 baseline has no vdso part to compare).
 */
static int make_state_dir(struct bisect *b, const char *repo_path)
{
	char *real = realpath(repo_path, NULL), *config = NULL, *top;
	uint64_t h = FNV1A64_BASIS;
	size_t len = 0;
	const char *parts[4];
	char format[16];
	int err = 0, p;

	if (!real)
		return -errno;
	if (b->o->config)
		err = read_file_or_report(b->o->config, SMALL_FILE_MAX, &config,
					  &len);
	parts[0] = real;
	parts[1] = config ? config : "";
	parts[2] = b->o->build_cmd ? b->o->build_cmd : "";
	snprintf(format, sizeof(format), "%d", SNAPSHOT_VERSION);
	parts[3] = format;
	for (p = 0; !err && p < 4; p++)
		h = fnv1a64(h, parts[p], strlen(parts[p]) + 1);
	if (!err)
		err = cache_dir("bisect", &top);
	if (!err) {
		b->dir = xasprintf("%s/%016llx", top, (unsigned long long)h);
		err = b->dir ? 0 : -ENOMEM;
		free(top);
	}
	free(real);
	free(config);
	return err;
}

static int set_up_dirs(struct bisect *b)
{
	int err;

	b->src = join(b->dir, "src");
	b->build = join(b->dir, "build");
	b->log = join(b->dir, "build.log");
	b->checked_out = join(b->dir, "checked-out");
	if (!b->src || !b->build || !b->log || !b->checked_out)
		return -ENOMEM;
	err = make_dirs(b->build);
	if (err)
		pr_err("%s: %s", b->build, strerror(-err));
	return err;
}

static int resolve(struct bisect *b, const char *rev, git_oid *out)
{
	git_object *obj = NULL, *commit = NULL;
	int err = git_revparse_single(&obj, b->repo, rev);

	if (!err)
		err = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	if (err) {
		pr_err("%s: no commit '%s' in the repository", git_repository_path(b->repo),
		       rev);
	} else {
		git_oid_cpy(out, git_object_id(commit));
	}
	git_object_free(commit);
	git_object_free(obj);
	return err ? -EINVAL : 0;
}

/* The first-parent history from @bad back to @good, oldest first. */
static int list_commits(struct bisect *b, const git_oid *bad)
{
	git_oid id = *bad;
	size_t alloc = 0, i;
	int err = 0;

	while (!err && !git_oid_equal(&id, &b->good)) {
		git_commit *c = NULL;

		if (b->nr == alloc) {
			void *v = realloc(b->commits, (alloc = alloc ? 2 * alloc : 64) *
					  sizeof(*b->commits));

			if (!v)
				return -ENOMEM;
			b->commits = v;
		}
		git_oid_cpy(&b->commits[b->nr++], &id);
		if (git_commit_lookup(&c, b->repo, &id) || !git_commit_parentcount(c)) {
			pr_err("the good revision is not in the first-parent history of the bad one");
			err = -EINVAL;
		} else {
			git_oid_cpy(&id, git_commit_parent_id(c, 0));
		}
		git_commit_free(c);
	}
	for (i = 0; i < b->nr / 2; i++) {
		git_oid tmp = b->commits[i];

		b->commits[i] = b->commits[b->nr - 1 - i];
		b->commits[b->nr - 1 - i] = tmp;
	}
	b->state = calloc(b->nr + 1, sizeof(*b->state));
	return err ? err : b->state ? 0 : -ENOMEM;
}

static int write_line(FILE *f, void *line)
{
	return fprintf(f, "%s\n", (const char *)line) < 0 ? -EIO : 0;
}

/* The commit last checked out into the source directory, if known. */
static bool last_checkout(struct bisect *b, git_oid *id)
{
	char *hex = NULL;
	size_t len;
	bool known;

	/* read_file() reports nothing: no file is no error */
	known = !read_file(b->checked_out, SMALL_FILE_MAX, &hex, &len) &&
		len >= GIT_OID_HEXSZ && !git_oid_fromstrn(id, hex, GIT_OID_HEXSZ);
	free(hex);
	return known;
}

/* Called before each file a checkout writes: non-zero cancels it. */
static int stop_if_interrupted(git_checkout_notify_t why, const char *path,
			       const git_diff_file *baseline,
			       const git_diff_file *target,
			       const git_diff_file *workdir, void *payload)
{
	return interrupted ? -1 : 0;
}

/*
 * Write the tree of @id into the source directory.  Against the tree that
 * is there (as recorded after the last complete checkout) only the files
 * that differ are written, so their times tell make what to rebuild; when
 * nothing is recorded (first run, or one interrupted mid-checkout) the
 * directory is emptied and everything written.  The repository's own index
 * is neither used nor written.
 */
static int checkout(struct bisect *b, const git_oid *id)
{
	git_checkout_options opts = GIT_CHECKOUT_OPTIONS_INIT;
	git_commit *commit = NULL, *before = NULL;
	git_tree *baseline = NULL;
	git_index *empty = NULL;
	git_oid last;
	char hex[GIT_OID_HEXSZ + 2];
	int err;

	if (last_checkout(b, &last) && !git_commit_lookup(&before, b->repo, &last) &&
	    !git_commit_tree(&baseline, before)) {
		opts.baseline = baseline;
	} else {
		remove_tree(b->src);
		if (git_index_new(&empty))
			goto out_git;
		opts.baseline_index = empty;
	}
	unlink(b->checked_out);
	err = make_dirs(b->src);
	if (err) {
		pr_err("%s: %s", b->src, strerror(-err));
		goto out;
	}
	opts.notify_flags = GIT_CHECKOUT_NOTIFY_UPDATED;
	opts.notify_cb = stop_if_interrupted;
	opts.target_directory = b->src;
	opts.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED |
				 GIT_CHECKOUT_DONT_UPDATE_INDEX |
				 GIT_CHECKOUT_DONT_WRITE_INDEX;
	if (git_commit_lookup(&commit, b->repo, id) ||
	    git_checkout_tree(b->repo, (git_object *)commit, &opts))
		goto out_git;
	git_oid_tostr(hex, sizeof(hex), id);
	err = atomic_write(b->checked_out, ATOMIC_OWN_FILE, write_line, hex);
	goto out;
out_git:
	if (!interrupted)
		report_git_error(b->src);
	err = -EIO;
out:
	git_index_free(empty);
	git_tree_free(baseline);
	git_commit_free(before);
	git_commit_free(commit);
	return err;
}

/*
 * Run the build in the source directory, its output appended to the log,
 * in a process group of its own that a signal to us takes down with it.
 * Returns 0 when it succeeded.
 */
static int run_build(struct bisect *b)
{
	const char *argv[] = {
		"sh", "-c", b->o->build_cmd ? b->o->build_cmd : default_build, NULL
	};
	char *env[] = {
		xasprintf("KABIDIFF_SRC=%s", b->src),
		xasprintf("KABIDIFF_BUILD=%s", b->build),
		xasprintf("KABIDIFF_CONFIG=%s", b->o->config ? b->o->config : ""),
		NULL
	};
	struct child_process build = {
		.argv = argv, .dir = b->src, .env = (const char *const *)env,
		.own_group = true, .cancelled = &interrupted,
	};
	int err = env[0] && env[1] && env[2] ? 0 : -ENOMEM;
	size_t i;

	if (!err && interrupted)
		err = -EINTR;
	if (!err) {
		build.out_fd = build.err_fd =
			open(b->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (build.out_fd < 0) {
			err = -errno;
			pr_err("%s: %s", b->log, strerror(-err));
		}
	}
	if (!err) {
		err = run_command(&build);
		close(build.out_fd);
	}
	if (!err && !child_succeeded(&build))
		err = -ECHILD;
	for (i = 0; i < ARRAY_SIZE(env); i++)
		free(env[i]);
	return err;
}

static char *snapshot_path(struct bisect *b, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), id);
	return xasprintf("%s/%s.json", b->dir, hex);
}

/*
 * The snapshot of commit @id: from an earlier run if there is one, else
 * checked out, built and collected (and kept).  NULL when the commit
 * cannot be built or collected, or on trouble (@trouble set).
 */
static struct snapshot *snapshot_of(struct bisect *b, const git_oid *id,
				    bool *trouble)
{
	char *path = snapshot_path(b, id);
	struct snapshot *s = NULL;

	*trouble = !path;
	if (!path)
		return NULL;
	if (!access(path, F_OK))
		s = snapshot__load(path);
	if (s)
		goto out;
	pr_info("%.12s: checking out, building (log: %s), collecting",
		strrchr(path, '/') + 1, b->log);
	if (interrupted || checkout(b, id) || interrupted) {
		*trouble = true;
		goto out;
	}
	if (run_build(b)) {
		if (!interrupted)
			pr_warn("the build failed; its output is in %s", b->log);
		goto out;
	}
	s = collect_build(b->build, NULL);
	if (s && !interrupted && snapshot__save(s, path, ATOMIC_OWN_FILE))
		*trouble = true;
out:
	free(path);
	return s;
}

static void print_step(struct bisect *b, const char *label, const git_oid *id,
		       const char *verdict, double seconds)
{
	git_commit *c = NULL;
	char hex[13];

	git_oid_tostr(hex, sizeof(hex), id);
	git_commit_lookup(&c, b->repo, id);
	printf("%-9s %s  %-50.50s", label, hex, c ? git_commit_summary(c) : "?");
	if (seconds >= 0)
		printf("  %-14s %6.1f s", verdict, seconds);
	putchar('\n');
	fflush(stdout);
	git_commit_free(c);
}

/* Test commit @i against the baseline: its new state, or -errno. */
static int test_commit(struct bisect *b, size_t i, const char *label)
{
	size_t count[VERDICT_COUNT] = { 0 };
	struct timespec start;
	struct snapshot *s;
	char verdict[32];
	bool trouble;
	int err = 0, state = SKIPPED;

	clock_gettime(CLOCK_MONOTONIC, &start);
	s = snapshot_of(b, &b->commits[i], &trouble);
	if (s && !interrupted && !trouble) {
		err = count_verdicts(b->baseline, s, b->o->policy, b->o->waivers,
				     b->o->diff, count);
		state = count[VERDICT_BREAK] ? BAD : GOOD;
	}
	snapshot__free(s);
	if (interrupted)
		return -EINTR;
	if (trouble || err)
		return err ? err : -EIO;
	if (state == BAD)
		snprintf(verdict, sizeof(verdict), "bad (%zu break)",
			 count[VERDICT_BREAK]);
	else
		snprintf(verdict, sizeof(verdict), "%s",
			 state == GOOD ? "good" : "skip");
	print_step(b, label, &b->commits[i], verdict, seconds_since(&start));
	return state;
}

/*
 * The untested commit between @lo and @hi nearest their middle, or -1.
 * @lo is good (-1: the good revision), @hi bad.
 */
static ssize_t next_commit(const struct bisect *b, ssize_t lo, ssize_t hi)
{
	ssize_t mid = lo + (hi - lo) / 2, d;

	for (d = 0; mid - d > lo || mid + d < hi; d++) {
		if (mid + d < hi && mid + d > lo && b->state[mid + d] == UNTESTED)
			return mid + d;
		if (mid - d > lo && b->state[mid - d] == UNTESTED)
			return mid - d;
	}
	return -1;
}

/* What the first bad commit changed: its findings against its parent. */
static int show_first_bad(struct bisect *b, ssize_t lo, ssize_t hi)
{
	struct snapshot *parent, *bad;
	bool trouble;
	int status = EXIT_TROUBLE;

	parent = lo < 0 ? NULL : snapshot_of(b, &b->commits[lo], &trouble);
	bad = snapshot_of(b, &b->commits[hi], &trouble);
	print_step(b, "first bad", &b->commits[hi], NULL, -1);
	if (bad && (lo < 0 || parent)) {
		printf("\nWhat it changed, judged by the good revision's documentation:\n\n");
		fflush(stdout);
		status = judge_snapshots(parent ? parent : b->baseline, bad,
					 "its parent", "the first bad commit",
					 b->o->policy, b->o->waivers, b->o->diff);
	}
	snapshot__free(parent);
	snapshot__free(bad);
	return status == EXIT_TROUBLE ? EXIT_TROUBLE : EXIT_OK;
}

static int bisect(struct bisect *b)
{
	ssize_t lo = -1, hi = b->nr - 1, i;
	struct timespec start;
	char label[16];
	bool trouble;
	int step = 0, steps = 0, state;
	size_t n;

	for (n = b->nr; n > 1; n = (n + 1) / 2)
		steps++;
	printf("%zu commits from the good revision to the bad one (first parent): the bad one first, then about %d steps\n",
	       b->nr, steps);
	clock_gettime(CLOCK_MONOTONIC, &start);
	b->baseline = snapshot_of(b, &b->good, &trouble);
	if (!b->baseline) {
		if (!interrupted)
			pr_err("the good revision cannot be built or collected: nothing to compare with");
		return EXIT_TROUBLE;
	}
	print_step(b, "good", &b->good, "baseline", seconds_since(&start));
	/* a bad revision that breaks nothing leaves nothing to look for */
	state = test_commit(b, hi, "bad");
	if (state < 0)
		return EXIT_TROUBLE;
	if (state != BAD) {
		pr_err("the bad revision %s: nothing to bisect",
		       state == GOOD ? "breaks nothing the good one has" :
		       "cannot be built or collected");
		return EXIT_TROUBLE;
	}
	b->state[hi] = BAD;
	while ((i = next_commit(b, lo, hi)) >= 0) {
		snprintf(label, sizeof(label), "step %d", ++step);
		state = test_commit(b, i, label);
		if (state < 0)
			return EXIT_TROUBLE;
		b->state[i] = state;
		if (state == GOOD)
			lo = i;
		else if (state == BAD)
			hi = i;
	}
	if (hi - lo > 1) {
		pr_err("skipped commits leave the first bad commit undecided: it is one of the %zd after the last good one",
		       hi - lo);
		return EXIT_TROUBLE;
	}
	return show_first_bad(b, lo, hi);
}

static void release(struct bisect *b)
{
	snapshot__free(b->baseline);
	git_repository_free(b->repo);
	free(b->commits);
	free(b->state);
	free(b->dir);
	free(b->src);
	free(b->build);
	free(b->log);
	free(b->checked_out);
}

int bisect_run(const struct bisect_options *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct bisect bisect_state = { .o = o }, *b = &bisect_state;
	const char *repo = o->repo;
	git_oid bad_id;
	int status = EXIT_TROUBLE;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	git_libgit2_init();
	if (git_repository_open_ext(&b->repo, repo, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		report_git_error(repo);
		goto out;
	}
	if (make_state_dir(b, repo) || set_up_dirs(b) ||
	    resolve(b, o->good, &b->good) || resolve(b, o->bad, &bad_id) ||
	    list_commits(b, &bad_id))
		goto out;
	if (!b->nr) {
		pr_err("the good and the bad revision are the same commit");
		goto out;
	}
	status = bisect(b);
out:
	release(b);
	git_libgit2_shutdown();
	if (interrupted) {
		kabi_print_line(stderr, "kabidiff: ", "interrupted; %s is as it was",
				repo);
		return 128 + interrupted;
	}
	return status;
}
