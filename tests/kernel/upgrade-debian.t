#!/bin/sh
# kabidiff on a real upgrade: Debian 12's newest kernel against its newest
# backported 6.12, each with its own Documentation/ABI (the -dbg and
# -unsigned packages and linux-source-6.1 and -6.12, fetched into the
# cache by tests/debian-upgrade.sh; both booted on the standard machine
# with their packages' modules).  On 6.1.0-57 and 6.12.118+deb12, the pair
# they were reviewed on, the breaks must be exactly those of
# upgrade-debian.breaks, each reviewed by hand with its reason there; on
# another pair the breaks the list lacks or misses are printed for review,
# and what holds on any pair is checked: no
# type or syscall break, no break for an instance of a live interface
# (lo loses byte_queue_limits, which e1000e's and virtio_net's interfaces
# keep), and the removals that are true (entries dropped without passing
# obsolete/) once each.  The
# syscalls 6.12 adds are notes in each ABI, x86_64, ia32 and x32, and
# none is removed or renumbered; the vDSO gains __vdso_getrandom (and its
# alias getrandom) in vdso64 and __vdso_getcpu in vdso32, and loses
# nothing.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
sides=$(KABIDIFF=$KABIDIFF "$TOP/tests/debian-upgrade.sh") || {
	missing_input "could not collect the upgrade pair (tests/debian-upgrade.sh)"
}
set -- $sides
# the newest ABIs of 6.1 and 6.12 the archive has: the snapshots' names
pair="$(basename "$1" .json) $(basename "$2" .json)"
if reviewed "the upgrade pair" "$pair" "6.1.0-57 6.12.118+deb12"; then
	expect=exact
else
	expect=any
fi

run_kabidiff diff --format json "$1" "$2"
is "$status" 1 "$pair: exit 1, for the true breaks"
printf '%s\n' "$out" >"$TMP/report.json"

run_checker "the checker of the upgrade's breaks" python3 - "$TMP/report.json" \
	"$TOP/tests/kernel/upgrade-debian.breaks" "$expect" <<'PY'
import collections, json, sys

# exact: the pair the breaks were reviewed on; any: another ABI of either
# series, where the reviewed list is only a guide
exact = sys.argv[3] == "exact"

def check(ok, name, *evidence):
    print(("ok" if ok else "not ok") + " - " + name)
    for line in evidence if not ok else ():
        print("#   " + line)

report = json.load(open(sys.argv[1]))
breaks = [f for f in report["findings"] if f["verdict"] == "break"]
got = collections.Counter((f["kind"], f["level"], f["subject"]) for f in breaks)
want, reasons = collections.Counter(), {}
for line in open(sys.argv[2]):
    if line.startswith("#") or not line.strip():
        continue
    kind, level, subject, reason = line.rstrip("\n").split("\t")
    want[(kind, level, subject)] += 1
    reasons[(kind, level, subject)] = reason

check(report["compared"] == ["sysfs", "syscalls", "vdso", "types", "docs", "census"],
      "every part compared: " + ", ".join(report["compared"]))
check(all(r and r.strip() for r in reasons.values()),
      "every expected break has its reason")
missing, extra = want - got, got - want
if exact:
    check(not missing and not extra,
          "the breaks are exactly the %d reviewed ones" % sum(want.values()),
          *(["missing: %s %s %s" % k for k in missing] +
            ["new:     %s %s %s" % k for k in extra]))
    true = sum(n for k, n in got.items()
               if not reasons.get(k, "false").startswith("false"))
    check(true * 100 >= 95 * len(breaks),
          "%d of %d breaks are true (95 %% or more)" % (true, len(breaks)))
else:
    # not a check: what a reviewer reads to bring the list up to date
    for k in sorted(extra):
        print("# to review, a break the list lacks: %s %s %s" % k)
    for k in sorted(missing):
        print("# to review, a reviewed break not found: %s %s %s" % k)
code = [f for f in breaks if f["kind"].startswith(("syscall-", "type-", "typedef-",
                                                   "member-", "enumerator-"))]
check(not code, "no break from a type or syscall",
      *["%s %s" % (f["kind"], f["subject"]) for f in code])
# 6.12 hides byte_queue_limits on a device that does not use BQL
# (netdev_uses_bql()): lo's are gone, eth0's and eth1's stay
bql = [f for f in report["findings"] if "/byte_queue_limits/" in f["subject"]
       and f["subject"].startswith("/sys/devices/virtual/net/lo/")
       and f["kind"] == "instance-removed"]
# (the lines of 6.1.192's sysfs-class-net-queues; another tree's entries
# may be other lines, or more or fewer, but still one note each)
found = sorted(f["doc"]["line"] for f in bql)
lines = [56, 65, 73, 82, 91] if exact else sorted(set(found))
check(bql and found == lines and all(f["verdict"] == "note" for f in bql),
      "lo's byte_queue_limits: instances of an interface e1000e and "
      "virtio_net keep, one note per entry of sysfs-class-net-queues",
      *["%s %s line %s" % (f["verdict"], f["subject"], f["doc"]["line"]) for f in bql])
