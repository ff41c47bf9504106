#!/bin/sh
# The QEMU sysfs collector on Debian's own kernels, the newest ABIs of 6.1
# (plain .ko modules) and 6.12 (.ko.xz) the archive has (6.1.0-57 and
# 6.12.118+deb12 when this was written), each booted on the standard
# machine with its -unsigned package's vmlinuz and modules (fetched into
# the cache) and the guest agent as /init: the stream verifies, the
# drivers of the machine's devices are loaded, and the interfaces
# userspace uses most are there: the network interfaces of virtio_net and
# e1000e, the disks of virtio_blk, nvme and ahci with their queue/, the
# USB keyboard, the sound card, the loaded modules' parameters; and the
# server's parts: the root ports' hotplug slots, the NVMe subsystem with
# SR-IOV, pvpanic, an onboard device's label,
# the watchdog, the NUMA nodes
# with their HMAT attributes, the NVDIMM, the CXL root, the IPMI BMC, the
# mounted filesystems, what the modules loaded at boot make.
# Two boots give the same snapshot.
# A guest that does not finish in time, or whose /init cannot run, is one
# error, exit 2.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"

for series in 6.1 6.12; do
	abi=$(series_abis "$series" | tail -n 1)
	[ -n "$abi" ] ||
		missing_input "the archive has no Debian $series kernel (apt-cache pkgnames linux-image-$series.)"
	echo "# Debian's $series kernel here: $abi"
	if ! image=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh" --image) ||
		! modules=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh" --modules); then
		missing_input "could not fetch Debian's $abi kernel (tests/debian-vmlinux.sh)"
	fi
	# 6.1's, for the failures below
	first_image=${first_image:-$image}
	for boot in 1 2; do
		"$KABIDIFF" collect --image "$image" --modules "$modules" \
			--timeout 120 -o "$TMP/$abi.$boot.json" 2>"$TMP/err"
		is "$?:$(cat "$TMP/err")" "0:" "$abi, boot $boot: the agent's stream verifies"
	done
	cmp -s "$TMP/$abi.1.json" "$TMP/$abi.2.json" &&
		pass "$abi: two boots give byte-identical snapshots" ||
		fail "$abi: two boots give byte-identical snapshots" \
		     "$(diff "$TMP/$abi.1.json" "$TMP/$abi.2.json" | head -20)"
	run_checker "the checker of the $abi snapshot" python3 - "$TMP/$abi.1.json" "$abi" <<'PY'
import json, posixpath, sys
snap, abi = json.load(open(sys.argv[1])), sys.argv[2]
nodes = {n["path"]: n for n in snap["sysfs"]}

def check(ok, label, *evidence):
    print(("ok" if ok else "not ok") + f" - {abi}: {label}")
    for line in evidence if not ok else ():
        print("#   " + line)

def real(path):
    """@path with the links on the way resolved, as the kernel would."""
    parts, out = path.strip("/").split("/"), ""
    for i, part in enumerate(parts):
        out += "/" + part
        n = nodes.get(out)
        for _ in range(40):
            if not n or n["kind"] != "link":
                break
            out = posixpath.normpath(posixpath.join(posixpath.dirname(out),
                                                    n["target"]))
            n = nodes.get(out)
    return out

def driver(path):
    """The name of the driver bound to the device at @path, or None."""
    link = nodes.get(real(path) + "/driver")
    return link and link["target"].rsplit("/", 1)[1]

def children(path):
    path = real(path)
    return sorted({p[len(path) + 1:].split("/")[0] for p in nodes
                   if p.startswith(path + "/")})

sys_nodes = sum(p.startswith("/sys") for p in nodes)
proc_nodes = sum(p.startswith("/proc/sys") for p in nodes)
print(f"# {abi}: {sys_nodes} nodes under /sys, {proc_nodes} under /proc/sys")
check(snap["kernel"].get("release", "").startswith(abi),
      f"the stream names the kernel release {snap['kernel'].get('release')}")
check(snap.get("machine", {}).get("profile") == "standard",
      "the snapshot records the standard machine")
mods = {m["name"]: m for m in snap.get("machine", {}).get("modules", [])}
failed = [f"{m['name']} {m['error']}" for m in mods.values() if "error" in m]
check(not failed, f"{len(mods)} modules loaded, none failed", *failed)

nets = {driver(f"/sys/class/net/{i}/device"): i
        for i in children("/sys/class/net")}
for drv in ("virtio_net", "e1000e"):
    iface = nets.get(drv)
    attrs = iface and children(f"/sys/class/net/{iface}")
    want = {"address", "mtu", "operstate", "carrier", "type", "ifindex",
            "statistics", "queues"}
    check(iface and want <= set(attrs),
          f"/sys/class/net/{iface}, of {drv}, with its documented attributes",
          f"interfaces by driver: {nets}", f"attributes: {attrs}")

