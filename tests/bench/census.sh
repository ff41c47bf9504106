#!/bin/sh
# make bench, census part: 'kabidiff collect --census' of a Debian -dbg
# package (the 6.1 one vmlinux.sh reads, 859 MB; KABIDIFF_DEBIAN_ABI=6.12
# for 6.12's, 1034 MB), read as a stream out of the .deb, against
# 'dpkg-deb --fsys-tarfile' of the same package to /dev/null, the floor (a
# census decompresses all of the package, as it does), and against pahole
# on the package's vmlinux, measured in this run (the census and dpkg-deb
# taking turns, RUNS of each).  The target is 1.5 times dpkg-deb's time.
# The census reads nothing of the cache: its runs get a KABIDIFF_CACHE
# that does not exist, and the bench fails if one made it.
#
# The package and its vmlinux come through tests/debian-vmlinux.sh
# (--dbg-deb keeps the .deb in the cache, as the upgrade tests do):
# downloaded and extracted once, then reused.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"

DEB=$("$TOP/tests/debian-vmlinux.sh" --dbg-deb)
VMLINUX=$(KABIDIFF_KEEP_DEB=1 "$TOP/tests/debian-vmlinux.sh")

# The census and its floor take turns, run for run, so that a load on the
# machine that comes or goes weighs on both: "best WALL PEAK" of each.
census= floor=
i=0
while [ "$i" -lt "$RUNS" ]; do
	census="$census $(measure 1 env KABIDIFF_CACHE="$TMP/cache" "$KABIDIFF" \
		collect --census "$DEB" -o "$TMP/census.json")"
	floor="$floor $(measure 1 dpkg-deb --fsys-tarfile "$DEB")"
	i=$((i + 1))
done
best() {
	echo "$@" | awk '{ for (i = 1; i < NF; i += 2) {
		if (i == 1 || $i < w) w = $i
		if ($(i + 1) > m) m = $(i + 1) }
		print w, m }'
}
# shellcheck disable=SC2086
set -- $(best $census) $(best $floor) $(measure 1 pahole -F dwarf --sizes "$VMLINUX")
[ ! -e "$TMP/cache" ] ||
	{ echo "bench: kabidiff collect --census made a cache ($TMP/cache)" >&2; exit 1; }
echo "kabidiff collect --census vs dpkg-deb --fsys-tarfile and pahole on ${DEB##*/} (best of $RUNS turns each / 1 run)"
printf '%-36s %9s %10s %16s\n' "tool" "wall" "peak" "kabidiff's share"
awk -v kw="$1" -v km="$2" -v dw="$3" -v dm="$4" -v pw="$5" -v pm="$6" 'BEGIN {
	printf "%-36s %7.2f s %7.1f MB\n", "kabidiff collect --census", kw, km / 1024
	printf "%-36s %7.2f s %7.1f MB %6.3f wall (target 1.5: %s)\n",
	       "dpkg-deb --fsys-tarfile >/dev/null", dw, dm / 1024, kw / dw,
	       kw <= 1.5 * dw ? "met" : "missed"
	printf "%-36s %7.2f s %7.1f MB %6.3f wall, %5.3f memory\n",
	       "pahole -F dwarf --sizes (vmlinux)", pw, pm / 1024, kw / pw, km / pm }'
