// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff collect [-o FILE] [--docs DIR | --docs-git REPO@REV] [--sysfs-dir DIR]
 *
 * Describe a kernel build as a snapshot.  For now from its Documentation/ABI
 * and from a sysfs tree on disk; the vmlinux and QEMU collectors join later.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "collectors/abidocs/abidocs.h"
#include "collectors/sysfs/boot.h"
#include "collectors/sysfs/stream-reader.h"
#include "collectors/sysfs/sysfs-dir.h"
#include "collectors/vmlinux/vmlinux.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "match/docmatch.h"
#include "match/what-index.h"
#include "model/snapshot-json.h"

static const char collect_usage[] =
	"Usage: kabidiff collect [-o FILE] [--vmlinux FILE]\n"
	"                        [--docs DIR | --docs-git REPO@REV]\n"
	"                        [--sysfs-dir DIR] [BUILD_DIR]\n\n"
	"Write a snapshot of what the inputs show: the syscalls of a vmlinux and\n"
	"the layouts of the types they take, the Documentation/ABI entries of a\n"
	"kernel tree, the nodes of a sysfs tree, and, with the last two, how many\n"
	"of the nodes the entries document.\n\n"
	"  -o, --output FILE  write FILE (atomically) instead of standard output\n"
	"  --vmlinux FILE     a vmlinux with DWARF (BUILD_DIR/vmlinux by default)\n"
	"  --docs DIR         a kernel tree or its Documentation/ABI (by default\n"
	"                     the source tree of BUILD_DIR); the tree also names\n"
	"                     the syscalls (arch/x86/entry/syscalls/syscall_64.tbl)\n"
	"  --docs-git REPO@REV  the Documentation/ABI of revision REV (a branch,\n"
	"                     tag, commit id, HEAD~3, ...) of the git repository\n"
	"                     REPO, read without a checkout\n"
	"  --sysfs-dir DIR    walk DIR (a live /sys or a copy) as /sys\n"
	"  --sysfs-stream FILE  read the sysfs part from a dump of the guest\n"
	"                     agent (kabi-agent --root DIR > FILE)\n"
	"  --image BZIMAGE    boot BZIMAGE under QEMU with the guest agent as /init\n"
	"                     for the sysfs and /proc/sys part (by default\n"
	"                     BUILD_DIR/arch/x86/boot/bzImage when it exists)\n"
	"  --no-sysfs         do not boot BUILD_DIR's image\n"
	"  --timeout SECONDS  kill a guest that has not finished (default 300)\n"
	"  --accel tcg|kvm    QEMU's accelerator (default tcg: software)\n"
	"  --raw-values       keep the values read, not only their shapes\n"
	"  BUILD_DIR          a kernel build (the O= directory, or the tree)\n\n"
	"When the kernel tree is a git work tree, the snapshot records the commit\n"
	"it was checked out from (\"-dirty\" when tracked files changed); with\n"
	"--docs-git, the commit REV names.\n";

/* What to collect from, after BUILD_DIR's defaults are filled in. */
struct inputs {
	const char *vmlinux;
	const char *docs_dir;
	const char *docs_git;	/* "REPO@REV", split into: */
	char *docs_repo;
	const char *docs_rev;
	const char *sysfs_dir;
	const char *sysfs_stream;
	struct boot_options boot;	/* boot.image set: boot for sysfs */
	bool no_sysfs;
	char *syscall_tbl;	/* found in the source tree, if there */
	char *vmlinux_buf, *source_buf, *image_buf, *agent_buf;
};

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

/*
 * The static agent: $KABIDIFF_AGENT, else kabi-agent-static beside this
 * program (the build directory), else where make install puts it.
 */
static char *find_agent(void)
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

/* BUILD_DIR gives the vmlinux and, through its "source" link, the tree. */
static int fill_inputs(struct inputs *in, const char *build_dir)
{
	const char *tree = in->docs_dir;

	if (build_dir && !in->boot.image && !in->no_sysfs && !in->sysfs_dir &&
	    !in->sysfs_stream) {
		in->image_buf = path_join(build_dir, "arch/x86/boot/bzImage");
		if (!in->image_buf)
			return -ENOMEM;
		if (exists(in->image_buf))
			in->boot.image = in->image_buf;
	}
	if (in->boot.image) {
		in->agent_buf = find_agent();
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
	}
	if (!tree || !in->vmlinux)
		return 0;
	in->syscall_tbl = path_join(tree, "arch/x86/entry/syscalls/syscall_64.tbl");
	if (!in->syscall_tbl)
		return -ENOMEM;
	if (!exists(in->syscall_tbl)) {
		free(in->syscall_tbl);
		in->syscall_tbl = NULL;
	}
	return 0;
}

static void release_inputs(struct inputs *in)
{
	free(in->syscall_tbl);
	free(in->vmlinux_buf);
	free(in->source_buf);
	free(in->image_buf);
	free(in->agent_buf);
	free(in->docs_repo);
}

int parse_repo_rev(const char *cmd, const char *spec, char **repo,
		   const char **rev)
{
	char *buf = strdup(spec), *at;

	if (!buf) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	/* the last '@': a repository's path may hold one, a REV here not */
	at = strrchr(buf, '@');
	if (!at || at == buf || !at[1]) {
		free(buf);
		usage_error(cmd, "--docs-git takes REPO@REV, not '%s'", spec);
		return -EINVAL;
	}
	*at = '\0';
	*repo = buf;
	*rev = at + 1;
	return 0;
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
	int err = read_file(path, &buf, &len);

	if (!err)
		err = sysfs_stream__read((unsigned char *)buf, len, path, false, s);
	free(buf);
	return err;
}

