// SPDX-License-Identifier: GPL-2.0-only
/*
 * Booting a kernel image under QEMU with the guest agent as /init.
 *
 * QEMU gets an argument vector (never a shell), no network, the machine's
 * devices, the images of its filesystems' disks, and two serial ports: the
 * first is the kernel's console, logged to a file for the error message
 * when the guest fails; the second is the agent's data channel, also a
 * file.  The agent powers the guest off when it is done; "panic=-1" with
 * -no-reboot makes a panicking kernel end QEMU at once too.  A guest that
 * does neither is killed at the timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/compiler.h"
#include "lib/fileio.h"
#include "lib/print.h"
#include "lib/run-command.h"
#include "boot.h"
#include "machine.h"
#include "modules.h"
#include "stream-reader.h"
#include "unpack.h"

#define QEMU		"qemu-system-x86_64"
#define CONSOLE_TAIL	8	/* console lines quoted when the guest fails */
#define MAX_FILESYSTEMS	8
#define MKFS_TIMEOUT	60	/* s; each formats a sparse image of MiBs */

/* The QEMU arguments that attach a filesystem's disk. */
struct fs_disk {
	char blockdev[700], device[128];
};

struct boot_files {
	char dir[256];
	int dir_slot;		/* lib/cleanup.h's: a signal removes it all */
	char initramfs[300], console[300], stream[300], qemu_log[300];
	char kernel[300];	/* unpack.c's copy of the image */
	const char *boot_image;	/* what QEMU boots: that copy or the image */
	char mkfs_log[300];
	struct fs_disk disks[MAX_FILESYSTEMS];
	size_t nr_disks;
};

static int make_files(struct boot_files *b)
{
	const char *tmp = getenv("TMPDIR");
	int err;

	snprintf(b->dir, sizeof(b->dir), "%s/kabidiff-boot.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	b->dir_slot = cleanup_dir_create(b->dir);
	if (b->dir_slot < 0) {
		err = b->dir_slot;
		pr_err("%s: %s", b->dir, strerror(-err));
		return err;
	}
	snprintf(b->initramfs, sizeof(b->initramfs), "%s/initramfs.cpio", b->dir);
	snprintf(b->console, sizeof(b->console), "%s/console.log", b->dir);
	snprintf(b->stream, sizeof(b->stream), "%s/stream.bin", b->dir);
	snprintf(b->qemu_log, sizeof(b->qemu_log), "%s/qemu.log", b->dir);
	snprintf(b->kernel, sizeof(b->kernel), "%s/kernel.img", b->dir);
	snprintf(b->mkfs_log, sizeof(b->mkfs_log), "%s/mkfs.log", b->dir);
	b->nr_disks = 0;
	return 0;
}

/*
 * Report @intro, then each of the @len bytes of @text's lines as a message
 * of its own, indented: a message is one line, and the guest's console
 * ends its lines with "\r\n".
 */
static void quote_lines(const char *intro, const char *text, size_t len)
{
	const char *end = text + len, *eol;
	size_t n;

	pr_err("%s", intro);
	for (; text < end; text = eol + 1) {
		eol = memchr(text, '\n', end - text);
		if (!eol)
			eol = end;
		n = eol - text;
		if (n && text[n - 1] == '\r')
			n--;
		pr_err("  %.*s", (int)n, text);
	}
}

/*
 * Quote the guest's console after an error: from its "Kernel panic" line
 * when it has one, else its last lines.
 */
static void quote_console(const char *path)
{
	size_t len, lines = 0;
	char *buf, *p, *panic;

	/* no console (QEMU did not get that far) is nothing to quote */
	if (read_file(path, SMALL_FILE_MAX, &buf, &len))
		return;
	if (!len) {
		pr_err("the guest wrote nothing on its console");
		free(buf);
		return;
	}
	for (p = buf + len; p > buf && lines <= CONSOLE_TAIL; p--)
		lines += p[-1] == '\n';
	if (p != buf)
		p++;
	panic = strstr(buf, "Kernel panic");
	if (panic && panic < p) {
		while (panic > buf && panic[-1] != '\n')
			panic--;
		p = panic;
	}
	quote_lines("the guest's console ended with:", p, buf + len - p);
	free(buf);
}

/*
 * Quote what @program wrote in its log @path after an error.  QEMU says
 * things on success too ("icount sleep disabled and no active timers"
 * when the guest halts): those are not ours to print.
 */
static void quote_log(const char *program, const char *path)
{
	char intro[64];
	size_t len;
	char *buf;

	if (read_file(path, SMALL_FILE_MAX, &buf, &len))
		return;
	while (len && buf[len - 1] == '\n')
		len--;
	snprintf(intro, sizeof(intro), "%s said:", program);
	if (len)
		quote_lines(intro, buf, len);
	free(buf);
}

/* Pass on the agent's own summary: nodes, bytes and its time in the guest. */
static void report_agent(const char *console)
{
	char *buf, *line, *end;
	size_t len;

	if (read_file(console, SMALL_FILE_MAX, &buf, &len))
		return;
	line = strstr(buf, "kabi-agent: done:");
	if (line) {
		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		pr_info("the guest says: %s", line);
	}
	free(buf);
}

/*
 * @src in @dst as a value of a QEMU option: a comma doubled, or it would
 * end the value.  -ENAMETOOLONG when it does not fit.
 */
static int qemu_escape(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src; src++) {
		if (n + 2 >= size)
			return -ENAMETOOLONG;
		if (*src == ',')
			dst[n++] = ',';
		dst[n++] = *src;
	}
	dst[n] = '\0';
	return 0;
}

