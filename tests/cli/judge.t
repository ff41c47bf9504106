#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What judging adds to the diff, on small snapshots written here: debugfs
# is judged unstable at most (and a policy file's cap lines), a part only
# one side has is trouble unless --parts leaves it out, --parts compares
# only the parts it names, each JSON finding names its doc entry, and the
# reports' header names both kernels, the parts compared and the rules.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff

# snap FILE RELEASE NODES...: all four parts, the nodes files (dirs end in
# /), documented by one stable entry (/sys/kabi/attr, /sys/kernel/debug/kabi)
snap() {
	file=$1 release=$2
	shift 2
	{
		printf '{"format": "kabidiff-snapshot", "version": 1, "kernel": {"release": "%s", "build_id": "0123456789abcdef0123"},\n"sysfs": [' "$release"
		sep=
		for n in "$@"; do
			case "$n" in
			*/) printf '%s{"path": "%s", "kind": "dir", "mode": "0755"}' "$sep" "${n%/}" ;;
			*) printf '%s{"path": "%s", "kind": "file", "mode": "0444"}' "$sep" "$n" ;;
			esac
			sep=', '
		done
		printf '],\n"syscalls": [], "types": {},\n'
		printf '"docs": [{"level": "stable", "file": "stable/sysfs-kabi", "line": 3, "what": ["/sys/kabi/attr", "/sys/kernel/debug/kabi"]}]}\n'
	} >"$file"
}
DIRS="/sys/ /sys/kabi/ /sys/kernel/ /sys/kernel/debug/"
snap "$TMP/old.json" 6.1-old $DIRS /sys/kabi/attr /sys/kernel/debug/kabi /sys/kernel/debug/undoc
snap "$TMP/new.json" 6.2-new $DIRS

verdicts() {
	printf '%s\n' "$out" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["kind"], f["subject"], f["level"], f["verdict"])'
}

# debugfs is not ABI: unstable at most, whatever documents it
run_kabidiff diff --format json "$TMP/old.json" "$TMP/new.json"
is "$status" 1 "debugfs: the stable attribute outside it still breaks"
is "$(verdicts)" "node-removed /sys/kabi/attr stable break
node-removed /sys/kernel/debug/kabi unstable note
node-removed /sys/kernel/debug/undoc unstable note" \
   "debugfs: a documented and an undocumented debugfs file are judged unstable"
run_kabidiff diff --color=never --verdict note "$TMP/old.json" "$TMP/new.json"
printf '%s\n' "$out" | grep -A3 '/sys/kernel/debug/kabi$' | grep -q '^      capped:  /sys/kernel/debug is judged unstable at most$'
is "$?" 0 "debugfs: the text report says which cap lowered the level"

# a policy file's cap lines: the last one that matches wins
printf 'cap /sys/kernel/debug none\ncap /sys/kabi testing # a house rule\n' >"$TMP/cap.txt"
run_kabidiff diff --format json --policy "$TMP/cap.txt" "$TMP/old.json" "$TMP/new.json"
is "$(verdicts)" "node-removed /sys/kernel/debug/kabi stable break
node-removed /sys/kabi/attr testing break
node-removed /sys/kernel/debug/undoc undocumented warn" \
   "policy: cap PATTERN none lifts the debugfs cap, cap PATTERN LEVEL lowers another"
printf 'cap /sys/kernel/debug/* stable\n' >"$TMP/cap.txt"
run_kabidiff diff --format json --policy "$TMP/cap.txt" "$TMP/old.json" "$TMP/new.json"
is "$(verdicts | tail -2)" "node-removed /sys/kernel/debug/kabi stable break
node-removed /sys/kernel/debug/undoc stable break" \
   "policy: a cap at stable judges the undocumented as stable"
printf 'cap /sys/x undocumented\n' >"$TMP/cap.txt"
run_kabidiff diff --policy "$TMP/cap.txt" "$TMP/old.json" "$TMP/new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/cap.txt:1: 'undocumented' is not a level to cap at (stable, testing, unstable, obsolete, private, removed, sysctl or none)" \
   "policy: a cap at no level is an error"
printf 'cap /sys/x\n' >"$TMP/cap.txt"
run_kabidiff diff --policy "$TMP/cap.txt" "$TMP/old.json" "$TMP/new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/cap.txt:1: expected CHANGE LEVEL VERDICT or cap PATTERN LEVEL" \
   "policy: a cap line of two fields is an error"

# a part one side lacks is trouble: named, with how to collect it or leave
# it out; --parts leaves it out, and compares only the parts it names
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
del s["sysfs"]
json.dump(s, open(sys.argv[2], "w"))' "$TMP/old.json" "$TMP/nosysfs.json"
run_kabidiff diff "$TMP/nosysfs.json" "$TMP/new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/nosysfs.json has no sysfs part: collect it with --image or --sysfs-dir, or compare without it: --parts syscalls,types,docs" \
   "parts: OLD without sysfs is exit 2, the message says how to go on"
