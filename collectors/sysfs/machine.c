// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine profiles.  "standard" is shaped like a small server: q35,
 * the PCIe machine, with its NICs, disks and USB controller behind PCIe
 * root ports whose hotplug slots pciehp drives; two NUMA nodes, the second
 * memory only, described by an HMAT (latencies, bandwidths, a memory-side
 * cache);
 * an NVDIMM (ACPI NFIT, libnvdimm); a CXL host bridge with a root port
 * (the CXL root, its port and decoders); an IPMI BMC on a KCS interface;
 * an i6300ESB watchdog; ext4, f2fs, nilfs2 and XFS on disks of their own,
 * mounted read-only (their /sys/fs directories); zram, flash (an MTD
 * device in RAM with UBI on it), two simulated Wi-Fi radios (rfkill) and
 * the OCFS2 cluster stack glue, modules loaded at boot as a server's
 * /etc/modules would; beside them the devices whose drivers userspace
 * talks to most (udev, systemd, NetworkManager, ALSA): two NICs, three
 * kinds of disk, USB input, a sound card and an entropy source.  The NVMe
 * controller is in an NVM subsystem and can have virtual functions
 * (SR-IOV); the entropy source is an onboard device (SMBIOS type 41); a
 * pvpanic device on ISA.  The NVMe controller has one namespace: with a
 * second (a zoned one, for max_open_zones and max_active_zones) the
 * asynchronous namespace scan of 6.12 names them nvme0c0n1 and nvme0c0n2
 * in either order, and two boots differ.
 *
 * Each device was kept for what it makes observable, measured on Debian
 * 6.12.118's snapshot: the Documentation/ABI entries (by file and line)
 * that its nodes match, or, for the watchdog, that its nodes would match
 * but for the documents spelling the device "watchdogn".  QEMU 7.2's CXL
 * type 3 memory device is left out: 6.12's cxl_pci fails to probe it (no
 * interrupt for its event logs) while 6.1's binds it, and every memdev
 * attribute would be reported removed.  Devices that brought no
 * documented entry (virtio-scsi with a disk and a CD-ROM, usb-storage, an
 * SD card, a display, virtio-balloon, virtio-input, pvpanic on PCI) are
 * left out too: each costs boot time.
 *
 * Nothing reaches the host: the NICs are connected to nothing (QEMU warns
 * that they have no peer), the disks are QEMU's null-co driver, which
 * reads zeroes and drops writes (and is read-only but for the AHCI disk,
 * which QEMU wants writable), or, for the filesystems, images in the
 * boot's temporary directory that QEMU opens read-only; all memory, the
 * NVDIMM's too, is RAM, the BMC is QEMU's simulation, the sound goes to
 * the "none" backend.
 * "minimal" is QEMU's default PC with no device at all, what kabidiff
 * booted before there were profiles.
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

/*
 * A PCIe root port at 00:10.@fn whose hotplug slot is number @n: pciehp
 * makes it /sys/bus/pci/slots/@n.
 */
#define ROOT_PORT(id, n, fn) \
	"-device", "pcie-root-port,id=" id ",bus=pcie.0,chassis=" n \
		   ",slot=" n ",addr=0x10." fn

/* HMAT: from the CPU of node @i to the memory of node @t, in ns and B/s. */
#define HMAT_LB(i, t, ns, bw) \
	"-numa", "hmat-lb,initiator=" i ",target=" t \
		 ",hierarchy=memory,data-type=access-latency,latency=" ns, \
	"-numa", "hmat-lb,initiator=" i ",target=" t \
		 ",hierarchy=memory,data-type=access-bandwidth,bandwidth=" bw

/* HMAT: a memory-side cache in front of the memory of node @n. */
#define HMAT_CACHE(n) \
	"-numa", "hmat-cache,node-id=" n ",size=16K,level=1" \
		 ",associativity=direct,policy=write-back,line=64"

