#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make sure Debian's linux-source-6.1 tree is unpacked in the kabidiff cache
# and print its path (alone, on stdout).  Progress goes to stderr.
#
#   tree=$(tests/kernel-tree.sh) || exit 2
#
# The cache is ${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}; the tree goes to
# $CACHE/linux-source-6.1.  If /usr/src/linux-source-6.1.tar.xz is missing,
# the linux-source-6.1 package is installed with apt-get (through sudo when
# not root).
#
# The tarball is unpacked into a temporary directory inside the cache and
# renamed into place only once complete, with a marker file naming the
# tarball it came from.  A tree without that marker (an interrupted run, or
# a partial extraction such as scripts/ alone) or with a marker for another
# tarball is unpacked again; the old directory is moved aside, then removed.
# Two runs at the same time are safe but do the work twice.

set -eu

PACKAGE=linux-source-6.1
TARBALL=/usr/src/$PACKAGE.tar.xz
CACHE=${KABIDIFF_CACHE:-${HOME:?HOME is not set}/.cache/kabidiff}
TREE=$CACHE/$PACKAGE
MARKER=.kabidiff-unpacked

say() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

die() {
	say "$*"
	exit 2
}

# What the marker holds: the tarball's identity (size and mtime) and the
# package version, so an upgraded package gets a fresh tree.
stamp() {
	version=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null) || version=unknown
	printf '%s %s\n' "$(stat -c '%s %Y' "$TARBALL")" "$version"
}

if [ ! -f "$TARBALL" ]; then
	say "$TARBALL is missing: installing $PACKAGE"
	if [ "$(id -u)" -eq 0 ]; then
		SUDO=
	else
		command -v sudo >/dev/null || die "not root and no sudo: install $PACKAGE by hand"
		SUDO=sudo
	fi
	$SUDO apt-get update >&2 || die "apt-get update failed"
	$SUDO env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "$PACKAGE" >&2 ||
		die "apt-get install $PACKAGE failed"
	[ -f "$TARBALL" ] || die "$PACKAGE is installed but $TARBALL is still missing"
fi

want=$(stamp)
if [ -f "$TREE/$MARKER" ] && [ "$(cat "$TREE/$MARKER")" = "$want" ]; then
	printf '%s\n' "$TREE"
	exit 0
fi

if [ -e "$TREE" ]; then
	say "$TREE is incomplete or stale: unpacking it again"
fi

mkdir -p "$CACHE"
tmp=$(mktemp -d "$CACHE/.$PACKAGE.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "unpacking $TARBALL into $CACHE (about a minute)"
start=$(date +%s)
# xz -T0 decompresses the tarball's blocks in parallel; GNU tar reports a
# failure of the decompressor, which a plain pipe in sh would hide.
tar --use-compress-program='xz -T0' -xf "$TARBALL" -C "$tmp" ||
	die "could not unpack $TARBALL"
if [ ! -f "$tmp/$PACKAGE/Makefile" ] || [ ! -d "$tmp/$PACKAGE/Documentation/ABI" ]; then
	die "$TARBALL does not hold a $PACKAGE/ kernel tree"
fi
printf '%s\n' "$want" >"$tmp/$PACKAGE/$MARKER"

# Rename into place: the final name only ever holds a complete tree (or,
# for a moment, nothing).
if [ -e "$TREE" ]; then
	mv "$TREE" "$tmp/old"
fi
mv "$tmp/$PACKAGE" "$TREE"
say "unpacked in $(($(date +%s) - start)) s"

printf '%s\n' "$TREE"
