#!/bin/sh
# kabidiff waivers REPORT: a waiver file for a JSON report's findings.  The
# round trip: a report with breaks, its waiver file, which --waivers
# refuses while a reason is the placeholder and which, the reasons given,
# accepts every finding it names and nothing else.  Then --verdict, -o,
# standard input, grouped findings and subjects a field cannot hold, and
# reports that are not reports.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
PLACEHOLDER="FIXME: say why this change is accepted"

# report OPTIONS... OLD NEW: the JSON report of diff into $TMP/report.json
report() {
	"$KABIDIFF" diff --format json "$@" >"$TMP/report.json" 2>/dev/null
}

# reasons FILE: FILE with every placeholder replaced by a reason
reasons() {
	sed "s/\"$PLACEHOLDER\"/\"accepted for the test\"/" "$1" >"$1.done"
}

# waiver_lines FILE: the lines that are waivers (not comments, not blank)
waiver_lines() {
	grep -v '^#' "$1" | grep -c .
}

report "$D/stable.old.json" "$D/stable.new.json"
is "$?" 1 "the stable pair's report has breaks (exit 1)"
cp "$TMP/report.json" "$TMP/stable.report.json"

run_kabidiff waivers -o "$TMP/w.txt" "$TMP/report.json"
is "$status:$out:$err" "0::" "waivers -o FILE: exit 0, nothing on stdout or stderr"
is "$(waiver_lines "$TMP/w.txt")" 21 "a waiver for each break and warn: 20 + 1"
is "$(sed -n 2p "$TMP/w.txt")" \
   "# 6.1.0-kabi-old -> 6.1.0-kabi-new, the findings of verdict break or warn" \
   "the header names both kernels and what is waived"
is "$(sed -n '7,8p' "$TMP/w.txt")" "# break, stable: Documentation/ABI/stable/syscalls:1
syscall-args-changed      x86_64/kabi_args                \"$PLACEHOLDER\"" \
   "a comment with the verdict, level and doc entry above each waiver"
is "$(grep -v '^#' "$TMP/w.txt" | grep . | awk '{ print index($0, "\"FIXME") }' | sort -u)" 59 \
   "the columns are aligned: every reason starts in one column"
is "$(grep -c "^[a-z-]* *\"struct kabi_gone\" " "$TMP/w.txt"):$(grep -c '^# warn, stable: ' "$TMP/w.txt")" \
   "1:1" "a type name is quoted; the warn is there"

run_kabidiff diff --color=never --waivers "$TMP/w.txt" "$D/stable.old.json" "$D/stable.new.json"
is "$status:$out:$err" "2::kabidiff: $TMP/w.txt:8: the reason is still the placeholder; say why this change is accepted" \
   "--waivers refuses the file while a reason is the placeholder"

reasons "$TMP/w.txt"
run_kabidiff diff --color=never --waivers "$TMP/w.txt.done" "$D/stable.old.json" "$D/stable.new.json"
is "$status:$(printf '%s\n' "$out" | tail -1):$err" "0:0 break, 0 warn, 10 note, 21 waived:" \
   "the reasons given: exit 0, every break and warn waived, no stale waiver"

# --verdict: the least severe verdict waived
run_kabidiff waivers --verdict note "$TMP/report.json"
printf '%s\n' "$out" >"$TMP/note.txt"
is "$status:$(waiver_lines "$TMP/note.txt"):$(sed -n 2p "$TMP/note.txt")" \
   "0:31:# 6.1.0-kabi-old -> 6.1.0-kabi-new, the findings of every verdict" \
   "--verdict note: a waiver for each of the 31 findings"
reasons "$TMP/note.txt"
run_kabidiff diff --color=never --waivers "$TMP/note.txt.done" "$D/stable.old.json" "$D/stable.new.json"
is "$status:$(printf '%s\n' "$out" | tail -1):$err" "0:0 break, 0 warn, 0 note, 31 waived:" \
   "--verdict note: every finding waived, no stale waiver"
run_kabidiff waivers --verdict break "$TMP/report.json"
printf '%s\n' "$out" >"$TMP/break.txt"
is "$status:$(waiver_lines "$TMP/break.txt"):$(grep -c '^# warn' "$TMP/break.txt")" "0:20:0" \
   "--verdict break: the 20 breaks alone"

# standard input, and findings a waiver accepts already
run_kabidiff waivers - <"$TMP/report.json"
is "$(printf '%s\n' "$out" | sed 1d)" "$(sed 1d "$TMP/w.txt")" \
   "'-' reads standard input: the same waivers"
is "$(printf '%s\n' "$out" | head -1 | sed 's/ on [0-9-]* / on DATE /')" \
   "# Waivers written by kabidiff waivers on DATE for standard input:" \
   "the header names standard input"