static const char *const standard_args[] = {
	"-machine", "q35,cxl=on,nvdimm=on,hmat=on",
	/*
	 * QEMU merges this -m with boot.c's "-m 512": the NVDIMM is a memory
	 * device, which needs a slot and room above the RAM.
	 */
	"-m", "512,slots=2,maxmem=1G",
	/*
	 * One CPU: 6.1 hangs bringing up a second one under TCG with
	 * -icount.  Node 1 is memory only, its initiator node 0's CPU.
	 */
	"-object", "memory-backend-ram,id=ram0,size=256M",
	"-object", "memory-backend-ram,id=ram1,size=256M",
	"-numa", "node,nodeid=0,cpus=0,memdev=ram0",
	"-numa", "node,nodeid=1,memdev=ram1,initiator=0",
	HMAT_LB("0", "0", "10", "200M"),
	HMAT_LB("0", "1", "20", "100M"),
	HMAT_CACHE("0"),
	HMAT_CACHE("1"),
	/*
	 * Native PCIe hotplug: without this, q35 keeps hotplug of the root
	 * ports for ACPI, and pciehp leaves the slots alone.
	 */
	"-global", "ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off",
	ROOT_PORT("rp1", "1", "0,multifunction=on"),
	ROOT_PORT("rp2", "2", "1"),
	ROOT_PORT("rp3", "3", "2"),
	ROOT_PORT("rp4", "4", "3"),
	ROOT_PORT("rp5", "5", "4"),
	/* an empty slot, as a server has */
	ROOT_PORT("rp6", "6", "5"),
	"-device", "virtio-net-pci,bus=rp1",
	"-device", "e1000e,bus=rp2",
	NULL_DISK("vblk0"), "-device", "virtio-blk-pci,drive=vblk0,bus=rp3",
	/*
	 * An NVMe controller able to have two virtual functions (SR-IOV), in
	 * an NVM subsystem, with a namespace.
	 */
	NULL_DISK("nvme0"),
	"-device", "nvme-subsys,id=nvmesubsys0,nqn=kabidiff",
	"-device", "nvme,id=nvme0,serial=kabidiff0,bus=rp4,subsys=nvmesubsys0,sriov_max_vfs=2,sriov_vq_flexible=4,sriov_vi_flexible=2,msix_qsize=8",
	"-device", "nvme-ns,drive=nvme0,bus=nvme0,nsid=1",
	/* q35's own AHCI controller (ICH9), its first port */
	NULL_DISK_RW("sata0"), "-device", "ide-hd,drive=sata0,bus=ide.0",
	"-device", "qemu-xhci,id=xhci,bus=rp5",
	"-device", "usb-kbd,bus=xhci.0",
	"-device", "usb-tablet,bus=xhci.0",
	"-audiodev", "none,id=snd0",
	"-device", "intel-hda,bus=pcie.0",
	"-device", "hda-duplex,audiodev=snd0",
	/*
	 * The entropy source as an onboard device: its SMBIOS type 41 entry
	 * gives it a label and an index.  (An acpi-index gives nothing: q35
	 * has no _DSM for it without ACPI hotplug.)
	 */
	"-device", "virtio-rng-pci,bus=pcie.0,id=rng0",
	"-smbios", "type=41,designation=rng,instance=1,kind=other,pcidev=rng0",
	"-device", "i6300esb,bus=pcie.0",
	"-device", "pvpanic",
	"-object", "memory-backend-ram,id=nv0,size=128M",
	"-device", "nvdimm,memdev=nv0,id=nv0",
	/* a CXL host bridge (bus 12) and its root port, in a 4 GB window */
	"-device", "pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1",
	"-device", "cxl-rp,port=0,bus=cxl.1,id=cxlrp0,chassis=20,slot=20",
	"-M", "cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G",
	"-device", "ipmi-bmc-sim,id=bmc0",
	"-device", "isa-ipmi-kcs,bmc=bmc0",
	NULL
};

