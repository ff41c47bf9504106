// SPDX-License-Identifier: GPL-2.0-only
/*
 * Collecting a snapshot from a kernel build's inputs, for 'kabidiff collect'
 * and for the commands that collect a build on the fly (diff, check,
 * bisect): each collector fills its part, and the coverage is computed
 * when the docs and the sysfs part are both there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/abidocs/abidocs.h"
#include "collectors/sysfs/machine.h"
#include "collectors/sysfs/stream-reader.h"
#include "collectors/sysfs/sysfs-dir.h"
#include "collectors/vdso/vdso.h"
#include "collectors/vmlinux/vmlinux.h"
#include "lib/array.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "match/docmatch.h"
#include "match/what-index.h"
#include "cache.h"
#include "census.h"
#include "collect.h"
#include "progress.h"


static bool exists(const char *path)
{
	return !access(path, F_OK);
}

/* "DIR/REST", malloc()ed; NULL (ENOMEM). */
static char *path_join(const char *dir, const char *rest)
{
	size_t len = strlen(dir) + strlen(rest) + 2;
	char *path = malloc(len);

	if (path)
		snprintf(path, len, "%s/%s", dir, rest);
	return path;
}

char *collect_agent_path(void)
{
	const char *env = getenv("KABIDIFF_AGENT");
	char self[4096], *slash, *beside;
	ssize_t n;

	if (env && *env)
		return strdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		beside = path_join(self, "kabi-agent-static");
		if (!beside || exists(beside))
			return beside;
		free(beside);
	}
	return strdup(KABIDIFF_LIBEXECDIR "/kabi-agent-static");
}

/* @dir/@name into *@path if it is there, else NULL; 0 or -ENOMEM. */
static int join_existing(const char *dir, const char *name, char **path)
{
	*path = path_join(dir, name);
	if (!*path)
		return -ENOMEM;
	if (!exists(*path)) {
		free(*path);
		*path = NULL;
	}
	return 0;
}

int collect_inputs__add_vdso(struct collect_inputs *in, const char *path)
{
	return strings__append(&in->vdso, &in->nr_vdso, path);
}

int collect_inputs__add_deb(struct collect_inputs *in, const char *path)
{
	return strings__append(&in->debs, &in->nr_debs, path);
}

/* --deb's packages, unpacked into the cache (or found there). */
static int unpack_debs(struct collect_inputs *in)
{
	char *dir;
	int err = cache_dir("packages", &dir);

	if (err)
		return err;
	err = kernel_packages__unpack(&in->packages, in->debs, in->nr_debs,
				      dir, progress_deb, NULL);
	free(dir);
	return err;
}

/* What the packages give and the options did not. */
static int use_packages(struct collect_inputs *in)
{
	const struct kernel_packages *kp = &in->packages;
	size_t i;
	int err = 0;

	if (!in->vmlinux)
		in->vmlinux = kp->vmlinux;
	if (!in->vdso_given) {
		for (i = 0; !err && i < kp->nr_vdso; i++)
			err = collect_inputs__add_vdso(in, kp->vdso[i]);
		in->vdso_given = kp->nr_vdso;
	}
	if (kp->image && !in->boot.image && !in->no_sysfs && !in->sysfs_dir &&
	    !in->sysfs_stream) {
		in->boot.image = kp->image;
		if (!in->boot.modules_dir)
			in->boot.modules_dir = kp->modules;
	}
	if (kp->tree && !in->docs_dir && !in->docs_git)
		in->docs_dir = kp->tree;
	if (!in->census)
		in->census = kp->dbg_deb;
	return err;
}

/* The vDSO images a build directory has: x32's and ia32's only if built. */
static int find_vdso_images(struct collect_inputs *in, const char *build_dir)
{
	static const char *const images[] = {
		"arch/x86/entry/vdso/vdso64.so.dbg",
		"arch/x86/entry/vdso/vdso32.so.dbg",
		"arch/x86/entry/vdso/vdsox32.so.dbg",
	};
	size_t i;
	int err = 0;

	for (i = 0; !err && i < ARRAY_SIZE(images); i++) {
		char *path = path_join(build_dir, images[i]);

		if (!path)
			return -ENOMEM;
		if (exists(path))
			err = collect_inputs__add_vdso(in, path);
		free(path);
	}
	return err;
}

