#!/bin/sh
# "-" is standard input wherever a file is read (a snapshot for show and
# diff, a policy or waiver file) and standard output for collect -o.
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
is "$status:$(cmp "$TMP/stdin.txt" "$TMP/file.txt" && echo same)" "1:same" \
   "diff - NEW: OLD on standard input, the same report"

"$KABIDIFF" collect --docs "$FIXTURES/abi" -o - >"$TMP/out.json" 2>/dev/null
status=$?
"$KABIDIFF" collect --docs "$FIXTURES/abi" -o "$TMP/file.json" 2>/dev/null
is "$status:$([ -e "$TMP/-" ] && echo file):$(cmp "$TMP/out.json" "$TMP/file.json" && echo same)" \
   "0::same" "collect -o -: the snapshot on standard output, no file named '-'"

printf '' | "$KABIDIFF" show - >/dev/null 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:kabidiff: -: empty file, not a kabidiff snapshot" \
   "show - with nothing on standard input: one line, exit 2"

done_testing