run_kabidiff diff "$TMP/new.json" "$TMP/nosysfs.json"
is "$status:$out:$err" "2::kabidiff: $TMP/nosysfs.json has no sysfs part: collect it with --image or --sysfs-dir, or compare without it: --parts syscalls,types,docs" \
   "parts: so is NEW without sysfs"
run_kabidiff diff --parts syscalls,types,docs "$TMP/nosysfs.json" "$TMP/new.json"
is "$status:$out:$err" "0::" "parts: --parts without sysfs compares the rest: nothing changed, silent"
run_kabidiff diff --parts sysfs "$TMP/nosysfs.json" "$TMP/new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/nosysfs.json has no sysfs part: collect it with --image or --sysfs-dir" \
   "parts: a part --parts names that one side lacks is trouble too"
run_kabidiff diff --parts sysfs,syscalls "$D/docs.old.json" "$D/docs.new.json"
is "$status:$out:$err" "2::kabidiff: neither $D/docs.old.json nor $D/docs.new.json has a sysfs part: collect it with --image or --sysfs-dir
kabidiff: neither $D/docs.old.json nor $D/docs.new.json has a syscalls part: collect it with --vmlinux" \
   "parts: and so is one that neither side has"
run_kabidiff diff --parts sysfs,nodes "$TMP/old.json" "$TMP/new.json"
is "$status:$out" "2:" "parts: an unknown part is a usage error"
printf '%s\n' "$err" | grep -q "^kabidiff: --parts takes sysfs, syscalls, vdso, types and docs, comma-separated, not 'sysfs,nodes'$"
is "$?" 0 "parts: and the message names it"

compared() {
	printf '%s\n' "$out" | python3 -c '
import collections, json, sys
r = json.load(sys.stdin)
kinds = collections.Counter(f["kind"].split("-")[0] for f in r["findings"])
print(",".join(r["compared"]), " ".join("%s:%d" % k for k in sorted(kinds.items())),
      sorted(set(f["level"] for f in r["findings"])))'
}
run_kabidiff diff --format json "$D/stable.old.json" "$D/stable.new.json"
is "$(compared)" "sysfs,syscalls,types,docs became:1 enumerator:4 link:1 member:8 mode:2 node:3 syscall:4 type:4 typedef:1 value:2 world:1 ['stable']" \
   "parts: without --parts every part is compared"
run_kabidiff diff --format json --parts sysfs "$D/stable.old.json" "$D/stable.new.json"
is "$(compared)" "sysfs became:1 link:1 mode:2 node:3 value:2 world:1 ['stable']" \
   "parts: --parts sysfs compares sysfs only, its levels still from OLD's docs"
run_kabidiff diff --format json --parts types,syscalls "$D/stable.old.json" "$D/stable.new.json"
is "$(compared)" "syscalls,types enumerator:4 member:8 syscall:4 type:4 typedef:1 ['stable']" \
   "parts: --parts types,syscalls compares those two"
run_kabidiff diff --format json --parts sysfs "$D/docs.old.json" "$D/docs.new.json" 2>/dev/null
is "$status" 2 "parts: the docs pair has no sysfs to compare"
run_kabidiff diff --format json "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(compared)" "1:docs doc:10 ['obsolete', 'private', 'stable', 'testing', 'unstable']" \
   "parts: docs-only snapshots, as docs diff builds them, compare their docs without --parts"

# syscall ABIs: one a side did not collect (a snapshot of format version 1
# has x86_64's table only) is not compared, with a warning; one a side
# collected and found empty is a kernel without it, every syscall removed;
# ia32's are judged as x86_64's, by stable/syscalls
abis() {
	python3 - "$TMP/$1.json" "$2" "$3" <<'PY'
import json, sys
path, abis, records = sys.argv[1:]
s = {"format": "kabidiff-snapshot", "version": 2 if abis else 1,
     "kernel": {"release": "6.x"},
     "syscalls": [], "docs": [{"level": "stable", "file": "stable/syscalls",
                               "line": 1, "what": ["kernel syscalls"]}]}
if abis:
    s["syscall_abis"] = abis.split(",")
for r in records.split():
    abi, name, nr = r.split("/")
    s["syscalls"].append({"abi": abi, "nr": int(nr), "name": name,
                          "implemented": True, "args": [], "sources": ["switch"]})
json.dump(s, open(path, "w"))
PY
}
abis v1 "" "x86_64/read/0"
abis v2 "ia32,x32,x86_64" "x86_64/read/0 ia32/read/3 x32/read/0"
run_kabidiff diff "$TMP/v1.json" "$TMP/v2.json"
is "$status:$out:$err" "0::kabidiff: warning: $TMP/v1.json did not collect the ia32, x32 syscall tables that $TMP/v2.json has (a snapshot of an older kabidiff?): their syscalls are not compared; collect it again with --vmlinux" \
   "abis: an ABI OLD did not collect is not compared, and a warning says so"
