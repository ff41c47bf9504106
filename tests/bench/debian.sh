#!/bin/sh
# make bench, Debian part: 'kabidiff debian:6.1 debian:6.12' (the newest
# ABI of each series, 6.1.0-57 and 6.12.118+deb12 when this was written)
# end to end with the packages in the cache and the snapshots not (both
# kernels collected at once, each booted under QEMU), on the minimal
# machine (target 10 s) and on the standard one with the packages' modules
# (target: the slower of the two kernels' own boots, measured here, plus
# 2 s); then with the snapshots cached (target 0.5 s).
#
# The packages come from the cache ($CACHE/packages), fetched there by a
# first comparison when they are not (about 2.3 GB); each measured run gets
# a scratch cache whose packages/ and debian/ hold links to what the real
# ones hold (kabidiff refuses a link as one of its folders) and whose
# snapshots/ starts empty.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"
OLD=debian:6.1
NEW=debian:6.12

# compare CACHE [OPTION...]: the comparison, its exit 1 (breaks) is
# success; saying which ABIs it chose
compare() {
	cache=$1
	shift
	KABIDIFF_VERBOSE=1 KABIDIFF_CACHE=$cache "$KABIDIFF" diff "$@" "$OLD" "$NEW" >/dev/null
	[ $? -le 1 ]
}

compare "$CACHE" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; echo "bench: could not fetch and compare $OLD and $NEW" >&2; exit 1; }
# the -unsigned package each side chose, as NAME_VERSION_amd64: "kabidiff:
# debian:6.1: 6.1.0-57-amd64, the newest release of the archive it names
# (linux-image-6.1.0-57-amd64-unsigned 6.1.192-3)"
chosen() {
	sed -n "s/^kabidiff: $1: [^ ]*, the newest .* (\\([^ ]*\\) \\([^)]*\\))\$/\\1_\\2_amd64/p" "$TMP/err"
}
old_id=$(chosen "$OLD")
new_id=$(chosen "$NEW")
[ -n "$old_id" ] && [ -n "$new_id" ] ||
	{ cat "$TMP/err" >&2; echo "bench: kabidiff did not say which ABIs $OLD and $NEW are" >&2; exit 1; }
echo "kabidiff $OLD $NEW: ${old_id%%_*} and ${new_id%%_*} (best of $RUNS runs)"

mkdir "$TMP/cache" "$TMP/cache/packages" "$TMP/cache/debian"
for entry in "$CACHE"/packages/* "$CACHE"/debian/*; do
	ln -s "$entry" "$TMP/cache/${entry#"$CACHE"/}"
done
export KABIDIFF_BENCH_CACHE=$TMP/cache KABIDIFF

# "sh uncached MACHINE OLD NEW": one comparison with no snapshot cached
cat >"$TMP/uncached" <<'EOF'
rm -rf "$KABIDIFF_BENCH_CACHE/snapshots"
KABIDIFF_CACHE=$KABIDIFF_BENCH_CACHE "$KABIDIFF" diff --machine "$1" "$2" "$3"
[ $? -le 1 ]
EOF

# boot_alone IMAGE-ENTRY: collect one kernel's sysfs part on the standard
# machine with its modules, as the comparison does for each side
pkg=$CACHE/packages
old_image=$pkg/$old_id
new_image=$pkg/$new_id
boot_alone() {
	release=$(basename "$1" | sed 's/^linux-image-\(.*\)-unsigned_.*/\1/')
	measure "$RUNS" "$KABIDIFF" collect --image "$1/boot/vmlinuz-$release" \
		--modules "$1/lib/modules/$release" -o "$TMP/boot.json" | cut -d' ' -f1
}
old_boot=$(boot_alone "$old_image")
new_boot=$(boot_alone "$new_image")
slower=$(awk -v a="$old_boot" -v b="$new_boot" 'BEGIN { print (a > b ? a : b) }')

minimal=$(measure "$RUNS" sh "$TMP/uncached" minimal "$OLD" "$NEW" | cut -d' ' -f1)
standard=$(measure "$RUNS" sh "$TMP/uncached" standard "$OLD" "$NEW" | cut -d' ' -f1)
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
