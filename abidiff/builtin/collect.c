// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabidiff collect [-o FILE] [--deb FILE]... [--vmlinux FILE] [--vdso FILE]...
 *                  [--docs DIR | --docs-git REPO@REV]
 *                  [--sysfs-dir DIR | --sysfs-stream FILE | --image BZIMAGE
 *                   [--machine PROFILE] [--modules DIR]] [BUILD_DIR]
 *
 * Describe a kernel build as a snapshot.  The options are read here; the
 * collecting is pipeline/collect.c's, which diff, check and bisect share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/collect-options.h"
#include "cli/options.h"
#include "collectors/sysfs/machine.h"
#include "lib/print.h"
#include "model/snapshot-json.h"
#include "pipeline/collect.h"

static const char collect_usage[] =
	"Usage: kabidiff collect [-o FILE] [--deb FILE]... [--vmlinux FILE]\n"
	"                        [--vdso FILE]... [--census DEB|DIR|FILE]\n"
	"                        [--docs DIR | --docs-git REPO@REV]\n"
	"                        [--sysfs-dir DIR | --sysfs-stream FILE |\n"
	"                         --image BZIMAGE [--machine PROFILE]\n"
	"                         [--modules DIR]] [BUILD_DIR]\n\n"
	"Write a snapshot of what the inputs show: the syscalls of a vmlinux\n"
	"(x86_64, and ia32 and x32 where it has them), the symbols of its vDSO\n"
	"images, and the layouts of the types they take, the Documentation/ABI\n"
	"entries of a kernel tree, the nodes of a sysfs tree, and, with the last\n"
	"two, how many of the nodes the entries document.\n\n"
	"  -o, --output FILE  write FILE (atomically) instead of standard output\n"
	"  --deb FILE         a Debian package of the kernel, once per package:\n"
	"                     its image (linux-image-RELEASE or -unsigned:\n"
	"                     vmlinuz and modules), its -dbg package (vmlinux,\n"
	"                     vDSO images) and linux-source-SERIES (docs,\n"
	"                     syscall tables); what kabidiff reads of them is\n"
	"                     unpacked once into the cache (packages/), and\n"
	"                     the other options override it\n"
	"  --vmlinux FILE     a vmlinux with DWARF (BUILD_DIR/vmlinux by default)\n"
	"  --vdso FILE        a vDSO image with DWARF, once per image (by default\n"
	"                     BUILD_DIR/arch/x86/entry/vdso/vdso{64,32,x32}.so.dbg,\n"
	"                     those there are; a -dbg package has them in\n"
	"                     usr/lib/debug/lib/modules/RELEASE/vdso/)\n"
	"  --docs DIR         a kernel tree or its Documentation/ABI (by default\n"
	"                     the source tree of BUILD_DIR); the tree also names\n"
	"                     the syscalls and checks ia32's and x32's\n"
	"                     (arch/x86/entry/syscalls/syscall_{64,32}.tbl)\n"
	"  --docs-git REPO@REV  the Documentation/ABI of revision REV (a branch,\n"
	"                     tag, commit id, HEAD~3, ...) of the git repository\n"
	"                     REPO, read without a checkout\n"
	"  --sysfs-dir DIR    walk DIR (a live /sys or a copy) as /sys\n"
	"  --sysfs-stream FILE  read the sysfs part from a dump of the guest\n"
	"                     agent (kabi-agent --root DIR > FILE)\n"
	"  --census DEB|DIR|FILE  the census: every sysfs attribute the code of\n"
	"                     vmlinux and the modules defines, read from their\n"
	"                     DWARF: a -dbg package (streamed, nothing unpacked),\n"
	"                     a directory (its vmlinux and every .ko below) or\n"
	"                     one ELF file\n"
	"  --image BZIMAGE    boot BZIMAGE under QEMU with the guest agent as /init\n"
	"                     for the sysfs and /proc/sys part (by default\n"
	"                     BUILD_DIR/arch/x86/boot/bzImage when it exists)\n"
	"  --no-sysfs         do not boot BUILD_DIR's image\n"
	"  --timeout SECONDS  kill a guest that has not finished (default 300)\n"
	"  --accel tcg|kvm    QEMU's accelerator (default tcg: software)\n"
	"  --machine PROFILE  the devices QEMU gives the guest: standard (the\n"
	"                     default, a server's shape: two NUMA nodes, PCIe\n"
	"                     root ports with hotplug slots, two NICs, three\n"
	"                     kinds of disk, USB input, sound, virtio-rng, a\n"
	"                     watchdog, an NVDIMM, a CXL host bridge, an IPMI\n"
	"                     BMC; nothing reaches the host) or minimal (none)\n"
	"  --modules DIR      the kernel's modules (a lib/modules/RELEASE tree;\n"
	"                     by default BUILD_DIR when it has modules.order): the\n"
	"                     machine's drivers and what they depend on go into\n"
	"                     the guest, which loads them for its devices\n"
	"  --raw-values       keep the values read, not only their shapes\n"
	"  BUILD_DIR          a kernel build (the O= directory, or the tree)\n\n"
	"When the kernel tree is a git work tree, the snapshot records the commit\n"
	"it was checked out from (\"-dirty\" when tracked files changed); with\n"
	"--docs-git, the commit REV names.\n";