run_kabidiff diff "$TMP/v2.json" "$TMP/v1.json"
is "$status:$out:$err" "0::kabidiff: warning: $TMP/v1.json did not collect the ia32, x32 syscall tables that $TMP/v2.json has (a snapshot of an older kabidiff?): their syscalls are not compared; collect it again with --vmlinux" \
   "abis: nor one NEW did not collect"
abis noia32 "ia32,x32,x86_64" "x86_64/read/0 x32/read/0"
abis moved "ia32,x32,x86_64" "x86_64/read/0 ia32/read/4 x32/read/0"
verdicts_of() {
	run_kabidiff diff --format json "$TMP/$1.json" "$TMP/$2.json"
	printf '%s|' "$status" "$err"
	verdicts
}
is "$(verdicts_of v2 noia32)" "1||syscall-removed ia32/read stable break" \
   "abis: an ABI collected and empty is a kernel without it: its syscalls removed"
is "$(verdicts_of v2 moved)" "1||syscall-renumbered ia32/read stable break" \
   "abis: an ia32 syscall renumbered breaks as an x86_64 one does"
is "$(verdicts_of noia32 v2)" "0||syscall-added ia32/read stable note" \
   "abis: and one added is a note"

# each JSON finding names the doc entry it was judged by, null if none
run_kabidiff diff --format json "$TMP/old.json" "$TMP/new.json"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["subject"], f["doc"])')" "/sys/kabi/attr {'source': 'abi', 'file': 'stable/sysfs-kabi', 'line': 3, 'what': '/sys/kabi/attr', 'contact': None, 'users': None}
/sys/kernel/debug/kabi {'source': 'abi', 'file': 'stable/sysfs-kabi', 'line': 3, 'what': '/sys/kabi/attr', 'contact': None, 'users': None}
/sys/kernel/debug/undoc None" \
   "doc: each finding has its entry's source, file, line and first What:, or null"
printf '%s\n' "$out" >"$TMP/caps.report.json"
python3 "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" "$TMP/caps.report.json" >"$TMP/schema"
is "$?:$(grep -c "^not ok" "$TMP/schema")" "0:0" "doc: the report validates against docs/report.schema.json"

# the header names both kernels and the parts compared; none when nothing changed
run_kabidiff diff --color=never "$TMP/old.json" "$TMP/new.json"
is "$(printf '%s\n' "$out" | head -n 1)" "kabidiff: 6.1-old (build id 0123456789ab) -> 6.2-new (build id 0123456789ab); compared: sysfs, syscalls, types, docs" \
   "header: text, releases with their build ids and the parts"
run_kabidiff diff --color=never --parts sysfs "$D/move.old.json" "$D/move.new.json"
is "$(printf '%s\n' "$out" | head -n 1)" "kabidiff: 6.1.0-kabi-old -> 6.1.0-kabi-new; compared: sysfs" \
   "header: text, no build id, the parts --parts named"
sed 's/"release": "[^"]*", //' "$TMP/old.json" >"$TMP/norelease.json"
run_kabidiff diff --color=never "$TMP/norelease.json" "$TMP/new.json"
is "$(printf '%s\n' "$out" | head -n 1)" "kabidiff: $TMP/norelease.json (build id 0123456789ab) -> 6.2-new (build id 0123456789ab); compared: sysfs, syscalls, types, docs" \
   "header: text, a snapshot without a release is named by its file"
run_kabidiff diff --format markdown --parts sysfs,docs "$D/move.old.json" "$D/move.new.json"
is "$(printf '%s\n' "$out" | sed -n 2p)" "6.1.0-kabi-old -> 6.1.0-kabi-new; compared: sysfs, docs" \
   "header: Markdown, under the title"
run_kabidiff diff --format json --parts sysfs "$TMP/norelease.json" "$TMP/new.json"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["old"], r["new"], r["compared"], r["policy"], r["waivers"])')" "{'name': '$TMP/norelease.json', 'release': None, 'version': None, 'build_id': '0123456789abcdef0123', 'git': None, 'machine': None} {'name': '$TMP/new.json', 'release': '6.2-new', 'version': None, 'build_id': '0123456789abcdef0123', 'git': None, 'machine': None} ['sysfs'] None None" \
   "header: JSON, old and new with their names, the parts compared, no policy or waiver file"

