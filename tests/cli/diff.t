#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabidiff diff on the hand-made pairs of tests/fixtures/diff: exact text,
# JSON and Markdown reports, verdicts against DESIGN.md's table, the move
# case, waivers, policy files, --strict, and bad input.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
PAIRS="stable testing unstable obsolete private removed undocumented docs move"

# the checked-in pairs are what the generator writes: the same files, byte
# for byte, and the loops below test each of them
mkdir "$TMP/pairs"
python3 "$D/gen-pairs.py" "$TMP/pairs" 2>"$TMP/gen.err"
is "$?:$(cat "$TMP/gen.err")" "0:" "gen-pairs.py runs"
written=$(cd "$TMP/pairs" && ls)
checked_in=$(cd "$D" && ls -- *.old.json *.new.json)
is "$written" "$checked_in" "gen-pairs.py writes the pairs that are checked in, no more, no fewer"
differ=
for f in $written; do
	cmp -s "$TMP/pairs/$f" "$D/$f" || differ="$differ $f"
done
is "${differ# }" "" "gen-pairs.py writes the checked-in pairs byte for byte"
is "$(printf '%s\n' $checked_in | sed 's/\.\(old\|new\)\.json$//' | sort -u)" \
   "$(printf '%s\n' $PAIRS | sort)" "every checked-in pair is one of the PAIRS tested below"

# exit status: 1 exactly when the golden report has a break; the goldens
# list every finding (--verdict note), the notes included
for n in $PAIRS; do
	run_kabidiff diff --color=never --verdict note "$D/$n.old.json" "$D/$n.new.json"
	want=0
	grep -q '^== break ==$' "$D/$n.txt" && want=1
	is "$status" "$want" "$n: exit status $want"
	if [ "$(relative_out)" = "$(cat "$D/$n.txt")" ]; then
		pass "$n: text report as golden"
	else
		fail "$n: text report as golden" "$(relative_out | diff "$D/$n.txt" - | head -20)"
	fi
	is "$err" "" "$n: nothing on stderr"
	run_kabidiff diff --format json "$D/$n.old.json" "$D/$n.new.json"
	# the report names the files it was given: the goldens from $TOP
	printf '%s\n' "$out" | sed "s|\"$TOP/|\"|" >"$TMP/$n.report.json"
	if cmp -s "$TMP/$n.report.json" "$D/$n.report.json"; then
		pass "$n: JSON report as golden"
	else
		fail "$n: JSON report as golden" "$(diff "$D/$n.report.json" "$TMP/$n.report.json" | head -20)"
	fi
done

# by default the text lists the breaks and warns as the golden does, then
# counts the golden's notes by part and kind
for n in testing docs; do
	run_kabidiff diff --color=never "$D/$n.old.json" "$D/$n.new.json"
	relative_out >"$TMP/$n.default.txt"
	python3 - "$D/$n.txt" "$TMP/$n.default.txt" >"$TMP/notes.check" 2>&1 <<'PY'
import collections, re, sys
golden, default = (open(f).read().split("\n") for f in sys.argv[1:])
cut = golden.index("== note ==")
kinds = collections.Counter(m.group(1) for line in golden[cut:]
                            if (m := re.match(r"    ([a-z-]+)  ", line)))
at = default.index("== note ==")
counted = collections.Counter({m.group(1): int(m.group(2)) for line in default[at:]
                               if (m := re.match(r"    [a-z]+ +([a-z-]+) +([0-9]+)$", line))})
problems = []
if default[:at] != golden[:cut]:
    problems.append("the breaks and warns differ from the golden's")
if counted != kinds:
    problems.append(f"counted {dict(counted)}, the golden lists {dict(kinds)}")
if not re.match(r"  %d notes, counted by part and kind \(--verdict note lists them\):$"
                % sum(kinds.values()), default[at + 1]):
    problems.append(f"the count line is {default[at + 1]!r}")
print("\n".join(problems))
PY
	is "$(cat "$TMP/notes.check")" "" "$n: the default text counts the notes the golden lists, by part and kind"
done

