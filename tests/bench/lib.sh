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
# largest peak RSS over RUNS runs
measure() {
	runs=$1
	shift
	best= peak=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%e %M' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/stderr" ||
			{ echo "bench: $* failed: $(head -c 300 "$TMP/stderr")" >&2; exit 1; }
		read -r wall kb <"$TMP/time"
		best=$(awk -v a="$wall" -v b="${best:-$wall}" 'BEGIN { print (a < b ? a : b) }')
		[ "$kb" -gt "$peak" ] && peak=$kb
		i=$((i + 1))
	done
	echo "$best $peak"
}

command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
