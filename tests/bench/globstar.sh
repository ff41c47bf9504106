#!/bin/sh
# make bench, matcher part: 'kabidiff undocumented' on an 11,000-node
# generated tree with documentation of N entries /sys/devices/FIRST/.../wakeup
# (tests/bench/gen-abi.py), each of which matches every directory below
# /sys/devices/platform: FIRST is "<vI>", spelt apart, then two classes and
# a '*' that compile apart.  The time should not grow with N but for the
# matches themselves: the target is 4,000 patterns in at most 3 times the
# time of 500.  Best of RUNS runs (default 5).
set -eu

. "$(dirname "$0")/lib.sh"
SYSFS=$(generated_sysfs 11000)

# generated_abi N SHAPE: the directory of gen-abi.py's N entries, built once
generated_abi() {
	dir=$CACHE/bench/abi-globstar-$2-$1
	if [ ! -d "$dir" ]; then
		rm -rf "$dir.tmp"
		python3 "$TOP/tests/bench/gen-abi.py" "$1" "$dir.tmp" "$2"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

echo "kabidiff undocumented with N '...' patterns alive below /sys/devices (11,000 nodes; best of $RUNS runs)"
for shape in spelt compiled; do
	case $shape in
	spelt) label="'...' patterns";;
	compiled) label="'...' patterns compiled apart";;
	esac
	printf '%10s %10s %10s   %s\n' "patterns" "wall" "peak" "/sys/devices/FIRST/.../wakeup, FIRST $shape apart"
	for n in 500 1000 2000 4000; do
		set -- $(measure "$RUNS" "$KABIDIFF" undocumented --docs "$(generated_abi "$n" "$shape")" \
			 --sysfs-dir "$SYSFS")
		awk -v n="$n" -v w="$1" -v m="$2" 'BEGIN {
			printf "%10d %8.3f s %7.1f MB\n", n, w, m / 1024 }'
		[ "$n" -ne 500 ] || first=$1
		last=$1
	done
	awk -v l="$label" -v a="$last" -v b="$first" 'BEGIN {
		printf "undocumented with 4000 %s: %.3f s, with 500: %.3f s, ratio %.1f (target <= 3)\n",
		       l, a, b, a / (b > 0.001 ? b : 0.001) }'
done