# 6.12's ee1004 registers an nvmem device whose core supplies the same
# "eeprom" file (nvmem's compat attribute, its mode set at run time)
check(not [f for f in breaks if f["subject"].startswith("ee1004:")],
      "no break for ee1004's eeprom: the nvmem core supplies it")
# /proc/sys is judged by the sysctl documents: nmi_watchdog by
# admin-guide/sysctl/kernel.rst; sched_child_runs_first and fs/quota/warnings,
# which 6.12 drops, are in no sysctl document of either tree (no .rst of
# 6.1's Documentation names them), so they stay undocumented
nmi = [f["doc"] for f in breaks if f["subject"] == "/proc/sys/kernel/nmi_watchdog"]
check(nmi and nmi[0]["source"] == "sysctl" and
      nmi[0]["file"] == "admin-guide/sysctl/kernel.rst",
      "nmi_watchdog's lost write bit is judged by its sysctl document", *map(str, nmi))
dropped = {f["subject"]: f["level"] for f in report["findings"]
           if f["kind"] == "node-removed" and f["subject"] in
           ("/proc/sys/kernel/sched_child_runs_first", "/proc/sys/fs/quota/warnings")}
check(dropped == dict.fromkeys(("/proc/sys/kernel/sched_child_runs_first",
                                "/proc/sys/fs/quota/warnings"), "undocumented"),
      "sched_child_runs_first and quota/warnings, documented nowhere, are undocumented removals",
      str(dropped))
inst = [f for f in breaks if f["kind"] == "node-removed" and
        f["subject"].startswith("/sys/kernel/slab/")]
check(not inst, "no break for a slab cache's attributes: the pattern is alive")
check(("doc-removed-early", "stable", "/sys/firmware/efi/vars") in got and
      ("doc-dropped", "stable", "/sys/block/<disk>/queue/throttle_sample_time") in got,
      "stable entries removed without obsolete/ are breaks")
# the syscalls 6.12 adds, in syscall_64.tbl (common: x86_64 and x32) and
# syscall_32.tbl (i386): notes at stable/syscalls' level, in every ABI
added = collections.defaultdict(set)
for f in report["findings"]:
    if f["kind"] == "syscall-added":
        abi, name = f["subject"].split("/")
        added[abi].add((name, f["new"], f["level"], f["verdict"]))
new = ["cachestat", "fchmodat2", "map_shadow_stack", "futex_wake", "futex_wait",
       "futex_requeue", "statmount", "listmount", "lsm_get_self_attr",
       "lsm_set_self_attr", "lsm_list_modules", "mseal"]
want = {(name, "nr %d" % nr, "stable", "note") for nr, name in enumerate(new, 451)}
uretprobe = {("uretprobe", "nr 335", "stable", "note")}
for abi, rows in (("x86_64", want | uretprobe), ("ia32", want), ("x32", want | uretprobe)):
    check(added[abi] == rows,
          "%s: the %d syscalls 6.12 adds are notes" % (abi, len(rows)),
          *["missing: %s %s" % r[:2] for r in sorted(rows - added[abi])] +
          ["new:     %s %s %s %s" % r for r in sorted(added[abi] - rows)])
other = [f for f in report["findings"] if f["kind"].startswith("syscall-") and
         f["kind"] not in ("syscall-added", "syscall-arg-pointee-changed")]
check(not other, "no syscall removed, renumbered or with other arguments, in any ABI",
      *["%s %s %s" % (f["kind"], f["subject"], f["verdict"]) for f in other])
# vDSO: 6.12's vdso64 adds getrandom and __vdso_getrandom (vdso.lds.S:
# 33-34, under LINUX_2.6 as the rest), its vdso32 __vdso_getcpu
# (vdso32/vdso32.lds.S:31; 6.1's has no getcpu); every other symbol, its
# version and its prototype are those of 6.1
vdso = [f for f in report["findings"] if f["kind"].startswith("vdso-")]
added = [("vdso-symbol-added", s, "LINUX_2.6", "stable", "note") for s in
         ("vdso32/__vdso_getcpu", "vdso64/__vdso_getrandom", "vdso64/getrandom")]
check(sorted((f["kind"], f["subject"], f["new"], f["level"], f["verdict"])
             for f in vdso) == added,
      "the vDSO: getrandom and __vdso_getrandom added to vdso64, __vdso_getcpu "
      "to vdso32, notes, and nothing else",
      *["%s %s %s" % (f["kind"], f["subject"], f["verdict"]) for f in vdso])
vdso_types = [f for f in report["findings"] if f["subject"].startswith("vdso")
              and not f["kind"].startswith("vdso-") and f["verdict"] != "note"]
check(not vdso_types, "no vDSO type changed in a way that is more than a note",
      *["%s %s %s" % (f["kind"], f["subject"], f["verdict"]) for f in vdso_types])
by = collections.Counter((f["kind"], f["level"]) for f in breaks)
for (kind, level), n in sorted(by.items()):
    print("# %4d  %-20s %s" % (n, kind, level))
PY

done_testing