run_checker diff-verdicts.py python3 "$TOP/tests/cli/diff-verdicts.py" "$TMP"

python3 "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" "$TMP"/*.report.json >"$TMP/schema"
is "$?" 0 "every JSON report validates against docs/report.schema.json"
grep '^#' "$TMP/schema"

run_kabidiff diff --format markdown "$D/testing.old.json" "$D/testing.new.json"
is "$(relative_out)" "$(cat "$D/testing.md")" "Markdown report as golden"

# the global --json and the short form
run_kabidiff --json "$D/docs.old.json" "$D/docs.new.json"
printf '%s\n' "$out" | sed "s|\"$TOP/|\"|" >"$TMP/short.json"
cmp -s "$TMP/short.json" "$D/docs.report.json"
is "$?" 0 "kabidiff --json OLD NEW is diff --format json"

# a device that moved under its kept /sys/class name: one note
run_kabidiff diff --format json "$D/move.old.json" "$D/move.new.json"
is "$status" 0 "move: exit 0"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(" ".join("%s:%s:%s" % (f["kind"], f["verdict"], f["subject"]) for f in r["findings"]))')" \
   "node-moved:note:/sys/devices/pnp0/00:04/tty/ttyS0" \
   "move: one node-moved note, no removal"

# kabidiff X X: silent, exit 0, for every snapshot there is
for f in "$FIXTURES"/snapshots/*.json "$D"/*.old.json "$D"/*.new.json; do
	run_kabidiff "$f" "$f"
	is "$status:$out:$err" "0::" "kabidiff X X is silent: ${f#"$FIXTURES"/}"
done

# a part one side lacks is trouble, not "no change" (tests/cli/judge.t
# has --parts, which leaves it out)
run_kabidiff diff "$FIXTURES/snapshots/minimal.json" "$D/move.new.json"
is "$status:$out:$err" "2::kabidiff: $FIXTURES/snapshots/minimal.json has no sysfs part: collect it with --image or --sysfs-dir
kabidiff: $FIXTURES/snapshots/minimal.json has no docs part: collect it with --docs or --docs-git" \
   "a part only one side has: exit 2, each part named, no report"

# waivers: the testing pair's changes all accepted, one waiver unused
run_kabidiff diff --color=never --verdict note --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
is "$status" 0 "waivers: every break accepted, exit 0"
is "$(printf '%s\n' "$out" | tail -1)" "0 break, 0 warn, 0 note, 31 waived" "waivers: summary counts them"
is "$(printf '%s\n' "$out" | grep -c '^      waived:  ')" 31 "waivers: each finding names its waiver"
is "$err" "kabidiff: warning: $D/waivers.txt:8: waiver matched no change" "waivers: the unused one is named"
run_kabidiff diff --format json --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["unused_waivers"], r["findings"][0]["waiver"]["line"])')" \
   "[{'file': '$D/waivers.txt', 'line': 8, 'subject': '/sys/nowhere'}] 4" \
   "waivers: JSON has the waiver of each finding and the unused ones"
# a reason is the rest of the line, '#' and all; a quoted one loses its
# quotes, and a comment may follow it
printf '%s\n' '* /sys/kabi/* see bug #123, "v2"' '*  "x86_64/kabi_*"  "see bug #124"  # renumbered' \
	>"$TMP/hash.txt"
run_kabidiff diff --color=never --waivers "$TMP/hash.txt" "$D/testing.old.json" "$D/testing.new.json"
is "$(printf '%s\n' "$out" | grep '^      waived:  break ' | sort -u | sed "s|$TMP/||")" \
   "      waived:  break by hash.txt:1: \"see bug #123, \\\"v2\\\"\"
      waived:  break by hash.txt:2: see bug #124" \
   "waivers: a reason keeps its '#' and inner quotes, a quoted one loses its quotes"

# policy: a house policy that keeps unstable/ turns the unstable pair red
run_kabidiff diff "$D/unstable.old.json" "$D/unstable.new.json"
is "$status" 0 "policy: the unstable pair passes the default policy"
run_kabidiff diff --policy "$D/policy.txt" --format json "$D/unstable.old.json" "$D/unstable.new.json"
is "$status" 1 "policy: and fails the house policy"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
print(json.load(sys.stdin)["summary"])')" \
   "{'break': 20, 'warn': 1, 'note': 10, 'waived': 0}" "policy: its cells judged the removed and incompatible changes"

# --strict: warn is break
run_kabidiff diff "$D/undocumented.old.json" "$D/undocumented.new.json"
is "$status" 0 "strict: undocumented changes warn, exit 0"
run_kabidiff diff --strict "$D/undocumented.old.json" "$D/undocumented.new.json"
is "$status" 1 "strict: --strict makes them breaks, exit 1"

# bad waiver and policy files: exit 2, FILE:LINE, no report
bad() {
	name=$1 option=$2 text=$3 want=$4
	printf '%b' "$text" >"$TMP/bad.txt"
	run_kabidiff diff "$option" "$TMP/bad.txt" "$D/testing.old.json" "$D/testing.new.json"
	is "$status:$out:$err" "2::kabidiff: $TMP/bad.txt:$want" "$name"
}
bad "waiver without a reason" --waivers '# x\nnode-removed /sys/x\n' \
	"2: expected KIND SUBJECT REASON (a waiver needs a reason)"
bad "waiver of an unknown kind" --waivers 'node-gone /sys/x why\n' \
	"1: 'node-gone' is not a change kind (node-removed, mode-lost, ... or *)"
bad "waiver with an open quote" --waivers '* "struct x why\n' \
	"1: a quoted field does not end"
bad "waiver with an empty quoted reason" --waivers '* /sys/x ""\n' \
	"1: a waiver needs a reason"
bad "waiver whose reason is blanks" --waivers '* /sys/x why\n* /sys/y "  "\n' \
	"2: a waiver needs a reason"
bad "text right after a closing quote" --waivers '* "/sys/x"y why\n' \
	"1: text right after the closing quote of \"/sys/x\""
bad "waiver of the kind and subject of an earlier one" \
	--waivers 'node-removed /sys/x why\n* /sys/x why\nnode-removed /sys/x again\n' \
	"3: the same waiver as line 1"
bad "waiver with an unclosed bracket" --waivers '* /sys/[xy why\n' \
	"1: '/sys/[xy' is not a valid pattern (unclosed '[')"
bad "waiver with a trailing backslash" --waivers '* /sys/x\\ why\n' \
	"1: '/sys/x\\' is not a valid pattern (a '\\' at its end)"
bad "cap with an unclosed bracket" --policy 'cap /sys/kabi/[ab testing\n' \
	"1: '/sys/kabi/[ab' is not a valid pattern (unclosed '[')"
bad "policy with text after a quoted verdict" --policy 'removed stable "note"x\n' \
	"1: text right after the closing quote of \"note\""
bad "policy with an unknown change" --policy '\n\nfrobbed * note\n' \
	"3: 'frobbed' is neither a change kind (node-removed, ...) nor a class (removed, incompatible, ...)"
bad "policy with an unknown level" --policy 'removed sable note\n' \
	"1: 'sable' is not a level (stable, testing, unstable, obsolete, private, removed, sysctl, undocumented or *)"
bad "policy with an unknown verdict" --policy 'removed stable fine\n' \
	"1: 'fine' is not a verdict (break, warn or note)"
bad "policy line with four fields" --policy 'removed stable note now\n' \
	"1: expected CHANGE LEVEL VERDICT or cap PATTERN LEVEL"
run_kabidiff diff --policy "$TMP/missing" "$D/testing.old.json" "$D/testing.new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/missing: No such file or directory" "missing policy file"

# usage and unreadable snapshots
run_kabidiff diff "$D/testing.old.json"
is "$status" 2 "one snapshot: exit 2"
run_kabidiff diff --format yaml "$D/testing.old.json" "$D/testing.new.json"
is "$status:$out" "2:" "--format yaml: exit 2"
run_kabidiff "$D/testing.old.json" "$TMP/missing.json"
is "$status:$out:$err" "2::kabidiff: $TMP/missing.json: No such file or directory" "missing NEW: exit 2, named"
# OLD and NEW are loaded side by side, their messages printed as one
# thread would: OLD's first, and nothing of NEW's when OLD fails
run_kabidiff "$TMP/missing-old.json" "$TMP/missing.json"
is "$status:$out:$err" "2::kabidiff: $TMP/missing-old.json: No such file or directory" \
   "missing OLD and NEW: exit 2, OLD named alone"
: >"$TMP/empty.json"
run_kabidiff "$TMP/empty.json" "$TMP/missing.json"
is "$status:$out:$err" "2::kabidiff: $TMP/empty.json: empty file, not a kabidiff snapshot" \
   "bad OLD, missing NEW: OLD named alone"
KABIDIFF_VERBOSE=1 "$KABIDIFF" diff "$D/testing.old.json" "$D/testing.new.json" \
	2>&1 >/dev/null | sed -n 's/^kabidiff: \([^:]*\): .* loaded in .*/\1/p' >"$TMP/loaded"