disks = {}
for disk in children("/sys/block"):
    dev = real(f"/sys/block/{disk}/device")
    # a disk's driver is on its device, or above it (nvme's namespace)
    while dev.count("/") > 3 and not driver(dev):
        dev = posixpath.dirname(dev)
    disks[driver(dev)] = disk
for drv, want_disk in (("virtio_blk", "vd"), ("nvme", "nvme"), ("sd", "sd")):
    disk = disks.get(drv)
    queue = disk and children(f"/sys/block/{disk}/queue")
    check(disk and disk.startswith(want_disk) and
          {"logical_block_size", "rotational", "scheduler"} <= set(queue),
          f"/sys/block/{disk}, of {drv}, with queue/ attributes",
          f"disks by driver: {disks}", f"queue: {queue}")
ahci = [p for p in nodes if p.startswith("/sys/bus/pci/drivers/ahci/0000:")]
check(ahci and disks.get("sd"), "the SATA disk sits behind ahci", *ahci)

usb = {d: driver(f"/sys/bus/usb/devices/{d}")
       for d in children("/sys/bus/usb/devices")}
hid = sorted(d for d, drv in usb.items() if drv == "usbhid")
inputs = [i for d in hid for i in children(f"/sys/bus/usb/devices/{d}")
          if i.startswith("0003:0627:0001")]
check(len(hid) == 2 and len(inputs) == 2,
      "the USB keyboard and tablet: two usbhid interfaces, two HID devices "
      "of QEMU's (0627:0001)", f"USB devices: {usb}", f"HID: {inputs}")
cards = children("/sys/class/sound")
check("card0" in cards and driver("/sys/class/sound/card0/device") == "snd_hda_intel",
      "/sys/class/sound/card0, of snd_hda_intel", f"/sys/class/sound: {cards}")

# The server's parts.  The root ports' hotplug slots, 1 to 6, each with
# its address; 6.1's link to the hotplug driver's module (6.12 registers
# the built-in modules' kobjects after pciehp's slots and has none).
slots = children("/sys/bus/pci/slots")
ports = [f"0000:00:10.{fn}" for fn in range(6)]
check(all(driver(f"/sys/bus/pci/devices/{p}") == "pcieport" for p in ports) and
      all(f"/sys/bus/pci/slots/{n}/address" in nodes for n in range(1, 7)),
      "six PCIe root ports (pcieport) with hotplug slots 1 to 6 and their addresses",
      f"slots: {slots}",
      f"root ports: {[(p, driver(f'/sys/bus/pci/devices/{p}')) for p in ports]}")
if abi.startswith("6.1."):
    link = nodes.get("/sys/bus/pci/slots/1/module", {})
    check(link.get("target", "").endswith("/module/pciehp"),
          "/sys/bus/pci/slots/1/module links to pciehp", f"module: {link}")
sriov = children("/sys/bus/pci/devices/0000:04:00.0")
check({"sriov_totalvfs", "sriov_numvfs"} <= set(sriov) and
      "nvme0" in children("/sys/class/nvme-subsystem/nvme-subsys0"),
      "the NVMe controller in nvme-subsys0, SR-IOV capable",
      f"04:00.0: {sriov}")
panic = "/sys/bus/acpi/devices/QEMU0001:00/physical_node"
check(driver(panic) == "pvpanic-mmio" and "events" in children(panic),
      "the ISA pvpanic device (QEMU0001) of pvpanic-mmio with its events",
      f"QEMU0001:00: {driver(panic)} {children(panic)}")
rng = "/sys/bus/pci/devices/0000:00:02.0"
check(driver(rng) == "virtio-pci" and {"label", "index"} <= set(children(rng)),
      "virtio-rng at 00:02.0 with the label and index of its SMBIOS entry",
      f"00:02.0: {driver(rng)} {children(rng)}")
esb = [d for d in children("/sys/bus/pci/devices")
       if driver(f"/sys/bus/pci/devices/{d}") == "i6300ESB timer"]
wdt = children("/sys/class/watchdog/watchdog0")
check(esb and {"identity", "timeout", "nowayout", "state"} <= set(wdt),
      "/sys/class/watchdog/watchdog0 of the i6300ESB with its documented attributes",
      f"i6300ESB: {esb}", f"watchdog0: {wdt}")
node = "/sys/devices/system/node"
check(f"{node}/node0/cpu0" in nodes and f"{node}/node1/cpu0" not in nodes and
      all(f"{node}/node{n}/access0/initiators/read_latency" in nodes and
          f"{node}/node{n}/memory_side_cache/index1/size" in nodes
          for n in (0, 1)),
      "two NUMA nodes, the CPU in node0, with the HMAT's access0 and memory-side cache",
      f"node0: {children(node + '/node0')}", f"node1: {children(node + '/node1')}")