static int parse_timeout(const char *cmd, const struct cli_option *opt,
			 const char *arg)
{
	unsigned int *timeout = opt->value;
	char *end;

	*timeout = strtoul(arg, &end, 10);
	if (!*end && *timeout && *timeout <= 86400)
		return 0;
	usage_error(cmd, "--timeout takes 1 to 86400 seconds, not '%s'", arg);
	return -EINVAL;
}

static int add_vdso(const char *cmd, const struct cli_option *opt,
		    const char *arg)
{
	struct collect_inputs *in = opt->value;

	in->vdso_given = true;
	if (!collect_inputs__add_vdso(in, arg))
		return 0;
	pr_err("out of memory");
	return -ENOMEM;
}

static int add_deb(const char *cmd, const struct cli_option *opt,
		   const char *arg)
{
	if (!collect_inputs__add_deb(opt->value, arg))
		return 0;
	pr_err("out of memory");
	return -ENOMEM;
}

static int parse_accel(const char *cmd, const struct cli_option *opt,
		       const char *arg)
{
	if (strcmp(arg, "tcg") && strcmp(arg, "kvm")) {
		usage_error(cmd, "--accel is tcg or kvm, not '%s'", arg);
		return -EINVAL;
	}
	*(const char **)opt->value = arg;
	return 0;
}

/* What the inputs leave out that BUILD_DIR does not give either. */
static int check_inputs(const struct collect_inputs *in, bool build_dir)
{
	if (!!in->sysfs_dir + !!in->sysfs_stream + !!in->boot.image > 1)
		return usage_error("collect", "--sysfs-dir, --sysfs-stream and --image each give the sysfs part: choose one");
	if (in->docs_dir && in->docs_git)
		return usage_error("collect", "--docs and --docs-git each give the docs part: choose one");
	if (!build_dir && !in->nr_debs && !in->vmlinux && !in->nr_vdso &&
	    !in->docs_dir &&
	    !in->docs_git && !in->sysfs_dir && !in->sysfs_stream &&
	    !in->boot.image && !in->census)
		return usage_error("collect",
				   "collect needs a BUILD_DIR, --deb, --vmlinux, --vdso, --docs, --docs-git, --sysfs-dir or --census");
	return 0;
}

int do_collect(int argc, char **argv)
{
	struct collect_inputs in = COLLECT_INPUTS_INIT;
	const char *output = NULL, *build_dir;
	const struct cli_option options[] = {
		OPT_STRING('o', "output", &output),
		OPT_STRING(0, "vmlinux", &in.vmlinux),
		OPT_CALLBACK(0, "vdso", &in, add_vdso),
		OPT_CALLBACK(0, "deb", &in, add_deb),
		OPT_STRING(0, "docs", &in.docs_dir),
		OPT_STRING(0, "docs-git", &in.docs_git),
		OPT_STRING(0, "sysfs-dir", &in.sysfs_dir),
		OPT_STRING(0, "sysfs-stream", &in.sysfs_stream),
		OPT_STRING(0, "census", &in.census),
		OPT_STRING(0, "image", &in.boot.image),
		OPT_BOOL(0, "no-sysfs", &in.no_sysfs),
		OPT_CALLBACK(0, "timeout", &in.boot.timeout, parse_timeout),
		OPT_CALLBACK(0, "accel", &in.boot.accel, parse_accel),
		OPT_CALLBACK(0, "machine", &in.boot.machine, collect_option__machine),
		OPT_STRING(0, "modules", &in.boot.modules_dir),
		OPT_BOOL(0, "raw-values", &in.boot.keep_raw),
		OPT_END(),
	};
	struct snapshot *s;
	int first, err;

	first = parse_options("collect", argc, argv, options, collect_usage, 0);
	if (first < 0)
		return parse_options_exit(first);
	if (argc - first > 1)
		return usage_error("collect", "unexpected argument '%s'",
				   argv[first + 1]);
	build_dir = first < argc ? argv[first] : NULL;
	if (check_inputs(&in, build_dir))
		return EXIT_TROUBLE;
	if (in.docs_git &&
	    parse_repo_rev("collect", in.docs_git, &in.docs_repo, &in.docs_rev))
		return EXIT_TROUBLE;
	s = snapshot__new();
	err = s ? collect_snapshot(s, &in, build_dir) : -ENOMEM;
	if (!err)
		err = output ? snapshot__save(s, output, 0) : snapshot__write(s, stdout);
	if (err == -ENOMEM)
		pr_err("out of memory");
	snapshot__free(s);
	return err ? EXIT_TROUBLE : EXIT_OK;
}
