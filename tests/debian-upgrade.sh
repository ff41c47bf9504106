#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make sure the snapshots of Debian's upgrade from 6.1 to 6.12 are in the
# kabidiff cache and print their paths, old then new, one a line on stdout.
# Progress and timings go to stderr.
#
#   set -- $(tests/debian-upgrade.sh) || exit 2
#   build/kabidiff diff "$1" "$2"
#   tests/debian-upgrade.sh --report   # the reports too (see below)
#
# OLD is Debian's newest 6.1 ABI that apt-cache knows (6.1.0-57 when
# this was written): the vmlinux and the vDSO images of
# linux-image-ABI-amd64-dbg, the vmlinuz and modules of -unsigned and the
# tree of linux-source-6.1 (Documentation/ABI and syscall_64.tbl).  NEW is
# the newest 6.12 (6.12.118+deb12): linux-image-ABI-amd64-dbg and
# -unsigned, and linux-source-6.12 at the version of those packages.
# tests/debian-vmlinux.sh and tests/kernel-tree.sh put them into the cache;
# from an empty one that is about 2.2 GB of downloads, 3.2 GB of trees and
# 1 GB of kernels (a minute with a 100 MB/s mirror and 2 cores; the .debs
# are deleted once read, but for the -dbg packages, 1.9 GB, which the
# census reads).  Nothing is installed, except linux-source-6.1
# when /usr/src/linux-source-6.1.tar.xz is missing (as tests/kernel-tree.sh
# does for every 6.1 caller).
#
# Each side is `kabidiff collect --vmlinux V --vdso ... --image I
# --modules M --docs TREE --census DBG.deb` (the standard machine): the
# sysfs part comes from booting the kernel under QEMU (tcg: 6-8 s each on
# 2 cores), the census from reading every module of the -dbg package
# (25-40 s).  The snapshots are
# $CACHE/upgrade/OLD-ABI.json and $CACHE/upgrade/NEW-ABI.json.
# One is reused when it is newer than its packages, vmlinux, vmlinuz and tree, the
# kabidiff binary and the guest agent beside it; otherwise it is collected
# again (kabidiff collect -o writes it atomically); and so it is when this
# script is newer than it.
#
# With --report, also $CACHE/upgrade/report-OLD-ABI-NEW-ABI.txt (kabidiff
# diff --color never) and .json (--format json), made again when older
# than the snapshots or the binary, written to a temporary file and
# renamed (named by the pair: a report newer than both snapshots of
# another pair is not theirs); their paths are printed after the
# snapshots', and the summary line and the breaks by kind and level go to
# stderr.
#
# Environment:
#   KABIDIFF        the kabidiff binary (default build/kabidiff of this
#                   tree: run make first)
#   KABIDIFF_CACHE  the cache (default $HOME/.cache/kabidiff)
#
# Exit status: 0 done (whatever the diff found), 2 trouble.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
KABIDIFF=${KABIDIFF:-$TOP/build/kabidiff}
. "$(dirname "$0")/cache-lib.sh"
OUT=$CACHE/upgrade