# the header's details: version, build id, git commit, machine; the rules
FULL=$FIXTURES/snapshots/full.json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["kernel"].update(release="6.1.0-kabi-next", git="5b72059fd1c0ffee000000000000000000000000-dirty")
s["sysfs"] = [n for n in s["sysfs"] if not n["path"].startswith("/sys/kernel/mm")]
json.dump(s, open(sys.argv[2], "w"))' "$FULL" "$TMP/next.json"
printf 'removed * break\n' >"$TMP/house.policy"
printf 'node-removed /sys/kernel/mm/nowhere "not in this pair"\n' >"$TMP/house.waivers"
RULES="--policy $TMP/house.policy --waivers $TMP/house.waivers"
run_kabidiff diff --color=never $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | sed -n 2,4p)" "  old:   6.1.0-kabi-test, #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-1, build id 0123456789abcdef0123456789abcdef01234567, git 4a619488c0ffee00000000000000000000000000, machine standard, from $FULL
  new:   6.1.0-kabi-next, #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-1, build id 0123456789abcdef0123456789abcdef01234567, git 5b72059fd1c0ffee000000000000000000000000-dirty, machine standard, from $TMP/next.json
  rules: policy $TMP/house.policy, waivers $TMP/house.waivers" \
   "header: text, all that is known of each side, the policy and waiver files"
run_kabidiff diff --format markdown $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | sed -n 4,6p)" "- old: 6.1.0-kabi-test, #1 SMP PREEMPT\\_DYNAMIC Debian 6.1.192-1, build id 0123456789abcdef0123456789abcdef01234567, git 4a619488c0ffee00000000000000000000000000, machine standard, from $FULL
- new: 6.1.0-kabi-next, #1 SMP PREEMPT\\_DYNAMIC Debian 6.1.192-1, build id 0123456789abcdef0123456789abcdef01234567, git 5b72059fd1c0ffee000000000000000000000000-dirty, machine standard, from $TMP/next.json
- rules: policy $TMP/house.policy, waivers $TMP/house.waivers" \
   "header: Markdown, the same details as a list"
run_kabidiff diff --format json $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["new"], r["policy"] == sys.argv[1], r["waivers"] == sys.argv[2])' "$TMP/house.policy" "$TMP/house.waivers")" \
   "{'name': '$TMP/next.json', 'release': '6.1.0-kabi-next', 'version': '#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-1', 'build_id': '0123456789abcdef0123456789abcdef01234567', 'git': '5b72059fd1c0ffee000000000000000000000000-dirty', 'machine': 'standard'} True True" \
   "header: JSON, each side's version, git commit and machine, the policy and waiver files"
run_kabidiff diff --format ktap $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | sed -n 4,6p | cut -c1-40)" "# old: 6.1.0-kabi-test, #1 SMP PREEMPT_D
# new: 6.1.0-kabi-next, #1 SMP PREEMPT_D
# rules: policy $(printf '%s' "$TMP/house.policy" | cut -c1-24)" \
   "header: KTAP, the details as comments"
run_kabidiff diff --format junit $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | grep -c '<property name="rules" value="policy ')" \
   "$(printf '%s\n' "$out" | grep -c '<testsuite ')" "header: JUnit, the rules a property of each test suite"
run_kabidiff diff --format sarif $RULES "$FULL" "$TMP/next.json"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
p = json.load(sys.stdin)["runs"][0]["properties"]
print(p["new"].split(", ")[4], p["rules"] == "policy %s, waivers %s" % tuple(sys.argv[1:]))' "$TMP/house.policy" "$TMP/house.waivers")" \
   "machine standard True" "header: SARIF, the details among the run's properties"
run_kabidiff diff "$TMP/old.json" "$TMP/old.json"
is "$status:$out:$err" "0::" "header: none when nothing changed, kabidiff X X stays silent"

# two machines' sysfs trees are not compared: their devices differ
sed 's/"profile": "standard"/"profile": "minimal"/' "$FIXTURES/snapshots/full.json" >"$TMP/minimal-machine.json"
run_kabidiff diff "$FIXTURES/snapshots/full.json" "$TMP/minimal-machine.json"
is "$status:$out:$err" "2::kabidiff: $FIXTURES/snapshots/full.json was booted on the standard machine and $TMP/minimal-machine.json on the minimal one: their sysfs trees differ by the machine's devices; collect both with the same --machine, or compare without sysfs (--parts)" \
   "machine: snapshots of two profiles are refused"
run_kabidiff diff --parts syscalls,vdso,types,docs "$FIXTURES/snapshots/full.json" "$TMP/minimal-machine.json"
is "$status:$err" "0:" "machine: without sysfs they compare"

done_testing