/* An empty image of @size_mib MiB at @path, new: sparse, 0600. */
static int make_empty_image(const char *path, unsigned int size_mib)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int err = 0;

	if (fd < 0 || ftruncate(fd, (off_t)size_mib << 20))
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (err)
		pr_err("%s: %s", path, strerror(-err));
	return err;
}

/* Format @image with @fs's mkfs, its messages in @log. */
static int run_mkfs(const struct machine_filesystem *fs, const char *image,
		    const char *log)
{
	const char *argv[16];
	struct child_process mkfs = {
		.argv = argv, .out_fd = CHILD_DEVNULL, .timeout = MKFS_TIMEOUT,
	};
	size_t n = 0;
	char how[64];
	int err;

	while (fs->mkfs[n] && n < ARRAY_SIZE(argv) - 2) {
		argv[n] = fs->mkfs[n];
		n++;
	}
	argv[n++] = image;
	argv[n] = NULL;
	mkfs.err_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (mkfs.err_fd < 0) {
		err = -errno;
		pr_err("%s: %s", log, strerror(-err));
		return err;
	}
	err = run_command(&mkfs);
	close(mkfs.err_fd);
	if (err == -ETIMEDOUT) {
		pr_err("%s did not finish within %u s making the machine's %s disk",
		       argv[0], MKFS_TIMEOUT, fs->type);
		return err;
	}
	if (err) {
		pr_err("cannot run %s: %s", argv[0], strerror(-err));
		return err;
	}
	if (!child_succeeded(&mkfs)) {
		pr_err("%s %s making the machine's %s disk (install Debian's %s, or boot --machine minimal)",
		       argv[0], describe_exit(mkfs.status, how, sizeof(how)),
		       fs->type, fs->package);
		quote_log(argv[0], log);
		return -ECHILD;
	}
	return 0;
}

/*
 * The disks of the machine's filesystems: each image made and formatted
 * in the boot's directory, and the arguments that give it to QEMU,
 * read-only, as a virtio disk whose serial tells the agent what to mount.
 * After the profile's devices, so that theirs keep their addresses.
 */
static int make_fs_disks(const struct machine_profile *m, struct boot_files *b)
{
	const struct machine_filesystem *fs;
	char image[300], escaped[600];
	int err;

	for (fs = m->filesystems; fs && fs->type; fs++) {
		struct fs_disk *d = &b->disks[b->nr_disks];

		if (b->nr_disks == MAX_FILESYSTEMS)
			return -E2BIG;	/* a profile's mistake */
		snprintf(image, sizeof(image), "%s/fs-%s.img", b->dir, fs->type);
		err = make_empty_image(image, fs->size_mib);
		if (!err)
			err = run_mkfs(fs, image, b->mkfs_log);
		if (!err)
			err = qemu_escape(escaped, sizeof(escaped), image);
		if (err)
			return err;
		snprintf(d->blockdev, sizeof(d->blockdev),
			 "driver=file,filename=%s,node-name=fs-%s,read-only=on",
			 escaped, fs->type);
		snprintf(d->device, sizeof(d->device),
			 "virtio-blk-pci,drive=fs-%s,serial=fs-%s,bus=%s",
			 fs->type, fs->type, m->fs_bus);
		b->nr_disks++;
	}
	return 0;
}

/* Room for the arguments below and the longest profile's. */
#define MAX_QEMU_ARGS	192

/* Append the NULL-terminated @args to @argv, of *@n so far. */
static void add_args(const char **argv, size_t *n, const char *const *args)
{
	while (*args && *n < MAX_QEMU_ARGS - 1)
		argv[(*n)++] = *args++;
	argv[*n] = NULL;
}

