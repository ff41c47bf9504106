#!/bin/sh
# make bench, Debian part: 'kabidiff debian:6.1.0-57 debian:6.12.118+deb12'
# end to end with the packages in the cache and the snapshots not (both
# kernels collected at once, each booted under QEMU), on the minimal
# machine (target 10 s) and on the standard one with the packages' modules
# (target: the slower of the two kernels' own boots, measured here, plus
# 2 s); then with the snapshots cached (target 0.5 s).
#
# The packages come from the cache ($CACHE/packages), fetched there by a
# first comparison when they are not (about 2.3 GB); each measured run gets
# a scratch cache whose packages/ and debian/ are links to the real ones
# and whose snapshots/ starts empty.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"
OLD=debian:6.1.0-57
NEW=debian:6.12.118+deb12

# compare CACHE [OPTION...]: the comparison, its exit 1 (breaks) is success
compare() {
	cache=$1
	shift
	KABIDIFF_CACHE=$cache "$KABIDIFF" diff "$@" "$OLD" "$NEW" >/dev/null; [ $? -le 1 ]
}

echo "kabidiff $OLD $NEW (best of $RUNS runs)"
compare "$CACHE" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; echo "bench: could not fetch and compare $OLD and $NEW" >&2; exit 1; }

mkdir "$TMP/cache"
ln -s "$CACHE/packages" "$TMP/cache/packages"
ln -s "$CACHE/debian" "$TMP/cache/debian"
export KABIDIFF_BENCH_CACHE=$TMP/cache KABIDIFF

# "sh uncached MACHINE": one comparison with no snapshot cached
cat >"$TMP/uncached" <<'EOF'
rm -rf "$KABIDIFF_BENCH_CACHE/snapshots"
KABIDIFF_CACHE=$KABIDIFF_BENCH_CACHE "$KABIDIFF" diff --machine "$1" \
	debian:6.1.0-57 debian:6.12.118+deb12
[ $? -le 1 ]
EOF

# boot_alone IMAGE-ENTRY: collect one kernel's sysfs part on the standard
# machine with its modules, as the comparison does for each side
pkg=$CACHE/packages
old_image=$(ls -d "$pkg"/linux-image-6.1.0-57-amd64-unsigned_*_amd64)
new_image=$(ls -d "$pkg"/linux-image-6.12.118+deb12-amd64-unsigned_*_amd64)
boot_alone() {
	release=$(basename "$1" | sed 's/^linux-image-\(.*\)-unsigned_.*/\1/')
	measure "$RUNS" "$KABIDIFF" collect --image "$1/boot/vmlinuz-$release" \
		--modules "$1/lib/modules/$release" -o "$TMP/boot.json" | cut -d' ' -f1
}
old_boot=$(boot_alone "$old_image")
new_boot=$(boot_alone "$new_image")
slower=$(awk -v a="$old_boot" -v b="$new_boot" 'BEGIN { print (a > b ? a : b) }')

minimal=$(measure "$RUNS" sh "$TMP/uncached" minimal | cut -d' ' -f1)
standard=$(measure "$RUNS" sh "$TMP/uncached" standard | cut -d' ' -f1)
cached=$(measure "$RUNS" sh -c 'KABIDIFF_CACHE=$KABIDIFF_BENCH_CACHE "$0" diff --machine standard "$1" "$2"; [ $? -le 1 ]' \
	 "$KABIDIFF" "$OLD" "$NEW" | cut -d' ' -f1)

awk -v min="$minimal" -v std="$standard" -v ob="$old_boot" -v nb="$new_boot" \
    -v slower="$slower" -v cached="$cached" 'BEGIN {
	printf "  packages cached, snapshots not, minimal machine   %6.2f s (target 10 s)\n", min
	printf "  packages cached, snapshots not, standard machine  %6.2f s (target %.2f s: the slower boot + 2 s)\n",
	       std, slower + 2
	printf "    each kernel booted alone (standard, modules)    %6.2f s and %.2f s\n", ob, nb
	printf "  snapshots cached                                  %6.3f s (target 0.5 s)\n", cached
}'