check(driver("/sys/bus/nd/devices/nmem0") == "nvdimm" and
      real("/sys/bus/nd/devices/nmem0/nfit/handle") in nodes and
      driver("/sys/bus/nd/devices/region1") == "nd_region" and
      any(driver(f"/sys/block/{d}/device") == "nd_pmem"
          for d in children("/sys/block") if d.startswith("pmem")),
      "the NVDIMM: nmem0 with its NFIT handle, region1, a pmem disk of nd_pmem",
      f"nd: {children('/sys/bus/nd/devices')}", f"block: {children('/sys/block')}")
cxl = children("/sys/bus/cxl/devices")
check({"root0", "port1", "decoder0.0"} <= set(cxl) and
      driver("/sys/bus/cxl/devices/port1") == "cxl_port" and
      driver("/sys/bus/cxl/devices/nvdimm-bridge0") == "cxl_nvdimm_bridge" and
      real("/sys/bus/cxl/devices/decoder0.0/target_list") in nodes,
      "the CXL root0 with its decoder, port1 (cxl_port), the NVDIMM bridge",
      f"cxl: {cxl}")
# each filesystem on the virtio disk whose serial names it, mounted: its
# directory under /sys/fs with an attribute of its Documentation/ABI entries
fs_attrs = {"ext4": "mb_stats", "f2fs": "gc_max_sleep_time",
            "nilfs2": "revision", "xfs": "log/log_head_lsn"}
for fs, attr in fs_attrs.items():
    disks = [d for d in children(f"/sys/fs/{fs}")
             if driver(f"/sys/block/{d}/device") == "virtio_blk"]
    check(len(disks) == 1 and f"/sys/fs/{fs}/{disks[0]}/{attr}" in nodes,
          f"the {fs} disk mounted: /sys/fs/{fs}/DISK/{attr}",
          f"/sys/fs/{fs}: {children('/sys/fs/' + fs)}")
# the modules the machine loads at boot, and an attribute of what each makes
boot_attrs = {"zram": "/sys/block/zram0/disksize",
              "mtdram": "/sys/class/mtd/mtd0/erasesize",
              "ubi": "/sys/class/ubi/ubi0/total_eraseblocks",
              "mac80211_hwsim": "/sys/class/rfkill/rfkill0/soft",
              "ocfs2_stackglue": "/sys/fs/ocfs2/cluster_stack"}
for m, attr in boot_attrs.items():
    check(mods.get(m, {}).get("how") == "boot" and real(attr) in nodes,
          f"{m} loaded at boot: {attr}", f"{m}: {mods.get(m)}")
bmc = children("/sys/bus/platform/devices/ipmi_bmc.0")
check(driver("/sys/bus/acpi/devices/IPI0001:00/physical_node") == "ipmi_si" and
      {"device_id", "ipmi_version", "firmware_revision"} <= set(bmc),
      "the IPMI KCS interface (ipmi_si) and its BMC's documented attributes",
      f"IPI0001:00: {driver('/sys/bus/acpi/devices/IPI0001:00/physical_node')}",
      f"ipmi_bmc.0: {bmc}")

for m in ("e1000e", "snd_hda_intel", "usbhid", "nvme_core"):
    params = children(f"/sys/module/{m}/parameters")
    check(m in mods and params, f"/sys/module/{m}/parameters/ of a loaded module",
          f"{m}: {params}")
PY
done

image=$first_image

# A guest that has not finished by the timeout is killed
"$KABIDIFF" collect --image "$image" --timeout 2 -o "$TMP/slow.json" 2>"$TMP/err"
is "$?:$(head -n 1 "$TMP/err"):$(ls "$TMP/slow.json" 2>/dev/null)" \
   "2:kabidiff: $image: the guest did not finish within 2 s (--timeout):" \
   "a guest still running at --timeout is killed: exit 2, no snapshot"

# An /init the kernel cannot run: it panics, QEMU ends, no stream
printf '\177ELF truncated' >"$TMP/bad-init"
chmod +x "$TMP/bad-init"
KABIDIFF_AGENT=$TMP/bad-init "$KABIDIFF" collect --image "$image" --timeout 120 \
	-o "$TMP/panic.json" 2>"$TMP/err"
status=$?
is "$status:$(head -n 1 "$TMP/err"):$(ls "$TMP/panic.json" 2>/dev/null)" \
   "2:kabidiff: $image: no agent stream (0 bytes without the agent's magic): did the guest start the agent?:" \
   "a guest that panics at once: exit 2, no snapshot"
grep -q 'Kernel panic' "$TMP/err" &&
	pass "the message quotes the console's panic" ||
	fail "the message quotes the console's panic" "$(cat "$TMP/err")"

done_testing
