# SPDX-License-Identifier: GPL-2.0-only
# Shared by the benches (sourced): paths, a scratch directory, and measure.
set -eu

TOP=$(cd "$(dirname "$0")/../.." && pwd)
KABIDIFF=${KABIDIFF:-$TOP/build/kabidiff}
RUNS=${RUNS:-5}
CACHE=${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kabidiff-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# measure RUNS CMD...: prints "SECONDS PEAK_KB", the best wall time and the
# largest peak RSS over RUNS runs.  The wall time is date's, to the
# microsecond: GNU time's %e has hundredths, too coarse for runs of 0.02 s.
measure() {
	runs=$1
	shift
	best= peak=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		start=$(date +%s.%N)
		/usr/bin/time -f '%M' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/stderr" ||
			{ echo "bench: $* failed: $(head -c 300 "$TMP/stderr")" >&2; exit 1; }
		wall=$(date +%s.%N | awk -v s="$start" '{ printf "%.6f", $1 - s }')
		read -r kb <"$TMP/time"
		best=$(awk -v a="$wall" -v b="${best:-$wall}" 'BEGIN { print (a < b ? a : b) }')
		[ "$kb" -gt "$peak" ] && peak=$kb
		i=$((i + 1))
	done
	echo "$best $peak"
}

# generated_sysfs NODES: the directory of a gen-sysfs.py tree of about NODES
# nodes, built once in $CACHE/bench
generated_sysfs() {
	dir=$CACHE/bench/sysfs-$1
	if [ ! -d "$dir" ]; then
		python3 "$TOP/tests/bench/gen-sysfs.py" "$1" >"$TMP/list"
		rm -rf "$dir.tmp"
		mkdir -p "$CACHE/bench"
		python3 "$TOP/tests/sysfs-materialise.py" "$TMP/list" "$dir.tmp"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
