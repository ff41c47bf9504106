#!/bin/sh
# make bench, diff part: 'kabidiff diff' on two generated snapshots of
# Debian-kernel size and larger (tests/fixtures/gen-snapshot.py: the second
# one a release later, with removed, added and changed nodes, renumbered
# syscalls and grown types; 4,000 doc entries, about what linux-source-6.1
# has), next to GNU diff -u on the same two files, the textual comparison
# one would do without kabidiff.  Then the same on two real snapshots,
# Debian's newest 6.1 and 6.12 (6.1.0-57 and 6.12.118+deb12 when this was
# written), which tests/debian-upgrade.sh keeps in the cache (collecting
# them first when they are missing or older than their inputs or the
# kabidiff binary: downloads, and a boot of each kernel under QEMU).
#
# "diff" is the comparison and judging alone, as kabidiff reports it on
# stderr with KABIDIFF_VERBOSE; "total" adds loading both snapshots (JSON
# parsing, most of it) and writing the JSON report.
set -eu

. "$(dirname "$0")/lib.sh"
GEN=$TOP/tests/fixtures/gen-snapshot.py

# best_diff_time OLD NEW: the least "judged in" time over RUNS runs (from
# a JSON line: with --format json, progress is JSON too)
best_diff_time() {
	i=0 best=
	while [ "$i" -lt "$RUNS" ]; do
		t=$(KABIDIFF_VERBOSE=1 "$KABIDIFF" diff --format json "$1" "$2" 2>&1 >/dev/null |
		    sed -n 's/.* judged in \([0-9.]*\) s"}$/\1/p')
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
		i=$((i + 1))
	done
	echo "$best"
}

echo "kabidiff diff on generated snapshot pairs (best of $RUNS runs; growth should be linear)"
printf '%8s %6s %6s %10s %6s %19s %10s %10s\n' "nodes" "calls" "types" \
       "diff" "us/node" "total  peak" "diff -u" "vs diff -u"
for n in 20000 50000 100000 200000; do
	python3 "$GEN" --docs 4000 "$n" | "$KABIDIFF" show --json /dev/stdin >"$TMP/old.json"
	python3 "$GEN" --docs 4000 --changed "$n" | "$KABIDIFF" show --json /dev/stdin >"$TMP/new.json"
	engine=$(best_diff_time "$TMP/old.json" "$TMP/new.json")
	set -- $(measure "$RUNS" sh -c '"$0" diff --format json "$1" "$2"; [ $? -le 1 ]' \
		 "$KABIDIFF" "$TMP/old.json" "$TMP/new.json") \
	       $(measure "$RUNS" sh -c 'diff -u "$0" "$1"; [ $? -le 1 ]' \
		 "$TMP/old.json" "$TMP/new.json")
	counts=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print(len(s["sysfs"]), len(s["syscalls"]), len(s["types"]))' "$TMP/old.json")
	awk -v c="$counts" -v e="$engine" -v kw="$1" -v km="$2" -v dw="$3" 'BEGIN {
		split(c, n, " ")
		printf "%8d %6d %6d %8.3f s %6.2f %7.3f s %6.1f MB %8.3f s %9.1fx\n",
		       n[1], n[2], n[3], e, e * 1e6 / n[1], kw, km / 1024, dw,
		       dw / (kw > 0.001 ? kw : 0.001) }'
done
echo "target: diff under 0.100 s at 20,000 nodes"

# best_stages OLD NEW: the least load time of OLD and of NEW and the least
# "judged in" time over RUNS runs, as KABIDIFF_VERBOSE reports them (OLD's
# load first)
best_stages() {
	i=0 best=
	while [ "$i" -lt "$RUNS" ]; do
		t=$(KABIDIFF_VERBOSE=1 "$KABIDIFF" diff "$1" "$2" 2>&1 >/dev/null |
		    sed -n 's/.* \(loaded\|judged\) in \([0-9.]*\) s$/\2/p' | tr '\n' ' ')
		best=$(echo "$t ${best:-$t}" | awk '{
			for (k = 1; k <= 3; k++)
				printf "%s ", ($k < $(k + 3) ? $k : $(k + 3)) }')
		i=$((i + 1))
	done
	echo "$best"
}

echo
snapshots=$("$TOP/tests/debian-upgrade.sh")
set -- $snapshots
old=$1 new=$2
echo "kabidiff diff of Debian's upgrade snapshots, ${old##*/} -> ${new##*/} (best of $RUNS runs)"
printf '%10s %10s %10s %19s %10s %10s\n' "load OLD" "load NEW" "diff" "total  peak" \
       "diff -u" "vs diff -u"
stages=$(best_stages "$old" "$new")
set -- $(measure "$RUNS" sh -c '"$0" diff "$1" "$2"; [ $? -le 1 ]' \
	 "$KABIDIFF" "$old" "$new") \
       $(measure "$RUNS" sh -c 'diff -u "$0" "$1"; [ $? -le 1 ]' "$old" "$new")
awk -v s="$stages" -v kw="$1" -v km="$2" -v dw="$3" 'BEGIN {
	split(s, t, " ")
	printf "%8.3f s %8.3f s %8.3f s %7.3f s %6.1f MB %8.3f s %9.1fx\n",
	       t[1], t[2], t[3], kw, km / 1024, dw, dw / (kw > 0.001 ? kw : 0.001) }'
echo "target: kabidiff faster than diff -u (above 1.0x)"