printf 'node-removed /sys/kabi/gone "see bug #1"\n' >"$TMP/one.txt"
report --waivers "$TMP/one.txt" "$D/stable.old.json" "$D/stable.new.json"
run_kabidiff waivers "$TMP/report.json"
is "$status:$(printf '%s\n' "$out" | grep -v '^#' | grep -c .):$(printf '%s\n' "$out" | grep -c /sys/kabi/gone)" \
   "0:20:0" "a finding a waiver accepts already gets no waiver"
report --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
run_kabidiff waivers --verdict note "$TMP/report.json"
is "$status:$(printf '%s\n' "$out" | tail -1)" "0:# No finding to waive." \
   "every finding waived: a header and a comment, no waiver"

# a narrowed report: its findings alone, and a warning saying so
report --only sysfs "$D/stable.old.json" "$D/stable.new.json"
run_kabidiff waivers "$TMP/report.json"
is "$status:$(printf '%s\n' "$out" | grep -v '^#' | grep -c .):$err" \
   "0:7:kabidiff: warning: $TMP/report.json: the report lists 10 of 31 findings (--verdict or --only): the others get no waiver" \
   "a report narrowed by --only: its findings, with a warning"

# Grouped findings, whose subject is a What: pattern or a shape with '*',
# and names a field must quote, escape, or cannot hold.
mkdir -p "$TMP/old/bus/pci/slots/1" "$TMP/old/bus/pci/slots/2" \
	 "$TMP/old/kernel/slab/a" "$TMP/old/kernel/slab/b" "$TMP/old/kernel/slab/keep" \
	 "$TMP/new/bus/pci/slots" "$TMP/new/kernel/slab/keep" \
	 "$TMP/old/kernel/odd name" "$TMP/abi/testing"
for n in 1 2; do echo 0 >"$TMP/old/bus/pci/slots/$n/module"; done
for n in a b keep; do echo 1 >"$TMP/old/kernel/slab/$n/order"; done
echo 1 >"$TMP/new/kernel/slab/keep/order"
for name in 'a*b' 'a\b' "caf$(printf '\351')" 'say "hi"'; do
	echo x >"$TMP/old/kernel/odd name/$name"
done
printf 'What:\t\t/sys/bus/pci/slots/<N>/module\nDate:\t\tJanuary 2020\nContact:\tkabidiff developers\nDescription:\tthe slot'"'"'s module\n' \
	>"$TMP/abi/testing/sysfs-slots"
for side in old new; do
	"$KABIDIFF" collect --sysfs-dir "$TMP/$side" --docs "$TMP/abi" \
		-o "$TMP/$side.json" 2>/dev/null
done
report "$TMP/old.json" "$TMP/new.json"
is "$?:$(grep -c '"instances"' "$TMP/report.json")" "1:4" \
   "the grouped pair: a break and four grouped findings"
run_kabidiff waivers -o "$TMP/g.txt" "$TMP/report.json"
is "$status:$err" "0:kabidiff: warning: $TMP/report.json: findings[6]: a waiver file cannot name the subject of node-removed /sys/kernel/odd name/say \"hi\" (it holds a '\"' and a blank): written as a comment" \
   "a subject with a '\"' and a blank: a warning, exit 0"
is "$(grep -A1 '; 2 instances' "$TMP/g.txt" | grep -v '^#' | grep -v '^--' | awk '{ print $2 }' | tr '\n' ' ')" \
   '/sys/bus/pci/slots/<N>/module /sys/bus/pci/slots/\* /sys/kernel/slab/\* /sys/kernel/slab/\*/order ' \
   "grouped findings: the pattern as it is, a shape's '*' escaped"
is "$(grep -c '^node-removed *"/sys/kernel/odd name/a\\\*b" ' "$TMP/g.txt"):$(grep -c '^node-removed *"/sys/kernel/odd name/a\\\\b" ' "$TMP/g.txt")" \
   "1:1" "a name with a blank quoted, its '*' and '\\' escaped"
is "$(grep -c "^# node-removed \"/sys/kernel/odd name/say \\\\\"hi\\\\\"\" cannot be waived here: it holds a '\"' and a blank\$" "$TMP/g.txt")" \
   1 "the subject no field can hold: a comment saying why"
reasons "$TMP/g.txt"
run_kabidiff diff --color=never --waivers "$TMP/g.txt.done" "$TMP/old.json" "$TMP/new.json"
is "$status:$(printf '%s\n' "$out" | tail -1):$err" "0:0 break, 1 warn, 0 note, 8 waived:" \
   "grouped: every finding with a waiver accepted by it, the break too, none stale"
is "$(printf '%s\n' "$out" | sed -n '/^== warn ==/,/^== note/p' | grep -c 'say \\"hi\\"')" 1 \
   "the one left is the subject no field could hold"

