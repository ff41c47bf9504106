#!/bin/sh
# docs validate, docs search, undocumented and collect --docs/--sysfs-dir on
# a small documentation tree (tests/fixtures/abi) and a small sysfs
# (tests/fixtures/sysfs/small.list): exact output, exit statuses, errors.
. "$(dirname "$0")/../lib.sh"

ABI=$FIXTURES/abi
python3 "$TOP/tests/sysfs-materialise.py" "$FIXTURES/sysfs/small.list" "$TMP/sys" ||
	missing_input "could not materialise small.list"

run_kabidiff docs validate "$ABI"
is "$status:$out" "1:Documentation/ABI/testing/sysfs-kernel:6: warning: Where: is an old spelling, read as What:
Documentation/ABI/testing/sysfs-kernel:9: error: unparsable What: pattern \"/sys/kernel/bad<pattern\": unclosed '<'
3 files, 6 entries: 2 warnings, 1 malformed entries" "docs validate: warnings, summary, exit 1"
validated=$out
# its warnings are its product: --quiet mutes others' warnings, not these
run_kabidiff --quiet docs validate "$ABI"
is "$status:$out" "1:$validated" "--quiet docs validate: the same warnings"

run_kabidiff docs validate "$ABI/Documentation/ABI/stable"
is "$status:$err" "2:kabidiff: $ABI/Documentation/ABI/stable: neither a kernel tree nor its Documentation/ABI directory" \
   "docs validate on a level directory is trouble"
# a patch's files, alone: each at the level of the directory it lies in
run_kabidiff docs validate "$ABI/Documentation/ABI/testing/sysfs-kernel"
is "$status:$out" "1:Documentation/ABI/testing/sysfs-kernel:6: warning: Where: is an old spelling, read as What:
Documentation/ABI/testing/sysfs-kernel:9: error: unparsable What: pattern \"/sys/kernel/bad<pattern\": unclosed '<'
1 files, 3 entries: 2 warnings, 1 malformed entries" "docs validate FILE: that file's problems, exit 1"
mkdir -p "$TMP/patch/testing"
printf 'What:\t\t/sys/kernel/new\nDate:\t\tDecember 2026\nContact:\tme@example.org\nDescription:\tnew.\n' \
	>"$TMP/patch/testing/sysfs-new"
run_kabidiff docs validate "$ABI/Documentation/ABI/stable/sysfs-class-net" "$TMP/patch/testing/sysfs-new"
is "$status:$out" "0:2 files, 3 entries: 0 warnings, 0 malformed entries" \
   "docs validate FILE FILE: a level directory above a file is enough"
printf 'What:\t\t/sys/kernel/x\n' >"$TMP/sysfs-loose"
run_kabidiff docs validate "$TMP/sysfs-loose"
is "$status:$err" "2:kabidiff: $TMP/sysfs-loose: neither in a level directory (stable/, testing/, ...) of Documentation/ABI nor a sysctl document (Documentation/admin-guide/sysctl/*.rst, Documentation/networking/*sysctl*.rst): its level is unknown" \
   "docs validate of a file in no level directory: its level is unknown, exit 2"

run_kabidiff docs validate "$TMP/nothing"
is "$status:$err" "2:kabidiff: $TMP/nothing: No such file or directory" \
   "docs validate on a path that is not there: no more than that"
run_kabidiff docs validate "$ABI/Documentation/ABI"
is "$status:$(printf '%s\n' "$out" | tail -n 1)" "1:3 files, 6 entries: 2 warnings, 1 malformed entries" \
   "docs validate takes Documentation/ABI itself"
# a level that is a symbolic link (here a loop) is not followed: skipped,
# with a warning naming it, and the other levels are read
mkdir -p "$TMP/loop/Documentation/ABI"
cp -R "$ABI/Documentation/ABI/testing" "$TMP/loop/Documentation/ABI/"
ln -s stable "$TMP/loop/Documentation/ABI/stable"
run_kabidiff docs validate "$TMP/loop"
is "$status:$(printf '%s\n' "$out" | sed -n '1p;$p')" "1:$TMP/loop/Documentation/ABI/stable: a symbolic link, skipped
1 files, 3 entries: 3 warnings, 1 malformed entries" \
   "docs validate: a level that is a symbolic link is skipped with a warning"

run_kabidiff docs search 'mtu|wakeup' "$ABI"
is "$status:$out" "0:/sys/class/net/<iface>/mtu
  level    stable
  file     Documentation/ABI/stable/sysfs-class-net#1
  contact  netdev@vger.kernel.org
  users    iproute2

/sys/devices/.../power/wakeup
  level    obsolete
  file     Documentation/ABI/obsolete/sysfs-devices-power#1
  contact  linux-pm@vger.kernel.org" "docs search shows level, file#line, contact, users"

