#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run COMMAND with Debian's archive answering as if the ABIs named in
# KABIDIFF_TEST_HIDE_ABIS were gone: tests/moved-archive/ (apt-cache and
# apt-get that hide them) first in PATH, and KABIDIFF_CACHE a cache of its
# own for those ABIs.  With --cache, only set that cache up and print its
# path (tests/lib.sh does so when KABIDIFF_TEST_HIDE_ABIS is set).
#
#   KABIDIFF_TEST_HIDE_ABIS=6.1.0-57 tests/moved-archive.sh make demo-run
#   KABIDIFF_TEST_HIDE_ABIS=6.1.0-57 prove tests/kernel/boot-debian.t
#
# A cache of its own, since kabidiff keeps which ABI debian:6.1 chose
# (debian/6.1 in the cache) for as long as apt's lists are unchanged: it
# would not ask the moved archive, and must not teach the real cache its
# answer.  The cache is $CACHE/moved-archive/ABI,ABI,...; it links to
# everything of the real one (packages, snapshots, vmlinux files, trees)
# but those choices and what is named by a hidden ABI, so what is already
# fetched is shared, and what the moved archive makes tests fetch (the
# older ABI's packages) stays in it.  The links are refreshed every time.

set -eu

. "$(dirname "$0")/cache-lib.sh"
WRAPPERS=$(cd "$(dirname "$0")/moved-archive" && pwd)

cache_only=
case ${1-} in
--cache) cache_only=1; shift ;;
-h | --help) usage 0 ;;
'') usage 2 ;;
esac
[ -z "$cache_only" ] || [ $# -eq 0 ] || usage 2

abis=
for abi in ${KABIDIFF_TEST_HIDE_ABIS-}; do
	printf '%s\n' "$abi" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+|\+deb[0-9]+)' ||
		die "KABIDIFF_TEST_HIDE_ABIS: '$abi' is not an ABI such as 6.1.0-57 or 6.12.118+deb12"
	abis="$abis $abi"
done
[ -n "$abis" ] || die "KABIDIFF_TEST_HIDE_ABIS names no ABI to hide"

# The real cache, also when CACHE is already one of these (a run inside
# another: "tests/moved-archive.sh prove ..." sources tests/lib.sh).
[ ! -f "$CACHE/.hides" ] || CACHE=$(cd "$CACHE/../.." && pwd)
# shellcheck disable=SC2086 # the words, one a line
key=$(printf '%s\n' $abis | sort -u | paste -s -d, -)
MOVED=$CACHE/moved-archive/$key

# hides NAME: NAME holds a hidden ABI (the wrappers' test)
hides() {
	for abi in $abis; do
		case $1 in
		*"$abi" | *"$abi"-*) return 0 ;;
		esac
	done
	return 1
}

# link FROM TO [PATTERN...]: a link in TO to each entry of FROM (matching
# a PATTERN, when given) that TO lacks, but none to a hidden ABI's
link() {
	from=$1 to=$2
	shift 2
	[ $# -gt 0 ] || set -- '*'
	for pattern; do
		for entry in "$from"/$pattern; do
			name=${entry##*/}
			[ -e "$entry" ] || continue
			hides "$name" && continue
			[ -e "$to/$name" ] || [ -L "$to/$name" ] || ln -s "$entry" "$to/$name"
		done
	done
}

mkdir -p "$MOVED"
chmod 700 "$CACHE/moved-archive" "$MOVED"
printf '%s\n' "$abis" >"$MOVED/.hides"
# kabidiff refuses a link as one of its folders: those are folders here,
# of links to what the real ones hold; debian/ without the choices
for dir in packages snapshots bisect downloads debian; do
	mkdir -p "$MOVED/$dir"
	chmod 700 "$MOVED/$dir"
done
for dir in packages snapshots bisect; do
	[ ! -d "$CACHE/$dir" ] || link "$CACHE/$dir" "$MOVED/$dir"
done
[ ! -d "$CACHE/debian" ] ||
	link "$CACHE/debian" "$MOVED/debian" 'vmlinux-*' 'vmlinuz-*' 'modules-*' 'vdso-*' '*.deb'
# the rest (the trees, the upgrade's snapshots, the fixture kernels) as it is
for entry in "$CACHE"/*; do
	case ${entry##*/} in
	packages | snapshots | bisect | downloads | debian | moved-archive) ;;
	*) link "$CACHE" "$MOVED" "${entry##*/}" ;;
	esac
done

if [ -n "$cache_only" ]; then
	printf '%s\n' "$MOVED"
	exit 0
fi
case :$PATH: in
*:"$WRAPPERS":*) ;;
*) PATH=$WRAPPERS:$PATH ;;
esac
KABIDIFF_CACHE=$MOVED
export PATH KABIDIFF_CACHE KABIDIFF_TEST_HIDE_ABIS
say "Debian's archive as if it no longer had$abis; the cache is $MOVED"
exec "$@"