static int collect(struct snapshot *s, const struct inputs *in,
		   struct abidocs_stats *st)
{
	struct vmlinux_stats vst = { 0 };
	int err = 0;

	if (in->vmlinux)
		err = vmlinux__collect(in->vmlinux, in->syscall_tbl, s, &vst);
	if (!err && (in->docs_dir || in->docs_repo)) {
		/* the docs' warnings belong to 'docs validate': count them */
		kabi_print_fn_t print = kabi_set_print(print_errors_only);

		err = in->docs_repo ?
		      abidocs__collect_git(in->docs_repo, in->docs_rev, s, st) :
		      abidocs__collect(in->docs_dir, s, st);
		kabi_set_print(print);
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
	if (!err)
		err = snapshot__sort(s, "collected snapshot");
	if (!err && s->docs.collected && s->sysfs.collected)
		err = compute_coverage(s);
	free(s->kernel.collected_by);
	s->kernel.collected_by = strdup("kabidiff " KABIDIFF_VERSION);
	return err ? err : s->kernel.collected_by ? 0 : -ENOMEM;
}

/* Fill @s from @in, BUILD_DIR @build_dir (or NULL) giving the defaults. */
static int collect_inputs(struct snapshot *s, struct inputs *in,
			  const char *build_dir)
{
	struct abidocs_stats st = { .check_pattern = what_pattern__check };
	int err = fill_inputs(in, build_dir);

	if (!err)
		err = collect(s, in, &st);
	if (!err && st.warnings)
		fprintf(stderr, "kabidiff: warning: %s: %u warnings about the ABI documentation; see 'kabidiff docs validate'\n",
			in->docs_git ? in->docs_git : in->docs_dir, st.warnings);
	release_inputs(in);
	return err;
}

struct snapshot *collect_build(const char *build_dir)
{
	struct inputs in = { .boot.timeout = 300 };
	struct snapshot *s = snapshot__new();
	int err = s ? collect_inputs(s, &in, build_dir) : -ENOMEM;

	if (!err)
		return s;
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return NULL;
}

int do_collect(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "vmlinux",	required_argument,	NULL, 'v' },
		{ "docs",	required_argument,	NULL, 'd' },
		{ "docs-git",	required_argument,	NULL, 'g' },
		{ "sysfs-dir",	required_argument,	NULL, 's' },
		{ "sysfs-stream", required_argument,	NULL, 'S' },
		{ "image",	required_argument,	NULL, 'i' },
		{ "no-sysfs",	no_argument,		NULL, 'n' },
		{ "timeout",	required_argument,	NULL, 't' },
		{ "accel",	required_argument,	NULL, 'a' },
		{ "raw-values",	no_argument,		NULL, 'r' },
		{ "help",	no_argument,		NULL, 'h' },
		{ 0 }
	};
	const char *output = NULL;
	struct inputs in = { .boot.timeout = 300 };
	char *end;
	struct snapshot *s;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) >= 0) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'v':
			in.vmlinux = optarg;
			break;
		case 'd':
			in.docs_dir = optarg;
			break;
		case 'g':
			in.docs_git = optarg;
			break;
		case 's':
			in.sysfs_dir = optarg;
			break;
		case 'S':
			in.sysfs_stream = optarg;
			break;
		case 'i':
			in.boot.image = optarg;
			break;
		case 'n':
			in.no_sysfs = true;
			break;
		case 't':
			in.boot.timeout = strtoul(optarg, &end, 10);
			if (*end || !in.boot.timeout || in.boot.timeout > 86400)
				return usage_error("collect", "--timeout takes 1 to 86400 seconds, not '%s'",
						   optarg);
			break;
		case 'a':
			if (strcmp(optarg, "tcg") && strcmp(optarg, "kvm"))
				return usage_error("collect", "--accel is tcg or kvm, not '%s'",
						   optarg);
			in.boot.accel = optarg;
			break;
		case 'r':
			in.boot.keep_raw = true;
			break;
		case 'h':
			fputs(collect_usage, stdout);
			return EXIT_OK;
		default:
			return usage_hint("collect");
		}
	}
	if (argc - optind > 1)
		return usage_error("collect", "unexpected argument '%s'",
				   argv[optind + 1]);
	if (!!in.sysfs_dir + !!in.sysfs_stream + !!in.boot.image > 1)
		return usage_error("collect", "--sysfs-dir, --sysfs-stream and --image each give the sysfs part: choose one");
	if (in.docs_dir && in.docs_git)
		return usage_error("collect", "--docs and --docs-git each give the docs part: choose one");
	if (optind == argc && !in.vmlinux && !in.docs_dir && !in.docs_git &&
	    !in.sysfs_dir && !in.sysfs_stream && !in.boot.image)
		return usage_error("collect",
				   "collect needs a BUILD_DIR, --vmlinux, --docs, --docs-git or --sysfs-dir");
	if (in.docs_git &&
	    parse_repo_rev("collect", in.docs_git, &in.docs_repo, &in.docs_rev))
		return EXIT_TROUBLE;
	s = snapshot__new();
	err = s ? collect_inputs(s, &in, optind < argc ? argv[optind] : NULL) :
	      -ENOMEM;
	if (!err)
		err = output ? snapshot__save(s, output) : snapshot__write(s, stdout);
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return err ? EXIT_TROUBLE : EXIT_OK;
}