run_kabidiff docs search 'oopses' "$ABI" --json
is "$status:$out" '0:[
  {
    "level": "testing",
    "file": "testing/sysfs-kernel",
    "line": 6,
    "what": [
      "/sys/kernel/oops_count"
    ],
    "description": "How many oopses there were."
  }
]' "docs search --json matches descriptions too"

run_kabidiff docs search 'nothing-like-this' "$ABI"
is "$status:$out" "1:" "docs search finding nothing exits 1"
run_kabidiff docs search '(' "$ABI"
is "$status:$err" "2:kabidiff: bad regular expression '(': Unmatched ( or \\(
Try 'kabidiff docs --help'." "a bad regular expression is trouble"

run_kabidiff undocumented --docs "$ABI" --sysfs-dir "$TMP/sys"
is "$status:$out" "0:/sys/devices/pci0000:00/0000:00:03.0/net/eth0/carrier
/sys/devices/pci0000:00/0000:00:03.0/vendor
/sys/kernel/uevent_seqnum

   nodes documented      %  directory
       5          3   60.0  /sys/devices
       3          2   66.7  /sys/kernel
       8          5   62.5  total" "undocumented: the list (aliases counted), then coverage"

run_kabidiff undocumented --level --docs "$ABI" --sysfs-dir "$TMP/sys"
is "$status:$out" "0:stable    /sys/devices/pci0000:00/0000:00:03.0/net/eth0/flags  Documentation/ABI/stable/sysfs-class-net#9
stable    /sys/devices/pci0000:00/0000:00:03.0/net/eth0/mtu  Documentation/ABI/stable/sysfs-class-net#1
obsolete  /sys/devices/pci0000:00/0000:00:03.0/net/eth0/power/wakeup  Documentation/ABI/obsolete/sysfs-devices-power#1
testing   /sys/kernel/mm/transparent_hugepage/enabled  Documentation/ABI/testing/sysfs-kernel#1
testing   /sys/kernel/oops_count  Documentation/ABI/testing/sysfs-kernel#6

documentation entries observed by the live tree (census not collected)
 entries  live only  census only     both  neither      %  level
       2          2            -        -        0  100.0  stable
       3          2            -        -        1   66.7  testing
       1          1            -        -        0  100.0  obsolete
       6          5            -        -        1   83.3  total" \
   "undocumented --level: each documented attribute's level and entry, the entries observed"

run_kabidiff --json undocumented --docs "$ABI" --sysfs-dir "$TMP/sys"
is "$status:$(printf '%s\n' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(len(d["undocumented"]), d["total"])')" \
   "0:3 {'nodes': 8, 'documented': 5}" "undocumented --json"

# a snapshot of the same tree gives the same answer
"$KABIDIFF" collect --docs "$ABI" --sysfs-dir "$TMP/sys" -o "$TMP/snap.json" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "0:kabidiff: warning: $ABI: 2 warnings about the ABI documentation; see 'kabidiff docs validate'" \
   "collect --docs --sysfs-dir writes a snapshot"
run_kabidiff show "$TMP/snap.json"
is "$(printf '%s\n' "$out" | sed -n '9,15p')" "syscalls    not collected
vdso        not collected
types       not collected
sysfs       21 nodes: 12 dir, 8 file, 1 link
machine     not recorded
docs        6 entries: 2 stable, 3 testing, 1 obsolete
coverage    5 of 8 nodes documented (62.5%)" "the snapshot has docs, sysfs and coverage"
run_kabidiff undocumented --docs "$ABI" "$TMP/snap.json"
is "$(printf '%s\n' "$out" | head -n 3)" "/sys/devices/pci0000:00/0000:00:03.0/net/eth0/carrier
/sys/devices/pci0000:00/0000:00:03.0/vendor
/sys/kernel/uevent_seqnum" "undocumented on the snapshot says the same"

run_kabidiff undocumented --docs "$ABI" "$FIXTURES/snapshots/minimal.json"
is "$status:$err" "2:kabidiff: $FIXTURES/snapshots/minimal.json: the snapshot has no sysfs part" \
   "a snapshot without sysfs is trouble"
run_kabidiff undocumented --docs "$ABI"
is "$status" 2 "undocumented without a tree is trouble"
run_kabidiff undocumented --docs "$ABI" --sysfs-dir "$TMP/none"
is "$status:$err" "2:kabidiff: $TMP/none: No such file or directory" "a missing sysfs dir is trouble"
run_kabidiff collect --docs "$ABI" -o "$TMP/no/such/dir.json"
is "$status:$(ls "$TMP/no" 2>&1 | wc -l)" "2:1" "collect into a missing directory is trouble, writes nothing"
run_kabidiff collect
is "$status" 2 "collect with nothing to collect is trouble"

done_testing
