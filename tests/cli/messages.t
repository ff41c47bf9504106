#!/bin/sh
# Messages that show input: each is one line, with control bytes escaped
# (a newline in a file name does not split it, an escape sequence does not
# reach the terminal), and not cut before its reason.  Every file kabidiff
# reads has a limit, and snapshots of two architectures are not compared.
# Run against the plain and the sanitizer build.
. "$(dirname "$0")/../lib.sh"

SNAP=$FIXTURES/snapshots/full.json
ESC=$(printf '\033')

# one_line NAME EXPECTED: stderr is the one line EXPECTED, status 2, no output
one_line() {
	is "$status|$err|$(wc -l <"$TMP/err")|$(wc -c <"$TMP/out")" \
	   "2|$2|1|0" "$1"
}

mkdir "$TMP/abi" "$TMP/abi/testing"
long=$(printf '%05000d' 0 | tr 0 a)
printf 'What:\t\t/sys/%s\nDescription:\tlong\n\nWhat:\t\t/sys/b%s[2J[\nDescription:\tescape\n' \
	"$long" "$ESC" >"$TMP/abi/testing/sysfs-hostile"
printf '%s /sys/a see bug\n' "${ESC}[31m" >"$TMP/waivers"
sed 's/"arch": "x86_64"/"arch": "aarch64"/' "$SNAP" >"$TMP/arm.json"
truncate -s 2G "$TMP/sparse.json"
truncate -s 17M "$TMP/large.policy"
mkfifo "$TMP/fifo.policy"

plain=$KABIDIFF
for KABIDIFF in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$KABIDIFF" && continue
	name=${KABIDIFF#"$TOP"/}

	run_kabidiff show "$TMP/a
${ESC}[31mb.json"
	one_line "a file name's newline and escape sequence are escaped ($name)" \
		 "kabidiff: $TMP/a\\n\\x1b[31mb.json: No such file or directory"

	run_kabidiff diff --waivers "$TMP/waivers" "$SNAP" "$SNAP"
	one_line "a waiver's escape sequence is escaped ($name)" \
		 "kabidiff: $TMP/waivers:1: '\\x1b[31m' is not a change kind (node-removed, mode-lost, ... or *)"

	run_kabidiff docs validate "$TMP/abi"
	is "$status|$(grep -c '^Documentation/ABI/' "$TMP/out")|$(tail -n 1 "$TMP/out")" \
	   "1|2|1 files, 2 entries: 2 warnings, 2 malformed entries" \
	   "docs validate: one line for each of the two bad What: lines ($name)"
	is "$(grep 'sysfs-hostile:1:' "$TMP/out" | sed 's/.*": //')" "pattern too long" \
	   "a 5,000-byte What: is shown whole, its reason after it ($name)"
	is "$(grep -c "/sys/$long\"" "$TMP/out")" 1 \
	   "the long What: is not cut ($name)"
	is "$(grep -c "$ESC" "$TMP/out"):$(grep -c 'b\\x1b\[2J\[' "$TMP/out")" "0:1" \
	   "the escape in a What: line reaches the terminal escaped ($name)"

	run_kabidiff show "$TMP/sparse.json"
	one_line "a 2 GiB snapshot is refused without being read ($name)" \
		 "kabidiff: $TMP/sparse.json: larger than 1024 MiB, the most kabidiff reads of such a file"

	run_kabidiff diff --policy "$TMP/large.policy" "$SNAP" "$SNAP"
	one_line "a --policy of 17 MiB is refused without being read ($name)" \
		 "kabidiff: $TMP/large.policy: larger than 16 MiB, the most kabidiff reads of such a file"

	# a FIFO without a writer: a plain open() would wait for ever
	status=0
	timeout 60 "$KABIDIFF" diff --policy "$TMP/fifo.policy" "$SNAP" "$SNAP" \
		>"$TMP/out" 2>"$TMP/err" || status=$?
	err=$(cat "$TMP/err")
	one_line "a FIFO as --policy is refused at once, not waited on ($name)" \
		 "kabidiff: $TMP/fifo.policy: not a regular file (a FIFO, a device, a socket): not read"

	run_kabidiff collect --sysfs-stream "$TMP/sparse.json" -o "$TMP/snap.json"
	one_line "--sysfs-stream of 2 GiB is refused ($name)" \
		 "kabidiff: $TMP/sparse.json: larger than 1024 MiB, the most kabidiff reads of such a file"
	is "$(ls "$TMP/snap.json" 2>/dev/null)" "" "and writes no snapshot ($name)"

	run_kabidiff diff "$SNAP" "$TMP/arm.json"
	one_line "snapshots of two architectures are not compared ($name)" \
		 "kabidiff: $SNAP is of architecture x86_64 and $TMP/arm.json of aarch64: the ABIs of two architectures cannot be compared (--parts docs compares their documentation)"

	run_kabidiff diff --parts docs "$SNAP" "$TMP/arm.json"
	is "$status|$err" "0|" "their documentation is ($name)"
done
KABIDIFF=$plain

done_testing
