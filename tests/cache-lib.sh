# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC2034
# What the scripts that fill kabidiff's cache share (debian-vmlinux.sh,
# kernel-tree.sh, debian-upgrade.sh), sourced after their header comment:
# the cache's path, messages, --help from that header, and root for apt.

CACHE=${KABIDIFF_CACHE:-${HOME:?HOME is not set}/.cache/kabidiff}

say() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

die() {
	say "$*"
	exit 2
}

# usage STATUS: the script's header comment, on stdout for --help (STATUS
# 0), else on stderr; then exit STATUS
usage() {
	if [ "$1" -eq 0 ]; then
		sed -n '3,/^$/s/^# \{0,1\}//p' "$0"
	else
		sed -n '3,/^$/s/^# \{0,1\}//p' "$0" >&2
	fi
	exit "$1"
}

# Root (or sudo) for apt-get update and install only; downloading needs
# neither.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		command -v sudo >/dev/null || die "not root and no sudo: run '$*' by hand"
		sudo "$@"
	fi
}

# debian_abis SERIES: the ABIs of Debian's SERIES (6.1, 6.12) that
# apt-cache knows an amd64 image of, oldest first; nothing if it knows none
debian_abis() {
	apt-cache pkgnames "linux-image-$1." |
		sed -n "s/^linux-image-\($(printf '%s' "$1" | sed 's/\./\\./g')\.[0-9]*\(-[0-9]*\|+deb[0-9]*\)\)-amd64-unsigned\$/\1/p" |
		sort -V
}

# newest_abi SERIES: the newest of them (6.1.0-57, 6.12.118+deb12 when
# this was written), as "kabidiff debian:SERIES" chooses it
newest_abi() {
	debian_abis "$1" | tail -n 1
}

# series_abi SERIES: newest_abi, after apt-get update if apt-cache knows
# none; the script dies if there is none then
series_abi() {
	abi=$(newest_abi "$1")
	if [ -z "$abi" ]; then
		say "apt-cache knows no linux-image-$1.*-amd64-unsigned: running apt-get update"
		as_root apt-get update >&2 || die "apt-get update failed"
		abi=$(newest_abi "$1")
		[ -n "$abi" ] || die "no linux-image-$1.*-amd64-unsigned in the apt sources"
	fi
	printf '%s\n' "$abi"
}