/* BUILD_DIR gives the vmlinux and, through its "source" link, the tree. */
static int fill_inputs(struct collect_inputs *in, const char *build_dir)
{
	const char *tree;
	int err = in->nr_debs ? unpack_debs(in) : 0;

	if (!err)
		err = use_packages(in);
	if (err)
		return err;
	tree = in->docs_dir;

	if (build_dir && !in->boot.image && !in->no_sysfs && !in->sysfs_dir &&
	    !in->sysfs_stream) {
		in->image_buf = path_join(build_dir, "arch/x86/boot/bzImage");
		if (!in->image_buf)
			return -ENOMEM;
		if (exists(in->image_buf))
			in->boot.image = in->image_buf;
	}
	if (in->boot.image && build_dir && !in->boot.modules_dir) {
		in->modules_buf = path_join(build_dir, "modules.order");
		if (!in->modules_buf)
			return -ENOMEM;
		if (exists(in->modules_buf))
			in->boot.modules_dir = build_dir;
	}
	if (in->boot.image) {
		if (!in->boot.machine)
			in->boot.machine = machine_profile__find(MACHINE_DEFAULT);
		in->agent_buf = collect_agent_path();
		if (!in->agent_buf)
			return -ENOMEM;
		in->boot.agent = in->agent_buf;
	}
	if (build_dir) {
		in->vmlinux_buf = path_join(build_dir, "vmlinux");
		in->source_buf = path_join(build_dir, "source");
		if (!in->vmlinux_buf || !in->source_buf)
			return -ENOMEM;
		if (!in->vmlinux)
			in->vmlinux = in->vmlinux_buf;
		if (!tree)
			tree = exists(in->source_buf) ? in->source_buf : build_dir;
		if (!in->docs_dir && !in->docs_git)
			in->docs_dir = tree;
		if (!in->vdso_given && find_vdso_images(in, build_dir))
			return -ENOMEM;
	}
	if (!in->vmlinux)
		return 0;
	if (tree && join_existing(tree, "arch/x86/entry/syscalls",
				  &in->syscalls_dir))
		return -ENOMEM;
	if (build_dir && join_existing(build_dir, "arch/x86/include/generated/asm",
				       &in->headers_dir))
		return -ENOMEM;
	return 0;
}

static void release_inputs(struct collect_inputs *in)
{
	strings__free(in->vdso, in->nr_vdso);
	strings__free(in->debs, in->nr_debs);
	kernel_packages__release(&in->packages);
	free(in->syscalls_dir);
	free(in->headers_dir);
	free(in->vmlinux_buf);
	free(in->source_buf);
	free(in->image_buf);
	free(in->agent_buf);
	free(in->modules_buf);
	free(in->docs_repo);
}

/* Coverage counts attributes (files), as 'undocumented' does. */
static int compute_coverage(struct snapshot *s)
{
	int32_t *entry = calloc(s->sysfs.nr + 1, sizeof(*entry));
	size_t i;
	int err;

	if (!entry)
		return -ENOMEM;
	err = docmatch__run(s, s, entry);
	for (i = 0; !err && i < s->sysfs.nr; i++) {
		if (s->sysfs.v[i].kind != NODE_FILE)
			continue;
		s->coverage.sysfs_nodes++;
		s->coverage.documented += entry[i] >= 0;
	}
	s->coverage.computed = !err;
	free(entry);
	return err;
}

/* A dump the guest agent wrote (kabi-agent --root DIR > FILE, or a boot's). */
static int read_stream(const char *path, struct snapshot *s)
{
	char *buf = NULL;
	size_t len;
	int err = read_file_or_report(path, STREAM_FILE_MAX, &buf, &len);

	if (!err)
		err = sysfs_stream__read((unsigned char *)buf, len, path, false, s);
	free(buf);
	return err;
}

