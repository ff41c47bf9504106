#!/bin/sh
# Debian's packages as kabidiff's inputs, on the real upgrade (the newest
# ABIs of 6.1 and 6.12, 6.1.0-57 and 6.12.118+deb12 when this was
# written): collect --deb of OLD's three packages (-unsigned, -dbg,
# linux-source-6.1 at the image's version) gives byte for byte the
# snapshot tests/debian-upgrade.sh collects from the same packages
# unpacked by dpkg-deb and tar; and 'kabidiff debian:6.1 debian:6.12',
# which chooses the same ABIs and fetches what the cache lacks with
# apt-get download, prints the report of those by-hand snapshots, byte
# for byte; a second time it is served by the snapshot cache, and so is a
# kabidiff of another build id from the same collecting sources, and a
# directory holding OLD's .deb files in its place.  Downloads about 2.3 GB
# into the cache unless it has the packages (packages/).
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
sides=$(KABIDIFF=$KABIDIFF "$TOP/tests/debian-upgrade.sh" --report) || {
	missing_input "could not collect the upgrade pair (tests/debian-upgrade.sh)"
}
set -- $sides
OLD_SNAP=$1 REPORT=$3
OLD=$(basename "$1" .json) NEW=$(basename "$2" .json)
echo "# the upgrade pair here: $OLD -> $NEW"

# The three packages of OLD, as apt-get download names them.
V=$(apt-cache show --no-all-versions "linux-image-$OLD-amd64-unsigned" |
    sed -n 's/^Version: //p')
mkdir "$TMP/debs"
sandbox=
[ "$(id -u)" -ne 0 ] || sandbox='-o APT::Sandbox::User=root'
# shellcheck disable=SC2086
(cd "$TMP/debs" && apt-get download -qq $sandbox "linux-image-$OLD-amd64-unsigned" \
	"linux-image-$OLD-amd64-dbg" "linux-source-6.1=$V") >&2 || {
	missing_input "apt-get download of $OLD's packages ($V) failed"
}

run_kabidiff collect -o "$TMP/deb.json" \
	--deb "$TMP/debs/linux-image-$OLD-amd64-unsigned_${V}_amd64.deb" \
	--deb "$TMP/debs/linux-image-$OLD-amd64-dbg_${V}_amd64.deb" \
	--deb "$TMP/debs/linux-source-6.1_${V}_all.deb"
is "$status" 0 "collect --deb of $OLD's -unsigned, -dbg and linux-source-6.1 $V"
if cmp -s "$TMP/deb.json" "$OLD_SNAP"; then
	pass "its snapshot is byte-identical to the one of the by-hand collection"
else
	fail "its snapshot is byte-identical to the one of the by-hand collection" \
	     "$(diff "$OLD_SNAP" "$TMP/deb.json" | head -n 20)"
fi
KABIDIFF_VERBOSE=1 run_kabidiff debian:6.1 debian:6.12
is "$status" 1 "kabidiff debian:6.1 debian:6.12: exit 1, for the true breaks"
# (sorted: when both are collected, each side's process says it, in the
# order they get to it)
is "$(printf '%s\n' "$err" | sed -n 's/^kabidiff: \(debian:[0-9.]*\): \([^,]*\), the newest .*/\1 \2/p' | sort)" \
   "debian:6.1 $OLD-amd64
debian:6.12 $NEW-amd64" \
   "it says which ABIs it chose: those of the by-hand snapshots"
# A debian: side's linux-source package is a tree at hand: its MAINTAINERS
# says whom to notify too, so the by-hand snapshots are judged with it.
# The reports' headers name what each side was given as: the rest is the
# same.
# (the linux-source-6.12 of the image's version: the cache may hold other
# 6.12 sources, of other ABIs compared before)
NEW_V=$(apt-cache show --no-all-versions "linux-image-$NEW-amd64-unsigned" |
	sed -n 's/^Version: //p')
MAINTAINERS=${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}/packages/linux-source-6.12_${NEW_V}_all+2/linux-source-6.12/MAINTAINERS
"$KABIDIFF" diff --color=never --maintainers "$MAINTAINERS" "$1" "$2" 2>/dev/null |
	sed '/^  \(old\|new\|rules\): /d' >"$TMP/by-hand.txt"
REPORT=$TMP/by-hand.txt
is "$(printf '%s\n' "$out" | sed -n 2,4p | sed 's/^\(  [a-z]*: *\).*\(, from .*\)$/\1...\2/')" \
   "  old:   ..., from debian:6.1
  new:   ..., from debian:6.12
  rules: policy default, waivers none, MAINTAINERS $MAINTAINERS" \
   "the header names the sides as given, and the MAINTAINERS of NEW's linux-source"
DBG_ENTRY=${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}/packages/linux-image-$NEW-amd64-dbg_${NEW_V}_amd64
is "$(stat -c %F "$DBG_ENTRY/package.deb" 2>&1)" "regular file" \
   "the cache keeps NEW's -dbg package whole, for the census"
has "$out" "compared: sysfs, syscalls, vdso, types, docs, census" \
   "the debian: sides have the census of their -dbg packages"
drop_details >"$TMP/report.txt"
if cmp -s "$TMP/report.txt" "$REPORT"; then
	pass "its report is byte-identical to the one of the by-hand snapshots"
else
	fail "its report is byte-identical to the one of the by-hand snapshots" \
	     "$(diff "$REPORT" "$TMP/report.txt" | head -n 20)"
fi
is "$(tail -n 1 "$TMP/report.txt")" "$(tail -n 1 "$REPORT")" "the same summary line"

# from_cache NAME OLD NEW: both snapshots come from the snapshot cache, and
# the report is the by-hand one
from_cache() {
	name=$1
	shift
	KABIDIFF_VERBOSE=1 run_kabidiff "$@"
	cached=$(printf '%s\n' "$err" | grep -c 'the snapshot of the same packages')
	is "$status:$cached" "1:2" "$name: both snapshots from the snapshot cache"
	if drop_details | cmp -s - "$REPORT"; then
		pass "$name: the same report"
	else
		fail "$name: the same report"
	fi
}
from_cache "a second time" debian:6.1 debian:6.12
# A kabidiff built anew from the same collecting sources has another build
# id (here stripped of it) but collects the same: the snapshots stay
# (its agent is the build's, named as the tests' install would)
objcopy --remove-section=.note.gnu.build-id "$KABIDIFF" "$TMP/kabidiff"
built=$KABIDIFF
KABIDIFF=$TMP/kabidiff
KABIDIFF_AGENT=$TOP/build/kabi-agent-static
export KABIDIFF_AGENT
from_cache "a kabidiff of another build id, from the same collectors" \
	debian:6.1 debian:6.12
KABIDIFF=$built
# The directory of OLD's .deb files is the same kernel: its packages are
# in the cache, and so is the snapshot of them; debian:ABI is too.
from_cache "the directory of its .deb files as OLD" "$TMP/debs" "debian:$NEW"

done_testing
