# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC2034
# Shared by prepare-repo.sh and build-fixtures.sh (sourced, not run).
#
# Sets HERE (this directory), TOP (the kabidiff checkout), CACHE, PACKAGE,
# VERSION (from BASE), TARBALL, REPO (the fixture kernel repository) and
# LOCK, and defines say, die, elapsed, need_deps, check_base and lock_cache.

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
CACHE=${KABIDIFF_CACHE:-${HOME:?HOME is not set}/.cache/kabidiff}
PACKAGE=$(awk '$1 == "package" { print $2 }' "$HERE/BASE")
VERSION=$(awk '$1 == "version" { print $2 }' "$HERE/BASE")
TARBALL=/usr/src/$PACKAGE.tar.xz
REPO=$CACHE/kabi-linux
LOCK=$CACHE/kabi-linux.lock

# Everything the scripts need on the machine: Debian package, then a
# command or file that shows it is there.
DEPS="bc:bc bison:bison flex:flex cpio:cpio git:git gcc:gcc make:make
perl:perl xz-utils:xz libssl-dev:/usr/include/openssl/ssl.h
libelf-dev:/usr/include/gelf.h util-linux:flock"

say() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

die() {
	say "error: $*"
	exit 2
}

# elapsed START: the time since START (seconds since the epoch), as 4m32s
elapsed() {
	s=$(($(date +%s) - $1))
	if [ "$s" -ge 60 ]; then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "not root and no sudo: run as root: $*"
	fi
}

# apt_install PKG...: install, running apt-get update first only when apt
# does not know one of the packages (no package lists yet, or stale ones)
apt_install() {
	for pkg in "$@"; do
		pkg=${pkg%%=*}
		if ! apt-cache show "$pkg" >/dev/null 2>&1; then
			say "apt-get update (apt does not know $pkg)"
			as_root apt-get update >&2 || die "apt-get update failed"
			break
		fi
	done
	say "installing $*"
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "$@" >&2 ||
		die "apt-get install $* failed"
}

installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

# need_deps: install what is missing of DEPS and the pinned kernel source
need_deps() {
	missing=
	for dep in $DEPS; do
		pkg=${dep%%:*}
		probe=${dep#*:}
		case "$probe" in
		/*)	[ -e "$probe" ] && continue ;;
		*)	command -v "$probe" >/dev/null && continue ;;
		esac
		missing="$missing $pkg"
	done
	if [ -z "$(installed_version "$PACKAGE")" ]; then
		missing="$missing $PACKAGE=$VERSION"
	fi
	if [ -n "$missing" ]; then
		# word splitting of the list is wanted here
		# shellcheck disable=SC2086
		apt_install $missing
	fi
}

# check_base: the installed kernel source must be the pinned one
check_base() {
	if [ -z "$PACKAGE" ] || [ -z "$VERSION" ]; then
		die "$HERE/BASE names no package and version"
	fi
	have=$(installed_version "$PACKAGE")
	[ -n "$have" ] || die "$PACKAGE is not installed (apt-get install $PACKAGE=$VERSION)"
	if [ "$have" != "$VERSION" ]; then
		say "error: $PACKAGE $have is installed, but the series in"
		say "error: $HERE is made for $VERSION (see BASE)."
		say "error: install that version (apt-get install $PACKAGE=$VERSION),"
		die "or rebase the series onto $have and update BASE"
	fi
	[ -f "$TARBALL" ] || die "$PACKAGE $have is installed but $TARBALL is missing"
}

# lock_cache: hold the fixture repository and build directory for this
# process (and its children) until it exits; a second run waits
lock_cache() {
	# a child of a run that holds the lock (the descriptor is inherited)
	[ "${KABI_LOCK_HELD:-}" = "$LOCK" ] && return 0
	mkdir -p "$CACHE"
	exec 9>"$LOCK"
	if ! flock -n 9; then
		say "waiting for another run that holds $LOCK"
		flock 9
	fi
	KABI_LOCK_HELD=$LOCK
	export KABI_LOCK_HELD
}
