/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Collecting a snapshot: what 'kabidiff collect' reads from its options, and
 * what diff, check and bisect use to collect a build directory on the fly.
 */
#ifndef KABIDIFF_PIPELINE_COLLECT_H
#define KABIDIFF_PIPELINE_COLLECT_H

#include <stdbool.h>

#include "collectors/abidocs/abidocs.h"
#include "collectors/debian/packages.h"
#include "collectors/sysfs/boot.h"
#include "model/model.h"

/* What to collect from, after BUILD_DIR's defaults are filled in. */
struct collect_inputs {
	const char *vmlinux;
	const char *docs_dir;
	const char *docs_git;	/* "REPO@REV", split into: */
	char *docs_repo;
	const char *docs_rev;
	const char *sysfs_dir;
	const char *sysfs_stream;
	const char *census;	/* --census: a -dbg package, a directory, a file */
	struct boot_options boot;	/* boot.image set: boot for sysfs */
	bool no_sysfs;
	/* vDSO images: --vdso's, or those of the build directory */
	char **vdso;
	size_t nr_vdso;
	bool vdso_given;	/* by --vdso: the build's are not looked for */
	/* --deb: a kernel's Debian packages, unpacked into the cache */
	char **debs;
	size_t nr_debs;
	/* what the packages give: --deb's, or the caller's (debian:ABI) */
	struct kernel_packages packages;
	char *syscalls_dir;	/* the tree's .tbl files, if there */
	char *headers_dir;	/* the build's generated asm/, if there */
	char *vmlinux_buf, *source_buf, *image_buf, *agent_buf, *modules_buf;
};

/*
 * collect_inputs__add_vdso() - one more vDSO image to collect, @path
 * (copied).  Returns 0 or -ENOMEM.
 */
int collect_inputs__add_vdso(struct collect_inputs *in, const char *path);

/* QEMU's guest gets 300 s unless --timeout says. */
#define COLLECT_INPUTS_INIT	{ .boot.timeout = 300 }

/*
 * collect_inputs__add_deb() - one more Debian package to collect from,
 * @path (copied).  Returns 0 or -ENOMEM.
 */
int collect_inputs__add_deb(struct collect_inputs *in, const char *path);

/*
 * collect_agent_path() - the static guest agent a boot takes:
 * $KABIDIFF_AGENT, else kabi-agent-static beside this program (the build
 * directory), else where make install puts it.  malloc()ed; NULL (ENOMEM).
 */
char *collect_agent_path(void);

/*
 * collect_snapshot() - fill @s from @in, the kernel build @build_dir (or
 * NULL) and then @in's packages giving the defaults for what @in leaves
 * out.  Releases what @in
 * allocated.  Returns 0 or -errno, reported but for -ENOMEM.
 */
int collect_snapshot(struct snapshot *s, struct collect_inputs *in,
		     const char *build_dir);

/*
 * collect_build() - a snapshot of the kernel build in @build_dir (the O=
 * directory), collected as 'kabidiff collect BUILD_DIR' does, its image
 * booted on @machine (NULL: the default profile); NULL when that failed
 * (reported) or out of memory.
 */
struct snapshot *collect_build(const char *build_dir,
			       const struct machine_profile *machine);

/*
 * collect_docs() - the Documentation/ABI of the tree @dir, or of revision
 * @rev of the git repository @repo when @repo is set, into @s, each What:
 * pattern checked by the matcher's grammar.  Counts go to @st.  Returns 0
 * or -errno, reported.
 */
int collect_docs(const char *dir, const char *repo, const char *rev,
		 struct snapshot *s, struct abidocs_stats *st);

/*
 * load_docs_snapshot() - a snapshot of the docs part alone, collected as
 * collect_docs() does with its warnings muted (they are 'docs validate''s)
 * and sorted; @name names it in errors.  NULL when that failed (reported).
 */
struct snapshot *load_docs_snapshot(const char *dir, const char *repo,
				    const char *rev, const char *name);

#endif /* KABIDIFF_PIPELINE_COLLECT_H */
