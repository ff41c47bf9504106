#!/bin/sh
# kabidiff show: canonical round trip of every snapshot fixture, the text
# summary, and the command line around it.
. "$(dirname "$0")/../lib.sh"

for f in "$FIXTURES"/snapshots/*.json; do
	name=${f#"$TOP"/}
	"$KABIDIFF" show --json "$f" >"$TMP/canon" 2>"$TMP/err"
	if [ $? -eq 0 ] && cmp -s "$f" "$TMP/canon"; then
		pass "show --json reproduces $name byte for byte"
	else
		fail "show --json reproduces $name byte for byte" \
		     "$(cat "$TMP/err")" "$(diff -u "$f" "$TMP/canon" | head -20)"
	fi
done

# the global --json before the command does the same
"$KABIDIFF" --json show "$FIXTURES/snapshots/full.json" >"$TMP/canon"
cmp -s "$FIXTURES/snapshots/full.json" "$TMP/canon" &&
	pass "kabidiff --json show is show --json" ||
	fail "kabidiff --json show is show --json"

# records out of order and optional fields as null come out canonical
sed -e 's/"version": 2,/"version": 2, "coverage": null,/' \
    "$FIXTURES/snapshots/full.json" |
	python3 -c 'import json, sys
d = json.load(sys.stdin)
d["sysfs"].reverse(); d["syscalls"].reverse(); d["docs"].reverse()
d["census"]["modules"].reverse(); d["census"]["attributes"].reverse()
json.dump(d, sys.stdout)' >"$TMP/shuffled.json"
"$KABIDIFF" show --json "$TMP/shuffled.json" | sed -e '/"coverage"/,$d' >"$TMP/canon"
sed -e '/"coverage"/,$d' "$FIXTURES/snapshots/full.json" >"$TMP/expected"
cmp -s "$TMP/expected" "$TMP/canon" &&
	pass "show --json sorts records into canonical order" ||
	fail "show --json sorts records into canonical order" \
	     "$(diff -u "$TMP/expected" "$TMP/canon" | head -20)"

# the table of the entries observed between the parts and the directories
# is observed.t's
run_kabidiff show "$FIXTURES/snapshots/full.json"
out=$(printf '%s\n' "$out" | sed '/^documentation entries observed/,/^$/d')
is "$status:$out" "0:kernel      6.1.0-kabi-test
version     #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-1
build date  2026-01-10
arch        x86_64
build id    0123456789abcdef0123456789abcdef01234567
git         4a619488c0ffee00000000000000000000000000
collected   kabidiff 0.1

syscalls    ia32 1 (1 implemented); x32 none; x86_64 5 (4 implemented)
vdso        vdso32 1 symbol, 0 with prototypes (LINUX_2.5); vdso64 1 symbol, 1 with prototypes (LINUX_2.6)
types       11: 6 struct, 1 union, 2 enum, 1 typedef, 1 base
sysfs       29 nodes: 5 dir, 20 file, 3 link, 1 other
machine     standard (q35, a server's shape: two NUMA nodes, one of memory only (HMAT), PCIe root ports with hotplug slots (pciehp) holding virtio-net and e1000e NICs (no network), virtio-blk and NVMe disks (an NVM subsystem, SR-IOV), xHCI with a USB keyboard and tablet; an AHCI disk (disks null-co), Intel HDA (no audio), virtio-rng (onboard, SMBIOS), pvpanic, an i6300ESB watchdog, an NVDIMM, a CXL host bridge and root port, an IPMI BMC (KCS); ext4, f2fs, nilfs2 and XFS disks (images made for the boot, mounted read-only); loaded at boot: zram, an MTD RAM device with UBI, two simulated Wi-Fi radios, the OCFS2 stack glue)
docs        7 entries: 1 stable, 2 testing, 1 unstable, 1 obsolete, 1 private, 1 removed
coverage    9 of 29 nodes documented (31.0%)
census      10 attributes: 3 device, 3 kobj, 1 sensor, 1 bin, 1 hwmon, 1 param; 3 modules read, 2 with attributes

   nodes  top-level directory
       1  /proc/sys/kernel
       2  /proc/sys/vm
       1  /sys
       7  /sys/bus
       2  /sys/class
       5  /sys/devices
       1  /sys/firmware
       1  /sys/fs
       7  /sys/kernel
       2  /sys/power" "show summarises full.json"

run_kabidiff show "$FIXTURES/snapshots/minimal.json"
is "$status:$out" "0:kernel      (unknown)
version     (unknown)
build date  (unknown)
arch        (unknown)
build id    (unknown)
git         (unknown)
collected   (unknown)

syscalls    not collected
vdso        not collected
types       not collected
sysfs       not collected
machine     not recorded
docs        not collected
coverage    not computed
census      not collected" "show tells parts not collected"

run_kabidiff show "$FIXTURES/snapshots/empty-parts.json"
is "$(printf '%s\n' "$out" | sed -n '9,16p')" "syscalls    0
vdso        0
types       0
sysfs       0 nodes
machine     not recorded
docs        0 entries
coverage    no sysfs nodes
census      0 attributes; 0 modules read, 0 with attributes" "show tells empty parts from parts not collected"

# one attribute, one module: the census says so in the singular
printf '{"format":"kabidiff-snapshot","version":6,"kernel":{},"census":{"modules":["k10temp"],"attributes":[{"module":"k10temp","symbol":"__param_force","name":"force","kind":"param","type":"struct kernel_param","mode":"0444","mode_at_run_time":false,"grouped":false}]}}' >"$TMP/census.json"
run_kabidiff show "$TMP/census.json"
is "$status:$(printf '%s\n' "$out" | sed -n '$p')" "0:census      1 attribute: 1 param; 1 module read, 1 with attributes" \
   "show counts a census of one attribute"

# a name that is not printable comes out quoted on one line
printf '{"format":"kabidiff-snapshot","version":1,"kernel":{"release":"a\\nb\\\\xff"},"sysfs":[{"path":"/sys/x\\ty","kind":"dir","mode":"0755"}]}' >"$TMP/quote.json"
run_kabidiff show "$TMP/quote.json"
is "$(printf '%s\n' "$out" | sed -n '1p;$p')" 'kernel      "a\nb\xff"
       1  "/sys/x\ty"' "show quotes names that are not printable"

run_kabidiff --help
is "$status:$(printf '%s\n' "$out" | head -1)" "0:Usage: kabidiff [--json] [--quiet] COMMAND [ARGS...]" "--help prints usage"
case "$out" in
*"show [--json] SNAPSHOT"*) pass "--help lists show" ;;
*) fail "--help lists show" "$out" ;;
esac

run_kabidiff show --help
is "$status:$(printf '%s\n' "$out" | head -1)" "0:Usage: kabidiff show [--json] [-o FILE] SNAPSHOT" "show --help prints its usage"

run_kabidiff --version
is "$status:$out" "0:kabidiff 0.1" "--version"

run_kabidiff frobnicate
is "$status:$err" "2:kabidiff: unknown command 'frobnicate'
Try 'kabidiff --help'." "an unknown command is trouble"

run_kabidiff
is "$status:$err" "2:kabidiff: no command given
Try 'kabidiff --help'." "no command is trouble"

run_kabidiff show
is "$status:$err" "2:kabidiff: show needs exactly one SNAPSHOT
Try 'kabidiff show --help'." "show without a snapshot is trouble"

run_kabidiff show --frob "$FIXTURES/snapshots/full.json"
is "$status:$err" "2:kabidiff show: unrecognized option '--frob'
Try 'kabidiff show --help'." "show with a bad option is trouble"

if [ -w /dev/full ]; then
	"$KABIDIFF" show "$FIXTURES/snapshots/full.json" >/dev/full 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "2:kabidiff: write error on standard output: No space left on device" \
	   "a failed write to stdout is trouble"
	"$KABIDIFF" show --json "$FIXTURES/snapshots/full.json" >/dev/full 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "2:{\"level\":\"error\",\"message\":\"write error on standard output: No space left on device\"}" \
	   "a failed write to stdout is trouble, said in JSON under --json"
else
	pass "# SKIP /dev/full is not writable here"
	pass "# SKIP /dev/full is not writable here"
fi

done_testing
