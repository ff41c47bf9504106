#!/bin/sh
# "-" is standard input wherever a file is read (a snapshot for show and
# diff, a policy or waiver file) and standard output for collect -o; -o
# FILE for the commands that print data, written whole or not at all; and
# --json refused by the commands that print no JSON.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
cd "$TMP" || exit 2

"$KABIDIFF" show - <"$D/docs.old.json" >"$TMP/stdin.txt" 2>"$TMP/err"
status=$?
"$KABIDIFF" show "$D/docs.old.json" >"$TMP/file.txt"
is "$status:$(cat "$TMP/err"):$(cmp "$TMP/stdin.txt" "$TMP/file.txt" && echo same)" "0::same" \
   "show -: the snapshot on standard input"

"$KABIDIFF" diff - "$D/docs.new.json" <"$D/docs.old.json" >"$TMP/stdin.txt" 2>/dev/null
status=$?
"$KABIDIFF" diff "$D/docs.old.json" "$D/docs.new.json" >"$TMP/file.txt" 2>/dev/null
is "$status:$(sed -n 2p "$TMP/stdin.txt")" "1:  old:   6.1.0-kabi-old, from -" \
   "diff - NEW: the header says OLD came from standard input"
sed -i 2d "$TMP/stdin.txt" "$TMP/file.txt"
is "$(cmp "$TMP/stdin.txt" "$TMP/file.txt" && echo same)" "same" \
   "diff - NEW: OLD on standard input, the same report"

"$KABIDIFF" collect --docs "$FIXTURES/abi" -o - >"$TMP/out.json" 2>/dev/null
status=$?
"$KABIDIFF" collect --docs "$FIXTURES/abi" -o "$TMP/file.json" 2>/dev/null
is "$status:$([ -e "$TMP/-" ] && echo file):$(cmp "$TMP/out.json" "$TMP/file.json" && echo same)" \
   "0::same" "collect -o -: the snapshot on standard output, no file named '-'"

printf '' | "$KABIDIFF" show - >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:kabidiff: -: empty file, not a kabidiff snapshot" \
   "show - with nothing on standard input: one line, exit 2"

# -o FILE: what the command would print, and no file when it failed
"$KABIDIFF" show -o "$TMP/show.txt" "$D/docs.old.json"
is "$?" 0 "show -o FILE: exit 0"
"$KABIDIFF" show "$D/docs.old.json" >"$TMP/show-stdout.txt"
is "$(cmp "$TMP/show.txt" "$TMP/show-stdout.txt" && echo same)" same \
   "show -o FILE: the summary show prints"
"$KABIDIFF" docs validate -o "$TMP/validate.txt" "$FIXTURES/abi"
status=$?
"$KABIDIFF" docs validate "$FIXTURES/abi" >"$TMP/validate-stdout.txt"
is "$status:$(cmp "$TMP/validate.txt" "$TMP/validate-stdout.txt" && echo same)" "1:same" \
   "docs validate -o FILE: its problems and summary, exit 1 as without"
"$KABIDIFF" undocumented --docs "$FIXTURES/abi" -o "$TMP/undoc.json" --json "$FIXTURES/snapshots/full.json" 2>/dev/null
is "$?:$(python3 -c 'import json, sys; json.load(open(sys.argv[1])); print("json")' "$TMP/undoc.json")" \
   "0:json" "undocumented -o FILE --json: JSON in FILE"
"$KABIDIFF" show -o "$TMP/none.txt" "$TMP/nothing.json" 2>/dev/null
is "$?:$(ls -A "$TMP" | grep -c 'none')" "2:0" \
   "show -o FILE of a snapshot that is not there: exit 2, no FILE, no temporary file"

"$KABIDIFF" diff -o "$TMP/report.txt" "$D/docs.old.json" "$D/docs.new.json" 2>/dev/null
status=$?
"$KABIDIFF" diff "$D/docs.old.json" "$D/docs.new.json" >"$TMP/report-stdout.txt" 2>/dev/null
is "$status:$(cmp "$TMP/report.txt" "$TMP/report-stdout.txt" && echo same)" "1:same" \
   "diff -o FILE: the report, exit 1 for its breaks"
"$KABIDIFF" diff -o "$TMP/no-report.txt" "$D/docs.old.json" "$TMP/nothing.json" 2>/dev/null
is "$?:$(ls -A "$TMP" | grep -c 'no-report')" "2:0" \
   "diff -o FILE with a side that is not there: exit 2, no FILE"

"$KABIDIFF" --json docs validate "$FIXTURES/abi" >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" \
   "2:{\"level\":\"error\",\"message\":\"docs validate prints FILE:LINE: lines, not JSON: --json is not its\",\"hint\":\"Try 'kabidiff docs --help'.\"}" \
   "--json docs validate: refused, not ignored (as JSON, as --json says)"

done_testing
