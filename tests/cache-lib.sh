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
