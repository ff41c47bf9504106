#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make sure Debian's linux-source-SERIES tree (6.1 by default, or 6.12) is
# unpacked in the kabidiff cache and print its path (alone, on stdout).
# Progress goes to stderr.
#
#   tree=$(tests/kernel-tree.sh) || exit 2         # linux-source-6.1
#   tree=$(tests/kernel-tree.sh 6.12) || exit 2    # linux-source-6.12
#
# The cache is ${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}; the tree goes to
# $CACHE/linux-source-SERIES, whole (6.1: about 1.5 GB, 6.12: 1.7 GB).
#
# Where the tarball comes from:
#  - /usr/src/linux-source-SERIES.tar.xz, when the package is installed
#    (at the version asked for, if one is);
#  - for 6.1 without KABIDIFF_SOURCE_VERSION, the linux-source-6.1 package
#    is installed with apt-get (through sudo when not root), as before:
#    kernel-patches/ reads /usr/src/linux-source-6.1.tar.xz too;
#  - otherwise the package is fetched with `apt-get download` into the
#    cache (6.12: a 154 MB .deb) and the tarball read out of it; nothing is
#    installed.  apt-get update is run (through sudo when not root) if
#    apt-cache does not know the package or the version.
#
# Environment:
#   KABIDIFF_SOURCE_VERSION=6.12.118-1~deb12u1  the package version wanted;
#                       by default the installed one, else the candidate
#                       apt-cache knows.
#
# The tarball is unpacked into a temporary directory inside the cache and
# renamed into place only once complete, with a marker file naming the
# tarball (or the downloaded version) it came from.  A tree without that
# marker (an interrupted run, or a partial extraction such as scripts/
# alone) or with a marker for another tarball or version is unpacked again;
# the old directory is moved aside, then removed.  A run killed outright
# (kill -9, power loss) leaves its temporary directory, which a later run
# removes once the process that made it is gone.  Two runs at the same
# time are safe but do the work twice.

set -eu

. "$(dirname "$0")/cache-lib.sh"
MARKER=.kabidiff-unpacked

SERIES=6.1
case ${1-} in
'') ;;
-h | --help) usage 0 ;;
-*) say "unknown option: $1"; usage 2 ;;
*) SERIES=$1; shift ;;
esac
[ $# -eq 0 ] || usage 2
case $SERIES in
*[!0-9.]*) series_ok= ;;
*) series_ok=$(printf '%s\n' "$SERIES" | grep -Ex '[0-9]+\.[0-9]+') || series_ok= ;;
esac
[ -n "$series_ok" ] || die "SERIES must look like 6.1 or 6.12, not '$SERIES'"

PACKAGE=linux-source-$SERIES
TARBALL=/usr/src/$PACKAGE.tar.xz
TREE=$CACHE/$PACKAGE
WANT=${KABIDIFF_SOURCE_VERSION-}
case $WANT in
*[!0-9A-Za-z.+~:-]*) die "KABIDIFF_SOURCE_VERSION is not a Debian version: '$WANT'" ;;
esac