report=
case ${1-} in
'') ;;
--report) report=1; shift ;;
-h | --help) usage 0 ;;
*) say "unknown argument: $1"; usage 2 ;;
esac
[ $# -eq 0 ] || usage 2

[ -x "$KABIDIFF" ] || die "no $KABIDIFF: run make (or set KABIDIFF)"
# the newest of each series, as kabidiff debian:6.1 and debian:6.12 choose
OLD_ABI=$(series_abi 6.1)
NEW_ABI=$(series_abi 6.12)
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
AGENT=$(dirname "$KABIDIFF")/kabi-agent-static
[ -f "$AGENT" ] || AGENT=

# The version of the package linux-image-ABI-amd64-unsigned, from
# apt-cache (apt-get update is run, through sudo when not root, if it does
# not know the package).
image_version() {
	pkg=linux-image-$1-amd64-unsigned
	v=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p')
	if [ -z "$v" ]; then
		say "apt-cache knows no $pkg: running apt-get update"
		if [ "$(id -u)" -eq 0 ]; then
			apt-get update >&2
		else
			command -v sudo >/dev/null || die "not root and no sudo: run apt-get update by hand"
			sudo apt-get update >&2
		fi || die "apt-get update failed"
		v=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p')
		[ -n "$v" ] || die "no $pkg in the apt sources"
	fi
	printf '%s\n' "$v"
}

# fresh FILE INPUT...: FILE exists and no INPUT is newer than it
fresh() {
	f=$1
	shift
	[ -s "$f" ] || return 1
	for input; do
		[ -n "$input" ] || continue
		[ -z "$(find "$input" -newer "$f")" ] || return 1
	done
}

# fetch ABI SERIES [VERSION]: set vmlinux, image and tree for one side; the
# tree of linux-source-SERIES at VERSION, or at the version
# tests/kernel-tree.sh picks when there is none.
fetch() {
	start=$(date +%s)
	# the -dbg package first, kept for the census; then --vdso: one
	# pass over it takes the vmlinux too
	if ! dbg=$(KABIDIFF_DEBIAN_ABI=$1 "$TOP/tests/debian-vmlinux.sh" --dbg-deb) ||
		! vdso=$(KABIDIFF_KEEP_DEB=1 KABIDIFF_DEBIAN_ABI=$1 "$TOP/tests/debian-vmlinux.sh" --vdso) ||
		! vmlinux=$(KABIDIFF_KEEP_DEB=1 KABIDIFF_DEBIAN_ABI=$1 "$TOP/tests/debian-vmlinux.sh") ||
		! modules=$(KABIDIFF_DEBIAN_ABI=$1 "$TOP/tests/debian-vmlinux.sh" --modules) ||
		! image=$(KABIDIFF_DEBIAN_ABI=$1 "$TOP/tests/debian-vmlinux.sh" --image); then
		die "could not fetch Debian's $1 kernel (tests/debian-vmlinux.sh)"
	fi
	if [ -n "${3-}" ]; then
		tree=$(KABIDIFF_SOURCE_VERSION=$3 "$TOP/tests/kernel-tree.sh" "$2")
	else
		tree=$(env -u KABIDIFF_SOURCE_VERSION "$TOP/tests/kernel-tree.sh" "$2")
	fi || die "could not unpack linux-source-$2 (tests/kernel-tree.sh $2)"
	say "$1: inputs ready in $(($(date +%s) - start)) s"
}

# collect ABI: the snapshot of the side fetch() just set up
collect() {
	snap=$OUT/$1.json
	# this script too: how a side is collected may have changed
	if fresh "$snap" "$0" "$dbg" "$vmlinux" "$vdso" "$image" "$modules" "$tree/.kabidiff-unpacked" "$KABIDIFF" "$AGENT"; then
		say "$1: $snap is up to date"
		return
	fi
	say "$1: collecting $snap (vmlinux, boot under QEMU, docs, census)"
	start=$(date +%s)
	"$KABIDIFF" collect --vmlinux "$vmlinux" --vdso "$vdso/vdso64.so" \
		--vdso "$vdso/vdso32.so" --vdso "$vdso/vdsox32.so" \
		--image "$image" --modules "$modules" --docs "$tree" \
		--census "$dbg" \
		-o "$snap" || die "kabidiff collect failed for $1"
	say "$1: collected in $(($(date +%s) - start)) s"
}

begin=$(date +%s)
mkdir -p "$OUT"

# OLD: the tree every 6.1 test shares, not pinned (pinning it would
# unpack it again for them); say so if it is not the kernel's version.
old_version=$(image_version "$OLD_ABI")
fetch "$OLD_ABI" 6.1
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) || src_version=
[ "$src_version" = "$old_version" ] ||
	say "warning: linux-source-6.1 is ${src_version:-not installed}, linux-image-$OLD_ABI-amd64 $old_version: the docs are not the kernel's"
collect "$OLD_ABI"
old_snap=$snap

# NEW: the source at the kernel's version
new_version=$(image_version "$NEW_ABI")
fetch "$NEW_ABI" 6.12 "$new_version"
collect "$NEW_ABI"
new_snap=$snap

printf '%s\n%s\n' "$old_snap" "$new_snap"

if [ -n "$report" ]; then
	# The temporary file is made by the shell, with the mode the umask
	# gives (mktemp's would be 0600 for everybody), named by this run's pid.
	tmp=
	trap 'rm -f "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	# make_report FILE DIFF-OPTION...: kabidiff diff into FILE (exit 1,
	# a break, is what this pair gives)
	make_report() {
		f=$1
		shift
		if fresh "$f" "$old_snap" "$new_snap" "$KABIDIFF"; then
			say "$f is up to date"
		else
			tmp=$OUT/.${f##*/}.tmp.$$
			status=0
			"$KABIDIFF" diff "$@" "$old_snap" "$new_snap" >"$tmp" || status=$?
			[ "$status" -le 1 ] || die "kabidiff diff $* failed (exit $status)"
			mv -f "$tmp" "$f"
		fi
		printf '%s\n' "$f"
	}
	pair=$OUT/report-$OLD_ABI-$NEW_ABI
	make_report "$pair.txt" --color=never
	make_report "$pair.json" --format json
	say "summary: $(tail -n 1 "$pair.txt")"
	python3 - "$pair.json" >&2 <<'PY' || say "could not count the breaks of $pair.json"
import collections, json, sys
r = json.load(open(sys.argv[1]))
breaks = collections.Counter((f["kind"], f["level"]) for f in r["findings"]
                             if f["verdict"] == "break" and not f["waiver"])
print(f"breaks by kind and level ({sum(breaks.values())}):")
for (kind, level), n in sorted(breaks.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"  {n:6d}  {kind:24s} {level}")
PY
fi
say "done in $(($(date +%s) - begin)) s"