is "$(cat "$TMP/loaded")" "$(printf '%s\n' "$D/testing.old.json" "$D/testing.new.json")" \
   "KABIDIFF_VERBOSE: OLD's load reported before NEW's"
mkdir "$TMP/build"
run_kabidiff "$TMP/build" "$D/testing.new.json"
is "$status:$out" "2:" "a build directory without a vmlinux: exit 2"
printf '%s\n' "$err" | grep -q "$TMP/build/vmlinux"
is "$?" 0 "and the message names the vmlinux it looked for"

# the same reports from the build with ASan and UBSan
ASAN=$ASAN_KABIDIFF
not_built "$ASAN" && done_testing

# found by fuzz-diff: a path without '/' has no parent, a member name a
# damaged snapshot repeats is paired by its rank, and of two entries that
# document one pattern at two levels each is paired with itself
printf '%s\n' '{"format": "kabidiff-snapshot", "version": 1, "kernel": {},' \
	'"sysfs": [{"path": "relative", "kind": "file", "mode": "0444"}],' \
	'"types": {"struct twice": {"kind": "struct", "size": 8, "members": [' \
	'{"name": "m", "type": "int", "offset": 0, "size": 4},' \
	'{"name": "m", "type": "int", "offset": 4, "size": 4}]}},' \
	'"docs": [{"level": "private", "file": "private/a", "line": 1, "what": ["/sys/x"]},' \
	'{"level": "removed", "file": "removed/b", "line": 1, "what": ["/sys/x"]}]}' >"$TMP/odd.json"