# Remove temporary directories of runs that died without cleaning up
# (up to 1.7 GB each).  Their names carry the pid that made them.
sweep() {
	for old in "$CACHE/.$PACKAGE.tmp."*; do
		[ -d "$old" ] || continue
		pid=${old##*/."$PACKAGE".tmp.}
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

# The version of the installed package, or nothing.
installed_version() {
	dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null || :
}

# What the marker holds: the tarball's identity (size and mtime) and the
# package version, so an upgraded package gets a fresh tree.
stamp() {
	version=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null) || version=unknown
	printf '%s %s\n' "$(stat -c '%s %Y' "$TARBALL")" "$version"
}

# The version to download: $WANT if apt-cache knows it, else the candidate.
download_version() {
	if [ -n "$WANT" ]; then
		# (apt-cache show PACKAGE=VERSION exits 0 for a version it
		# does not know)
		apt-cache madison "$PACKAGE" 2>/dev/null | awk -F '|' -v want="$WANT" '
			{ gsub(/^ +| +$/, "", $2) }
			$2 == want { print want; exit }'
	else
		apt-cache policy "$PACKAGE" 2>/dev/null |
			sed -n 's/^ *Candidate: \([^(].*\)/\1/p'
	fi
}

if [ -f "$TARBALL" ] && { [ -z "$WANT" ] || [ "$(installed_version)" = "$WANT" ]; }; then
	from=installed
elif [ "$SERIES" = 6.1 ] && [ -z "$WANT" ]; then
	say "$TARBALL is missing: installing $PACKAGE"
	as_root apt-get update >&2 || die "apt-get update failed"
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "$PACKAGE" >&2 ||
		die "apt-get install $PACKAGE failed"
	[ -f "$TARBALL" ] || die "$PACKAGE is installed but $TARBALL is still missing"
	from=installed
else
	from=download
	VERSION=$(download_version) || VERSION=
	if [ -z "$VERSION" ]; then
		say "apt-cache knows no $PACKAGE${WANT:+ $WANT}: running apt-get update"
		as_root apt-get update >&2 || die "apt-get update failed"
		VERSION=$(download_version) || VERSION=
		[ -n "$VERSION" ] || die "no $PACKAGE${WANT:+ $WANT} in the apt sources"
	fi
fi

if [ "$from" = installed ]; then
	want=$(stamp)
else
	want="apt-get download $PACKAGE=$VERSION"
fi
if [ -f "$TREE/$MARKER" ] && [ "$(cat "$TREE/$MARKER")" = "$want" ]; then
	printf '%s\n' "$TREE"
	exit 0
fi

if [ -e "$TREE" ]; then
	say "$TREE is incomplete or stale: unpacking it again"
fi

mkdir -p "$CACHE"
sweep
tmp=$(mktemp -d "$CACHE/.$PACKAGE.tmp.$$.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$from" = download ]; then
	# As in debian-vmlinux.sh: apt-get download writes into the current
	# directory, and as root apt's _apt user could not enter a cache
	# under /root.
	sandbox=
	[ "$(id -u)" -ne 0 ] || sandbox='-o APT::Sandbox::User=root'
	say "downloading $PACKAGE $VERSION"
	start=$(date +%s)
	mkdir "$tmp/deb"
	# shellcheck disable=SC2086
	(cd "$tmp/deb" && apt-get download $sandbox -q "$PACKAGE=$VERSION" >&2) ||
		die "apt-get download $PACKAGE=$VERSION failed"
	deb=
	for f in "$tmp/deb/${PACKAGE}_"*.deb; do
		[ -f "$f" ] && deb=$f
	done
	[ -n "$deb" ] || die "apt-get download $PACKAGE left no .deb"
	say "downloaded $(($(stat -c %s "$deb") / 1000000)) MB in $(($(date +%s) - start)) s"
	# The tarball is the package's one big member; tar's status says
	# whether it came out whole (and xz checks it again below).
	TARBALL=$tmp/deb/$PACKAGE.tar.xz
	if ! dpkg-deb --fsys-tarfile "$deb" 2>"$tmp/dpkg-deb.err" |
		tar -x -O --occurrence=1 "./usr/src/$PACKAGE.tar.xz" >"$TARBALL"; then
		cat "$tmp/dpkg-deb.err" >&2
		die "could not extract ./usr/src/$PACKAGE.tar.xz from $deb"
	fi
	rm -f "$deb"
	say "unpacking $PACKAGE $VERSION into $CACHE"
else
	say "unpacking $TARBALL into $CACHE (about a minute)"
fi
start=$(date +%s)
# xz -T0 decompresses the tarball's blocks in parallel; GNU tar reports a
# failure of the decompressor, which a plain pipe in sh would hide.
tar --use-compress-program='xz -T0' -xf "$TARBALL" -C "$tmp" ||
	die "could not unpack $TARBALL"
if [ ! -f "$tmp/$PACKAGE/Makefile" ] || [ ! -d "$tmp/$PACKAGE/Documentation/ABI" ]; then
	die "$TARBALL does not hold a $PACKAGE/ kernel tree"
fi
[ "$from" = installed ] || rm -rf "$tmp/deb"
printf '%s\n' "$want" >"$tmp/$PACKAGE/$MARKER"

# Rename into place: the final name only ever holds a complete tree (or,
# for a moment, nothing).
if [ -e "$TREE" ]; then
	mv "$TREE" "$tmp/old"
fi
mv "$tmp/$PACKAGE" "$TREE"
say "unpacked in $(($(date +%s) - start)) s"

printf '%s\n' "$TREE"
