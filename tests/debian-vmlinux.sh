#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make sure a Debian 6.1 or 6.12 kernel is in the kabidiff cache and print
# the path of one file from it (alone, on stdout).  Progress goes to stderr.
#
#   vmlinux=$(tests/debian-vmlinux.sh) || exit 2          # ELF with DWARF
#   vdso=$(tests/debian-vmlinux.sh --vdso) || exit 2      # vDSO images
#   modules=$(tests/debian-vmlinux.sh --modules) || exit 2  # lib/modules/R
#   bzimage=$(tests/debian-vmlinux.sh --image) || exit 2  # bootable bzImage
#   dbg=$(tests/debian-vmlinux.sh --dbg-deb) || exit 2    # the -dbg .deb
#
# Without arguments: linux-image-$ABI-amd64-dbg, member
# ./usr/lib/debug/boot/vmlinux-$ABI-amd64 (6.1: about 630 MB, the .deb is
# 855 MB; 6.12: about 355 MB, the .deb is 1034 MB).
# With --vdso: from the same package, the vDSO images with DWARF,
# ./usr/lib/debug/lib/modules/$ABI-amd64/vdso/vdso64.so, vdso32.so and
# vdsox32.so, into the directory vdso-$ABI-amd64 whose path it prints (a
# few hundred KB, but the last members of the package: tar reads all of
# it, a minute or so), and the vmlinux in the same pass when it is not
# there yet.  With --modules: from the -unsigned package, its
# ./lib/modules/$ABI-amd64/ (4,023 plain .ko in 6.1.0-57, 4,230 .ko.xz in
# 6.12.118, with modules.order and modules.builtin) into the directory
# modules-$ABI-amd64 whose path it prints, and the vmlinuz likewise.
# With --dbg-deb: the -dbg package itself, kept in $CACHE/debian/ as
# apt-get named it, for kabidiff collect --census (which reads every
# module's DWARF out of it).
# With --image: linux-image-$ABI-amd64-unsigned, member
# ./boot/vmlinuz-$ABI-amd64 (6.1: about 8 MB, the .deb is 70 MB; 6.12:
# about 12 MB, the .deb is 107 MB).
#
# The cache is ${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}; files go to
# $CACHE/debian/, named as in the package (vmlinux-6.1.0-57-amd64,
# vmlinux-6.12.118+deb12-amd64, ...).
#
# Environment:
#   KABIDIFF_DEBIAN_ABI=6.12      the kernel to fetch: a series (6.1,
#                                 6.12) for its newest amd64 ABI that
#                                 apt-cache knows (apt-get update is run,
#                                 through sudo when not root, if it knows
#                                 none), by default 6.1; or an ABI in
#                                 either of Debian's name forms, 6.1.0-N
#                                 (bookworm's 6.1) or 6.12.N+deb12 (6.12
#                                 from bookworm's security archive), which
#                                 the archive drops after a few updates.
#   KABIDIFF_KEEP_DEB=1           keep the .deb in $CACHE/debian/ (a kept one
#                                 is used instead of downloading again, and
#                                 removed by a later run without this).
#
# Nothing is installed: the package is fetched with `apt-get download` into
# a temporary directory inside the cache, the one member is extracted into a
# temporary file there, checked (a complete ELF, or a bzImage), and renamed
# into place.  The final name only ever holds a complete file; an
# interrupted run leaves at most a temporary directory, which a later run
# removes once the process that made it is gone.  Two runs at the same time
# are safe but do the work twice.

set -eu

. "$(dirname "$0")/cache-lib.sh"
DIR=$CACHE/debian

# elf_complete FILE: an ELF file whose section header table lies inside it
# (the table is the last thing the linker writes, so a truncated file fails).
elf_complete() {
	LC_ALL=C readelf -h "$1" 2>/dev/null | awk -v size="$(stat -c %s "$1")" '
		/^ *Class:/				{ class = $2 }
		/^ *Start of section headers:/		{ shoff = $5 }
		/^ *Size of section headers:/		{ shentsize = $5 }
		/^ *Number of section headers:/		{ shnum = $5 }
		END {
			if (class != "ELF64" || shnum == "" || shnum + 0 == 0) exit 1
			exit !(shoff + shentsize * shnum <= size)
		}'
}

# bzimage_ok FILE: the "HdrS" magic of the x86 boot protocol at 0x202.
bzimage_ok() {
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ]
}

