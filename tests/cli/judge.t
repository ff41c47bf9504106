#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What judging adds to the diff, on small snapshots written here: debugfs
# is judged unstable at most (and a policy file's cap lines), a part only
# one side has is trouble unless --parts leaves it out, --parts compares
# only the parts it names, each JSON finding names its doc entry, and the
# reports' header names both kernels and the parts compared.
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
run_kabidiff diff --color never "$TMP/old.json" "$TMP/new.json"
printf '%s\n' "$out" | grep -A3 '/sys/kernel/debug/kabi$' | grep -q '^    capped:  /sys/kernel/debug is judged unstable at most$'
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
is "$status:$out:$err" "2::kabidiff: $TMP/cap.txt:1: 'undocumented' is not a level to cap at (stable, testing, unstable, obsolete, private, removed or none)" \
   "policy: a cap at no level is an error"
printf 'cap /sys/x\n' >"$TMP/cap.txt"
run_kabidiff diff --policy "$TMP/cap.txt" "$TMP/old.json" "$TMP/new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/cap.txt:1: expected CHANGE LEVEL VERDICT or cap PATTERN LEVEL" \
   "policy: a cap line of two fields is an error"

done_testing