"$ASAN" diff "$TMP/odd.json" "$TMP/odd.json" >"$TMP/asan-out" 2>&1
is "$?:$(cat "$TMP/asan-out")" "0:" "asan: odd paths, repeated member names, a pattern at two levels, against itself: silent"
# (move.new.json has no types: --parts leaves them out, else it is trouble)
"$ASAN" diff --color=never --parts sysfs,docs "$TMP/odd.json" "$D/move.new.json" >"$TMP/asan-out" 2>&1
is "$?:$(grep -c 'runtime error\|AddressSanitizer' "$TMP/asan-out")" "0:0" \
   "asan: and against another snapshot: no sanitizer report"
for n in $PAIRS; do
	"$ASAN" diff --color=never --waivers "$D/waivers.txt" --policy "$D/policy.txt" \
		"$D/$n.old.json" "$D/$n.new.json" >/dev/null 2>"$TMP/asan-err"
	status=$?
	[ "$status" -le 1 ] && ! grep -qv 'waiver matched no change' "$TMP/asan-err"
	is "$?" 0 "asan: $n with waivers and a policy, exit 0 or 1, no sanitizer report"
	"$ASAN" diff --color=never --verdict note "$D/$n.old.json" "$D/$n.new.json" 2>&1 |
		sed "s|$TOP/||g" >"$TMP/asan-out"
	cmp -s "$TMP/asan-out" "$D/$n.txt"
	is "$?" 0 "asan: $n text report as golden"
done

done_testing