static int boot(const struct boot_options *o, const struct boot_files *b)
{
	char accel[64], console[320], stream[320];
	const char *const head[] = {
		QEMU, "-nodefaults", "-accel", accel, "-m", "512",
		"-display", "none", "-no-reboot", "-net", "none",
		"-kernel", b->boot_image, "-initrd", b->initramfs,
		"-append", "console=ttyS0 panic=-1 rdinit=/init",
		"-serial", console, "-serial", stream, NULL
	};
	/*
	 * Under TCG the guest's clock follows the host's, and on a busy host
	 * the kernel's timer calibration fails at random: the local APIC
	 * timer is disabled and, with it, the tick broadcast device changes
	 * between two boots of one kernel.  Counting time in instructions
	 * executed makes every boot see the same machine.  KVM refuses it.
	 */
	static const char *const icount[] = { "-icount", "shift=3,sleep=off", NULL };
	const char *argv[MAX_QEMU_ARGS];
	size_t argc = 0;
	struct child_process qemu = {
		.argv = argv, .timeout = o->timeout,
		.out_fd = CHILD_DEVNULL,
	};
	char how[64];
	size_t i;
	int err;

	snprintf(accel, sizeof(accel), "%s", o->accel ? o->accel : "tcg");
	snprintf(console, sizeof(console), "file:%s", b->console);
	snprintf(stream, sizeof(stream), "file:%s", b->stream);
	add_args(argv, &argc, head);
	add_args(argv, &argc, o->machine->qemu_args);
	for (i = 0; i < b->nr_disks; i++) {
		const char *const disk[] = {
			"-blockdev", b->disks[i].blockdev,
			"-device", b->disks[i].device, NULL
		};

		add_args(argv, &argc, disk);
	}
	if (!strcmp(accel, "tcg"))
		add_args(argv, &argc, icount);
	pr_info("booting %s under QEMU (%s) on the %s machine, at most %u s",
		o->image, accel, o->machine->name, o->timeout);
	qemu.err_fd = open(b->qemu_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (qemu.err_fd < 0) {
		err = -errno;
		pr_err("%s: %s", b->qemu_log, strerror(-err));
		return err;
	}
	err = run_command(&qemu);
	close(qemu.err_fd);
	if (err == -ETIMEDOUT) {
		pr_err("%s: the guest did not finish within %u s (--timeout)",
		       o->image, o->timeout);
		quote_log(QEMU, b->qemu_log);
		quote_console(b->console);
		return err;
	}
	if (err) {
		pr_err("cannot run " QEMU ": %s", strerror(-err));
		return err;
	}
	if (!child_succeeded(&qemu)) {
		pr_err(QEMU " %s booting %s",
		       describe_exit(qemu.status, how, sizeof(how)), o->image);
		quote_log(QEMU, b->qemu_log);
		quote_console(b->console);
		return -ECHILD;
	}
	return 0;
}

/*
 * What QEMU would boot must be an x86 kernel image: the boot protocol's
 * "HdrS" at 0x202 (Documentation/arch/x86/boot.rst), which a bzImage and a
 * Debian vmlinuz have and a vmlinux, a module or a text file have not.
 * Checked before QEMU starts, which would boot anything and time out.
 */
static int check_image(const char *path)
{
	char magic[4];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0) {
		err = -errno;
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	n = pread(fd, magic, sizeof(magic), 0x202);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err) {
		pr_err("%s: %s", path, strerror(-err));
		return err;
	}
	if (n != sizeof(magic) || memcmp(magic, "HdrS", sizeof(magic))) {
		pr_err("%s: not a kernel image to boot (no x86 boot header, \"HdrS\" at 0x202): give a bzImage or vmlinuz",
		       path);
		return -EINVAL;
	}
	return 0;
}

/*
 * Under TCG the kernel's decompressor is the slowest part of the boot:
 * boot a copy of the image with the kernel decompressed by the host
 * instead (unpack.c), unless the image is not one unpack.c can do.  KVM
 * decompresses at full speed: it boots the image itself.
 */
static int choose_image(const struct boot_options *o, struct boot_files *b)
{
	int err;

	b->boot_image = o->image;
	if (o->accel && strcmp(o->accel, "tcg"))
		return 0;
	err = kernel_image__unpack(o->image, b->kernel);
	if (err == -ENOTSUP)
		return 0;
	if (!err)
		b->boot_image = b->kernel;
	return err;
}

int sysfs_boot__collect(const struct boot_options *o, struct snapshot *s)
{
	struct module_set modules = { 0 };
	struct boot_files b;
	size_t len;
	char *buf = NULL;
	int err;

	if (access(o->agent, X_OK)) {
		pr_err("%s: the guest agent is missing (build it with make)",
		       o->agent);
		return -ENOENT;
	}
	err = check_image(o->image);
	if (err)
		return err;
	err = make_files(&b);
	if (err)
		return err;
	if (o->modules_dir && o->machine->modules)
		err = module_set__build(&modules, o->modules_dir,
					o->machine->modules,
					o->machine->boot_loads);
	if (!err)
		err = initramfs__write(b.initramfs, o->agent, &modules);
	if (!err)
		err = make_fs_disks(o->machine, &b);
	module_set__release(&modules);
	if (!err)
		err = choose_image(o, &b);
	if (!err)
		err = boot(o, &b);
	if (!err)
		report_agent(b.console);
	if (!err)
		err = read_file_or_report(b.stream, STREAM_FILE_MAX, &buf,
					  &len);
	if (!err) {
		err = sysfs_stream__read((unsigned char *)buf, len, o->image,
					 o->keep_raw, s);
		if (err)
			quote_console(b.console);
	}
	if (!err) {
		s->machine.profile = strdup(o->machine->name);
		s->machine.recorded = true;
		err = s->machine.profile ? 0 : -ENOMEM;
	}
	free(buf);
	cleanup_temp_remove(b.dir_slot);	/* the directory and its files */
	return err;
}