/*
 * The drivers of those devices, and of what they make: the disks behind
 * AHCI are SCSI disks, the USB keyboard and tablet HID devices, each input
 * device gets an event node, the HDA codec is QEMU's own (the generic
 * codec driver takes it), the NFIT's region a pmem disk with its BTT and
 * DAX seeds, the CXL root an NVDIMM bridge.  Those a kernel has built in
 * (pciehp, 6.12's cxl_port) are skipped.
 */
static const char *const standard_modules[] = {
	"virtio_pci", "virtio_net", "e1000e",
	"virtio_blk", "nvme", "ahci", "sd_mod",
	"xhci_pci", "usbhid", "hid_generic", "evdev",
	"snd_hda_intel", "snd_hda_codec_generic",
	"virtio_rng",
	"i6300esb", "pvpanic_mmio",
	"nfit", "nd_pmem", "nd_btt", "dax_pmem",
	"cxl_acpi", "cxl_port", "cxl_pmem",
	"ipmi_si",
	/* loaded as the mounts below ask for them ("fs-f2fs") */
	"ext4", "f2fs", "nilfs2", "xfs",
	/* and the checksums they ask the crypto API for ("crypto-crc32c") */
	"crc32_generic", "crc32c_generic",
	NULL
};

/*
 * The modules a server loads without a device asking, for the documented
 * interfaces of what they make: compressed swap in RAM (zram0); flash, the
 * MTD RAM device (mtd0, 4 MiB of RAM) with UBI attached to it (ubi0, which
 * formats the empty flash); two simulated Wi-Fi radios with their rfkill
 * switches (mac80211_hwsim, which reaches nothing); /sys/fs/ocfs2, the
 * cluster stack glue's.
 */
static const struct boot_load standard_boot_loads[] = {
	{ "zram" },
	{ "mtdram" },
	{ "ubi", "mtd=0" },
	{ "mac80211_hwsim" },
	{ "ocfs2_stackglue" },
	{ NULL }
};

static const char *const mkfs_ext4[] = { "mkfs.ext4", "-q", NULL };
static const char *const mkfs_f2fs[] = { "mkfs.f2fs", "-q", NULL };
static const char *const mkfs_nilfs2[] = { "mkfs.nilfs2", "-q", NULL };
static const char *const mkfs_xfs[] = { "mkfs.xfs", "-q", NULL };

/*
 * The filesystems with Documentation/ABI entries under /sys/fs that only a
 * mounted filesystem shows: per device directories (/sys/fs/f2fs/vdb/),
 * and the features a module registers when it loads.  Each is as small as
 * its mkfs allows.
 */
static const struct machine_filesystem standard_filesystems[] = {
	{ "ext4", 16, mkfs_ext4, "e2fsprogs" },
	{ "f2fs", 64, mkfs_f2fs, "f2fs-tools" },
	{ "nilfs2", 129, mkfs_nilfs2, "nilfs-tools" },
	{ "xfs", 300, mkfs_xfs, "xfsprogs" },
	{ NULL }
};

static const char *const minimal_args[] = {
	"-machine", "pc",
	NULL
};

static const struct machine_profile profiles[] = {
	{
		.name = "standard",
		.summary = "q35, a server's shape: two NUMA nodes, one of memory only (HMAT), PCIe root ports with hotplug slots (pciehp) holding virtio-net and e1000e NICs (no network), virtio-blk and NVMe disks (an NVM subsystem, SR-IOV), xHCI with a USB keyboard and tablet; an AHCI disk (disks null-co), Intel HDA (no audio), virtio-rng (onboard, SMBIOS), pvpanic, an i6300ESB watchdog, an NVDIMM, a CXL host bridge and root port, an IPMI BMC (KCS); ext4, f2fs, nilfs2 and XFS disks (images made for the boot, mounted read-only); loaded at boot: zram, an MTD RAM device with UBI, two simulated Wi-Fi radios, the OCFS2 stack glue",
		.qemu_args = standard_args,
		.modules = standard_modules,
		.boot_loads = standard_boot_loads,
		.filesystems = standard_filesystems,
		/* QEMU's default would be the last bus: the CXL host bridge's */
		.fs_bus = "pcie.0",
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
