// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "agent.h"
#include "coldplug.h"
#include "pid1.h"
#include "say.h"
#include "watchdog.h"

static const struct tree guest_trees[] = {
	{ .root = "/sys", .prefix = "/sys" },
	/* a kernel without CONFIG_PROC_SYSCTL has none */
	{ .root = "/proc/sys", .prefix = "/proc/sys", .optional = true },
};

static void make_chardev(const char *path, unsigned int major,
			 unsigned int minor)
{
	mknod(path, S_IFCHR | 0600, makedev(major, minor));
}

/*
 * /dev from devtmpfs when the kernel has it, else the nodes we need made
 * in the initramfs; then make sure fds 0-2 are the console, as the kernel
 * leaves them closed when the initramfs has no /dev/console.
 */
static void setup_dev(void)
{
	int fd;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID | MS_NOEXEC, NULL);
	make_chardev("/dev/console", 5, 1);
	make_chardev("/dev/null", 1, 3);
	make_chardev(AGENT_CHANNEL, AGENT_CHANNEL_MAJOR, AGENT_CHANNEL_MINOR);
	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* sysfs and procfs, read-only: nothing the agent does can write to them */
static int mount_trees(void)
{
	static const struct {
		const char *fs, *dir;
	} mounts[] = {
		{ "proc", "/proc" },
		{ "sysfs", "/sys" },
	};
	unsigned long flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		mkdir(mounts[i].dir, 0555);
		if (mount(mounts[i].fs, mounts[i].dir, mounts[i].fs, flags, NULL)) {
			say("cannot mount %s on %s: %s", mounts[i].fs,
			    mounts[i].dir, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/* The first line of the small file @path in @buf, or "" */
static void read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The filesystems of the machine's disks (collectors/sysfs/machine.c): a
 * virtio disk whose serial is "fs-TYPE" is mounted read-only as TYPE on
 * /mnt/TYPE, for what a mounted filesystem shows under /sys/fs.  After the
 * coldplug, which loaded virtio_blk; mount(2) asks for the filesystem's
 * module itself ("fs-TYPE").  A disk that does not mount is a message: the
 * walk goes on without its directories.
 */
static void mount_filesystems(void)
{
	unsigned long flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	char path[320], serial[64], dir[96];
	struct dirent **disks;
	int i, n = scandir("/sys/block", &disks, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *name = disks[i]->d_name;

		snprintf(path, sizeof(path), "/sys/block/%s/serial", name);
		read_line(path, serial, sizeof(serial));
		if (!strncmp(serial, "fs-", 3) && serial[3]) {
			snprintf(path, sizeof(path), "/dev/%s", name);
			snprintf(dir, sizeof(dir), "/mnt/%s", serial + 3);
			mkdir("/mnt", 0755);
			mkdir(dir, 0755);
			if (mount(path, dir, serial + 3, flags, NULL))
				say("cannot mount %s (%s) on %s: %s", path,
				    serial + 3, dir, strerror(errno));
		}
		free(disks[i]);
	}
	if (n >= 0)
		free(disks);
}

/* the data channel: the serial port in raw mode, 8 bits, no flow control */
static int open_channel(void)
{
	struct termios t;
	int fd, flags;

	/* O_NONBLOCK: do not wait for a carrier before CLOCAL is set */
	fd = open(AGENT_CHANNEL, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (tcgetattr(fd, &t))
		goto fail_close;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL;
	t.c_cflag &= ~CRTSCTS;
	cfsetspeed(&t, B115200);	/* QEMU ignores it, hardware would not */
	if (tcsetattr(fd, TCSANOW, &t))
		goto fail_close;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK))
		goto fail_close;
	return fd;

fail_close:
	flags = errno;
	close(fd);
	errno = flags;
fail:
	say("cannot open the data channel %s: %s (is QEMU started with a second -serial?)",
	    AGENT_CHANNEL, strerror(errno));
	return -1;
}

/*
 * End QEMU.  RB_POWER_OFF on a kernel with no way to power off (no ACPI,
 * as in a tinyconfig build) does not fail: sys_reboot() turns it into a
 * halt, which never returns and leaves QEMU running.  So ask for it only
 * when ACPI is there; otherwise reboot, which QEMU's -no-reboot turns into
 * an exit.  PID 1 must never exit: that would be a panic.
 */
void __noreturn pid1_power_off(void)
{
	sync();
	if (!access("/sys/firmware/acpi", F_OK))
		reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	say("cannot power off or reboot: %s", strerror(errno));
	for (;;)
		pause();
}

void pid1_run(struct agent *a)
{
	uint64_t start = now_ms(), ms;
	struct shared *s;
	int fd, ret;

	setup_dev();
	say_fd = STDOUT_FILENO;
	if (mount_trees())
		return;
	fd = open_channel();
	if (fd < 0)
		return;
	if (!access(COLDPLUG_TABLE, R_OK))
		say("%s: loaded %zu modules for the devices, in %llu ms",
		    KABIDIFF_VERSION, coldplug(&a->loads),
		    (unsigned long long)(now_ms() - start));
	mount_filesystems();
	say("%s: streaming /sys and /proc/sys to %s", KABIDIFF_VERSION,
	    AGENT_CHANNEL);
	/* the summary below times the walk, not the loading before it */
	start = now_ms();
	ret = watchdog_dump(a, fd, guest_trees, ARRAY_SIZE(guest_trees));
	/* every byte on the wire before power-off, a failed walk's too */
	if (a->shared && !a->shared->out.error)
		tcdrain(fd);
	close(fd);
	if (!a->shared)
		return;
	s = a->shared;
	ms = now_ms() - start;
	say("%s: %llu nodes, %llu bytes in %llu.%03llu s, %llu reads timed out%s",
	    ret ? "failed" : "done",
	    (unsigned long long)s->out.nodes, (unsigned long long)s->out.bytes,
	    (unsigned long long)ms / 1000, (unsigned long long)ms % 1000,
	    (unsigned long long)s->timeouts,
	    a->stuck ? ", some stuck in the kernel" : "");
}