# Remove temporary directories of runs that died without cleaning up
# (kill -9, power loss).  Their names carry the pid that made them.
sweep() {
	for old in "$DIR"/.tmp.*; do
		[ -d "$old" ] || continue
		pid=${old##*/.tmp.}
		pid=${pid%%.*}
		case $pid in
		'' | *[!0-9]*) continue ;;
		esac
		if ! kill -0 "$pid" 2>/dev/null && [ "$pid" != $$ ]; then
			say "removing $old, left by an interrupted run"
			rm -rf "$old"
		fi
	done
}

what=vmlinux
case ${1-} in
'') ;;
--image) what=image; shift ;;
--vdso) what=vdso; shift ;;
--modules) what=modules; shift ;;
--dbg-deb) what=deb; shift ;;
-h | --help) usage 0 ;;
*) say "unknown argument: $1"; usage 2 ;;
esac
[ $# -eq 0 ] || usage 2

ABI=${KABIDIFF_DEBIAN_ABI:-6.1}
# A series (6.1), or 6.1.0-57 (the ABI number after the dash) or
# 6.12.118+deb12 (the upstream version and the suite).  The case rejects a
# newline, which grep -x would let through as two lines.
case $ABI in
*[!0-9a-z.+-]*) abi_ok= ;;
*) abi_ok=$(printf '%s\n' "$ABI" |
	grep -Ex '[0-9]+\.[0-9]+(\.[0-9]+(-[0-9]+|\+deb[0-9]+))?') || abi_ok= ;;
esac
[ -n "$abi_ok" ] ||
	die "KABIDIFF_DEBIAN_ABI must be a series such as 6.1 or 6.12, or an ABI such as 6.1.0-57 or 6.12.118+deb12, not '$ABI'"
case $ABI in
*.*.*) ;;
*) ABI=$(series_abi "$ABI") ;;
esac

# What to take: MEMBER, the one file, and with --vdso or --modules EXTRA,
# more members, which go into EXTRA_DIR.  The extra members come last in
# their package, so taking them reads all of it; MEMBER comes along in
# the same pass when it is not in the cache yet.
EXTRA=
EXTRA_DIR=
case $what in
image | modules)
	PACKAGE=linux-image-$ABI-amd64-unsigned
	MEMBER=./boot/vmlinuz-$ABI-amd64
	;;
*)
	PACKAGE=linux-image-$ABI-amd64-dbg
	MEMBER=./usr/lib/debug/boot/vmlinux-$ABI-amd64
	;;
esac
case $what in
vdso)
	for f in vdso64.so vdso32.so vdsox32.so; do
		EXTRA="$EXTRA ./usr/lib/debug/lib/modules/$ABI-amd64/vdso/$f"
	done
	EXTRA_DIR=$DIR/vdso-$ABI-amd64
	;;
modules)
	EXTRA=./lib/modules/$ABI-amd64/
	EXTRA_DIR=$DIR/modules-$ABI-amd64
	;;
