// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine profiles.  "standard" gives the guest the devices whose
 * drivers userspace talks to most (udev, systemd, NetworkManager, ALSA):
 * two NICs, three kinds of disk, USB input, a sound card and an entropy
 * source, on q35, the PCIe machine.  Nothing reaches the host: the NICs
 * are connected to nothing (QEMU warns that they have no peer), the disks
 * are QEMU's null-co driver, which reads zeroes and drops writes (and is
 * read-only but for the AHCI disk, which QEMU wants writable), the sound
 * goes to the "none" backend.  "minimal" is QEMU's default PC with no
 * device at all, what kabidiff booted before there were profiles.
 */
#include <stddef.h>
#include <string.h>

#include "lib/compiler.h"
#include "machine.h"

/* A disk on QEMU's null-co driver: no file, read-only, zeroes. */
#define NULL_DISK(node) \
	"-blockdev", "driver=null-co,node-name=" node ",read-zeroes=on,read-only=on"
/*
 * The same, writable: QEMU's ide-hd refuses a read-only node ("Block node
 * is read-only").  null-co drops what is written; the agent writes nothing.
 */
#define NULL_DISK_RW(node) \
	"-blockdev", "driver=null-co,node-name=" node ",read-zeroes=on"

static const char *const standard_args[] = {
	"-machine", "q35",
	"-device", "virtio-net-pci",
	"-device", "e1000e",
	NULL_DISK("vblk0"), "-device", "virtio-blk-pci,drive=vblk0",
	NULL_DISK("nvme0"), "-device", "nvme,drive=nvme0,serial=kabidiff0",
	/* q35's own AHCI controller (ICH9), its first port */
	NULL_DISK_RW("sata0"), "-device", "ide-hd,drive=sata0,bus=ide.0",
	"-device", "qemu-xhci,id=xhci",
	"-device", "usb-kbd,bus=xhci.0",
	"-device", "usb-tablet,bus=xhci.0",
	"-audiodev", "none,id=snd0",
	"-device", "intel-hda",
	"-device", "hda-duplex,audiodev=snd0",
	"-device", "virtio-rng-pci",
	NULL
};

/*
 * The drivers of those devices, and of what they make: the disks behind
 * AHCI are SCSI disks, the USB keyboard and tablet HID devices, each input
 * device gets an event node, the HDA codec is QEMU's own (the generic
 * codec driver takes it).  Those a kernel has built in are skipped.
 */
static const char *const standard_modules[] = {
	"virtio_pci", "virtio_net", "e1000e",
	"virtio_blk", "nvme", "ahci", "sd_mod",
	"xhci_pci", "usbhid", "hid_generic", "evdev",
	"snd_hda_intel", "snd_hda_codec_generic",
	"virtio_rng",
	NULL
};

static const char *const minimal_args[] = {
	"-machine", "pc",
	NULL
};

static const struct machine_profile profiles[] = {
	{
		.name = "standard",
		.summary = "q35: virtio-net and e1000e NICs (no network), virtio-blk, NVMe and AHCI disks (null-co), xHCI with a USB keyboard and tablet, Intel HDA with a codec (no audio), virtio-rng",
		.qemu_args = standard_args,
		.modules = standard_modules,
	},
	{
		.name = "minimal",
		.summary = "pc: no device but the serial ports",
		.qemu_args = minimal_args,
	},
};

const struct machine_profile *machine_profile__find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *machine_profile__names(void)
{
	return "standard, minimal";
}