# A large report: 200,000 findings, of which 10,000 repeat a kind and
# subject (one waiver accepts both).  Comparing each finding with the
# waivers before it took 4.3 s for 40,000 and would take minutes here:
# timeout 60 fails it.
awk 'BEGIN {
	printf "{\"format\": \"kabidiff-report\", \"version\": 4, \"findings\": ["
	for (i = 0; i < 200000; i++)
		printf "%s{\"kind\": \"node-removed\", \"verdict\": \"break\", \"level\": \"stable\", \"subject\": \"/sys/kabi/n%d\", \"doc\": null, \"waiver\": null}", i ? ", " : "", i % 190000
	print "]}"
}' >"$TMP/large.json"
plain=$KABIDIFF
for KABIDIFF in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$KABIDIFF" && continue
	name=${KABIDIFF#"$TOP"/}
	timeout 60 "$KABIDIFF" waivers -o "$TMP/large.txt" "$TMP/large.json" 2>"$TMP/err"
	is "$?:$(cat "$TMP/err"):$(waiver_lines "$TMP/large.txt")" "0::190000" \
	   "200,000 findings, 190,000 kinds and subjects: a waiver each ($name)"
	is "$(grep -c '^node-removed  */sys/kabi/n0  ' "$TMP/large.txt"):$(grep -v '^#' "$TMP/large.txt" | grep . | sed -n '1p;$p' | awk '{ print $2 }' | tr '\n' ' ')" \
	   "1:/sys/kabi/n0 /sys/kabi/n189999 " "a repeated subject gets one waiver, in report order ($name)"
done
KABIDIFF=$plain

# Reports that are not kabidiff reports: one line, exit 2, no file
printf 'not json\n' >"$TMP/text.json"
: >"$TMP/empty.json"
head -n 30 "$TMP/stable.report.json" >"$TMP/truncated.json"
printf '{"format": "kabidiff-report", "version": 99, "findings": []}\n' >"$TMP/v99.json"
printf '{"format": "kabidiff-report", "version": "3", "findings": []}\n' >"$TMP/vstring.json"
printf '{"format": "junit", "version": 3}\n' >"$TMP/other.json"
printf '[3]\n' >"$TMP/array.json"
printf '{"format": "kabidiff-report", "version": 3, "findings": [{"kind": "node-gone"}]}\n' >"$TMP/kind.json"
printf '{"format": "kabidiff-report", "version": 3, "findings": [{"kind": "node-removed", "verdict": "break", "level": "stable", "subject": "a\\\\q", "doc": null, "waiver": null}]}\n' >"$TMP/bytes.json"
report --stat "$D/stable.old.json" "$D/stable.new.json"
cp "$TMP/report.json" "$TMP/stat.json"
echo "an earlier file" >"$TMP/kept.txt"

plain=$KABIDIFF
for KABIDIFF in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$KABIDIFF" && continue
	name=${KABIDIFF#"$TOP"/}
	while IFS='|' read -r file want; do
		run_kabidiff waivers -o "$TMP/kept.txt" "$TMP/$file"
		is "$status|$out|$err|$(cat "$TMP/kept.txt")" \
		   "2||kabidiff: $TMP/$file$want|an earlier file" "$file: refused, -o FILE untouched ($name)"
	done <<EOF
text.json|:1:3: '[' or '{' expected near 'not'
empty.json|: empty file, not a kabidiff report
truncated.json|:31:0: string or '}' expected near end of file
v99.json|: report format version 99 is newer than this kabidiff reads (up to 4); upgrade kabidiff
vstring.json|: version: not a report format version
other.json|: not a kabidiff report: "format" is not "kabidiff-report"
array.json|: not a kabidiff report: not a JSON object
kind.json|: findings[0].kind: 'node-gone' is not a change kind
bytes.json|: findings[0].subject: not a byte string (a '\' not followed by '\' or xHH, or a NUL)
stat.json|: a --stat report counts the findings and lists none: write it without --stat
nothing.json|: No such file or directory
EOF
	run_kabidiff waivers "$D/stable.old.json"
	is "$status|$out|$err" \
	   "2||kabidiff: $D/stable.old.json: a kabidiff snapshot, not a report: 'kabidiff diff --format json OLD NEW' writes one" \
	   "a snapshot: refused, saying what makes a report ($name)"
done
KABIDIFF=$plain

# usage
run_kabidiff waivers
is "$status:$err" "2:kabidiff: waivers needs one REPORT, a JSON report of kabidiff diff
Try 'kabidiff waivers --help'." "waivers without a report"
run_kabidiff waivers --verdict fatal "$TMP/report.json"
is "$status:$err" "2:kabidiff: --verdict is break, warn or note, not 'fatal'
Try 'kabidiff waivers --help'." "--verdict takes what diff's does"
run_kabidiff --json waivers "$TMP/report.json"
is "$status:$out" "2:" "--json: refused, a waiver file is no JSON"
run_kabidiff help waivers
is "$status:$(printf '%s\n' "$out" | head -1)" "0:Usage: kabidiff waivers [--verdict V] [-o FILE] REPORT" \
   "help waivers"
"$KABIDIFF" --help >"$TMP/help"
is "$(grep -c '^  waivers ' "$TMP/help")" 1 "kabidiff --help lists waivers"

done_testing