esac
FINAL=$DIR/${MEMBER##*/}

# print_result: the path asked for
print_result() {
	printf '%s\n' "${EXTRA_DIR:-$FINAL}"
}

kept_deb() {
	for kept in "$DIR/${PACKAGE}_"*_amd64.deb; do
		[ -f "$kept" ] && printf '%s\n' "$kept"
	done | tail -n 1
}

if [ "$what" = deb ] && [ -n "$(kept_deb)" ]; then
	kept_deb
	exit 0
fi
if [ "$what" != deb ] && { { [ -n "$EXTRA_DIR" ] && [ -d "$EXTRA_DIR" ]; } ||
	{ [ -z "$EXTRA_DIR" ] && [ -s "$FINAL" ]; }; }; then
	print_result
	exit 0
fi
WANT_MEMBER=1
[ -z "$EXTRA" ] || [ ! -s "$FINAL" ] || WANT_MEMBER=

mkdir -p "$DIR"
sweep
tmp=$(mktemp -d "$DIR/.tmp.$$.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A .deb kept by an earlier run with KABIDIFF_KEEP_DEB=1 (apt-get download
# checked its hash then; the rename below only ever exposes whole files).
deb=$(kept_deb)

if [ -n "$deb" ]; then
	say "using $deb"
else
	# apt-get download writes into the current directory.  As root, apt
	# drops to the _apt user for the download, who cannot enter a cache
	# under /root; stay root instead of a warning and an unsandboxed
	# fallback.
	sandbox=
	[ "$(id -u)" -ne 0 ] || sandbox='-o APT::Sandbox::User=root'
	say "downloading $PACKAGE"
	start=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$tmp" && apt-get download $sandbox -q "$PACKAGE" >&2) ||
		die "apt-get download $PACKAGE failed (try apt-get update, or another KABIDIFF_DEBIAN_ABI)"
	for f in "$tmp/${PACKAGE}_"*.deb; do
		[ -f "$f" ] && deb=$f
	done
	[ -n "$deb" ] || die "apt-get download $PACKAGE left no .deb"
	say "downloaded $(($(stat -c %s "$deb") / 1000000)) MB in $(($(date +%s) - start)) s"
fi

if [ "$what" = deb ]; then
	[ "$(dpkg-deb --field "$deb" Package 2>/dev/null)" = "$PACKAGE" ] ||
		die "$deb is not a $PACKAGE package"
	mv -f "$deb" "$DIR/"
	printf '%s\n' "$DIR/${deb##*/}"
	exit 0
fi

# tar stops once it has every member (--occurrence=1), so dpkg-deb, still
# writing, gets SIGPIPE and complains: its stderr is shown only when the
# extraction fails.  tar's status says whether the members were whole.
what_out="${WANT_MEMBER:+ $MEMBER}${EXTRA:+${WANT_MEMBER:+ and} ${EXTRA# }}"
say "extracting$what_out"
start=$(date +%s)
out=$tmp/${FINAL##*/}
mkdir "$tmp/x"
# A directory's members follow it, so tar cannot stop at a directory.
occurrence=--occurrence=1
[ "$what" != modules ] || occurrence=
# shellcheck disable=SC2086
if ! dpkg-deb --fsys-tarfile "$deb" 2>"$tmp/dpkg-deb.err" |
	tar -x -C "$tmp/x" $occurrence ${WANT_MEMBER:+"$MEMBER"} $EXTRA ||
	{ [ -n "$WANT_MEMBER" ] && ! mv "$tmp/x/$MEMBER" "$out"; }; then
	cat "$tmp/dpkg-deb.err" >&2
	case $deb in
	"$tmp"/*) ;;
	*) rm -f "$deb"; say "removed $deb: the next run downloads it again" ;;
	esac
	die "could not extract$what_out from $deb"
fi
if [ -z "$WANT_MEMBER" ]; then
	size=0
elif [ "$PACKAGE" = "linux-image-$ABI-amd64-dbg" ]; then
	size=$(stat -c %s "$out")
	[ "$size" -gt 100000000 ] || die "$MEMBER is only $size bytes"
	elf_complete "$out" || die "$MEMBER is not a complete ELF64 file"
	LC_ALL=C readelf -S -W "$out" 2>/dev/null | grep -q ' \.debug_info ' ||
		die "$MEMBER has no .debug_info"
else
	size=$(stat -c %s "$out")
	[ "$size" -gt 1000000 ] || die "$MEMBER is only $size bytes"
	bzimage_ok "$out" || die "$MEMBER is not a bzImage"
fi
case $what in
vdso)
	mkdir "$tmp/extra"
	for f in $EXTRA; do
		LC_ALL=C readelf -S -W "$tmp/x/$f" 2>/dev/null | grep -q ' \.debug_info ' ||
			die "$f is not an ELF file with DWARF"
		mv "$tmp/x/$f" "$tmp/extra/"
	done
	;;
modules)
	[ -s "$tmp/x/${EXTRA}modules.order" ] ||
		die "$PACKAGE has no ${EXTRA}modules.order"
	mv "$tmp/x/$EXTRA" "$tmp/extra"
	;;
esac
if [ -n "$EXTRA_DIR" ]; then
	rm -rf "$EXTRA_DIR"
	mv "$tmp/extra" "$EXTRA_DIR"
fi
say "extracted in $(($(date +%s) - start)) s${WANT_MEMBER:+: $((size / 1000000)) MB}"

[ -z "$WANT_MEMBER" ] || mv -f "$out" "$FINAL"
if [ "${KABIDIFF_KEEP_DEB-}" = 1 ]; then
	case $deb in
	"$tmp"/*) mv -f "$deb" "$DIR/" && say "kept $DIR/${deb##*/}" ;;
	esac
else
	# One downloaded into $tmp goes with it; one kept earlier goes now.
	rm -f "$deb"
fi

print_result
