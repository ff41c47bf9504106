#!/bin/sh
# make bench, Documentation/ABI part: 'kabidiff undocumented' against the
# kernel's 'scripts/get_abi.pl undefined', measured in this run, on the same
# kernel tree and the same sysfs trees; then kabidiff alone on generated
# trees of 50k, 100k and 200k nodes, to show how it grows.
#
# Wall time is the best of RUNS runs (default 5; get_abi.pl 3), peak memory
# the maximum resident set size that GNU time reports.
set -eu

. "$(dirname "$0")/lib.sh"
TREE=$("$TOP/tests/kernel-tree.sh")

# compare LABEL SYSFS_DIR [WRAPPER...]: both tools on one tree
compare() {
	label=$1
	dir=$2
	shift 2
	set -- $(measure "$RUNS" "$KABIDIFF" undocumented --docs "$TREE" --sysfs-dir "$dir") \
	       $(cd "$TREE" && measure 3 "$@" perl scripts/get_abi.pl undefined)
	awk -v l="$label" -v kw="$1" -v km="$2" -v gw="$3" -v gm="$4" 'BEGIN {
		printf "%-34s %8.3f s %7.1f MB   %8.3f s %7.1f MB   %6.1fx %5.1fx\n",
		       l, kw, km / 1024, gw, gm / 1024, gw / (kw > 0.001 ? kw : 0.001), gm / km }'
}

echo "kabidiff undocumented vs get_abi.pl undefined (linux-source-6.1 docs; best of $RUNS / 3 runs)"
printf '%-34s %-22s   %-22s   %s\n' "sysfs" "kabidiff wall  peak" "get_abi.pl wall  peak" "faster, less memory"
compare "this machine's /sys ($(find /sys -xdev 2>/dev/null | wc -l) nodes)" /sys

if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	python3 "$TOP/tests/sysfs-materialise.py" "$TOP/tests/fixtures/sysfs/host.list.gz" "$TMP/host"
	cat >"$TMP/in-ns" <<'SH'
#!/bin/sh
# run "$@" with $KABI_SYS bind-mounted on /sys, in a private mount namespace
exec unshare -m sh -c 'mount --bind "$KABI_SYS" /sys && exec "$@"' sh "$@"
SH
	chmod +x "$TMP/in-ns"
	compare "host.list.gz fixture (16642 nodes)" "$TMP/host" env KABI_SYS="$TMP/host" "$TMP/in-ns"
fi

echo
echo "kabidiff undocumented on generated trees (growth should be linear)"
printf '%10s %10s %10s %12s\n' "nodes" "wall" "peak" "us per node"
for n in 50000 100000 200000; do
	dir=$(generated_sysfs "$n")
	set -- $(measure "$RUNS" "$KABIDIFF" undocumented --docs "$TREE" --sysfs-dir "$dir")
	awk -v n="$n" -v w="$1" -v m="$2" 'BEGIN {
		printf "%10d %8.3f s %7.1f MB %12.2f\n", n, w, m / 1024, w * 1e6 / n }'
done