static int collect(struct snapshot *s, const struct collect_inputs *in,
		   struct abidocs_stats *st)
{
	struct vmlinux_stats vst = { 0 };
	size_t i;
	int err = 0;

	if (in->vmlinux)
		err = vmlinux__collect(in->vmlinux, in->syscalls_dir,
				       in->headers_dir, s, &vst);
	for (i = 0; !err && i < in->nr_vdso; i++)
		err = vdso__collect(in->vdso[i], s);
	if (!err && (in->docs_dir || in->docs_repo)) {
		/* the docs' warnings belong to 'docs validate': count them */
		enum kabi_print_level was = kabi_print_upto(KABI_ERROR);

		err = collect_docs(in->docs_dir, in->docs_repo, in->docs_rev,
				   s, st);
		kabi_print_upto(was);
	}
	/* the commit the tree was checked out from; --docs-git set its own */
	if (!err && in->docs_dir)
		err = abidocs__git_head(in->docs_dir, &s->kernel.git);
	if (!err && in->sysfs_dir)
		err = sysfs_dir__collect(in->sysfs_dir, "/sys", true, s);
	if (!err && in->sysfs_stream)
		err = read_stream(in->sysfs_stream, s);
	if (!err && in->boot.image)
		err = sysfs_boot__collect(&in->boot, s);
	if (!err && in->census)
		err = collect_census(s, in->census);
	if (!err)
		err = snapshot__sort(s, "collected snapshot");
	if (!err && s->docs.collected && s->sysfs.collected)
		err = compute_coverage(s);
	free(s->kernel.collected_by);
	s->kernel.collected_by = strdup("kabidiff " KABIDIFF_VERSION);
	return err ? err : s->kernel.collected_by ? 0 : -ENOMEM;
}

int collect_snapshot(struct snapshot *s, struct collect_inputs *in,
		     const char *build_dir)
{
	struct abidocs_stats st = { 0 };
	int err = fill_inputs(in, build_dir);

	if (!err)
		err = collect(s, in, &st);
	if (!err && st.warnings)
		pr_warn("%s: %u warnings about the ABI documentation; see 'kabidiff docs validate'",
			in->docs_git ? in->docs_git : in->docs_dir, st.warnings);
	release_inputs(in);
	return err;
}

/* @s when @err is 0; else NULL, @s freed, out of memory reported. */
static struct snapshot *snapshot_or_null(struct snapshot *s, int err)
{
	if (!err)
		return s;
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return NULL;
}

struct snapshot *collect_build(const char *build_dir,
			       const struct machine_profile *machine)
{
	struct collect_inputs in = COLLECT_INPUTS_INIT;
	struct snapshot *s = snapshot__new();

	in.boot.machine = machine;

	return snapshot_or_null(s, s ? collect_snapshot(s, &in, build_dir) :
				-ENOMEM);
}

int collect_docs(const char *dir, const char *repo, const char *rev,
		 struct snapshot *s, struct abidocs_stats *st)
{
	st->check_pattern = what_pattern__check;
	return repo ? abidocs__collect_git(repo, rev, s, st) :
	       abidocs__collect(dir, s, st);
}

struct snapshot *load_docs_snapshot(const char *dir, const char *repo,
				    const char *rev, const char *name)
{
	struct abidocs_stats st = { 0 };
	struct snapshot *s = snapshot__new();
	enum kabi_print_level was;
	int err = -ENOMEM;

	if (s) {
		/* the entries' warnings belong to 'docs validate' */
		was = kabi_print_upto(KABI_ERROR);
		err = collect_docs(dir, repo, rev, s, &st);
		kabi_print_upto(was);
	}
	if (!err)
		err = snapshot__sort(s, name);
	return snapshot_or_null(s, err);
}
