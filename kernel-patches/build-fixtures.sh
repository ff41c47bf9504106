#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the two fixture kernels and print the directory that holds them,
# alone on the last line of stdout (progress goes to stderr):
#
#   dir=$(kernel-patches/build-fixtures.sh | tail -n 1) || exit 2
#
#   DIR/old/    base + old/*.patch          (tag kabi-old)
#   DIR/new/    base + old/ + break/*.patch (tag kabi-new)
#
# each a kernel build directory as "kabidiff collect" reads it:
#
#   vmlinux  System.map  .config  arch/x86/boot/bzImage
#   arch/x86/entry/vdso/vdso64.so.dbg  vdso32.so.dbg  (the vDSO images)
#   arch/x86/include/generated/asm/syscalls_64.h  syscalls_32.h
#   source/Documentation/ABI/
#   source/arch/x86/entry/syscalls/syscall_64.tbl  syscall_32.tbl
#
# where source/ holds real copies of that revision's files, not a link to
# the tree.  DIR/BUILD-INFO says what was built, from which commits, and
# how long it took.
#
# DIR is $KABIDIFF_CACHE/kabi-fixtures/KEY (default ~/.cache/kabidiff),
# KEY a hash of the package version, the patches, kabi.config and these
# scripts: when DIR exists, nothing is built.  Otherwise the repository
# of prepare-repo.sh is checked out at kabi-old and built out of tree in
# $KABIDIFF_CACHE/kabi-build, then checked out at kabi-new and built again
# in the same directory, so that only what the break series touches is
# rebuilt.  The result is written to a temporary directory and renamed to
# DIR at the end: an interrupted run leaves no half result.
#
# Options:
#   --rebuild   build even when DIR exists
#
# Environment: KABIDIFF_CACHE; JOBS (default: nproc) for make -j.
#
# Exit status: 0 with DIR printed, 2 on any failure (with the reason).

set -eu

. "$(dirname "$0")/common.sh"

RESULTS=$CACHE/kabi-fixtures
BUILD=$CACHE/kabi-build
JOBS=${JOBS:-$(nproc)}
rebuild=

usage() {
	sed -n '3,/^$/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

for arg in "$@"; do
	case "$arg" in
	--rebuild)	rebuild=1 ;;
	*)		usage ;;
	esac
done

# cache_key: what the fixture kernels are made of
cache_key() {
	(
		cd "$HERE"
		printf '%s %s\n' "$PACKAGE" "$VERSION"
		for file in BASE kabi.config common.sh prepare-repo.sh \
			    build-fixtures.sh old/*.patch break/*.patch; do
			printf '%s\n' "$file"
			cat "$file"
		done
	) | sha256sum | cut -c1-16
}

# configure TAG: tinyconfig plus kabi.config, checked line by line
configure() {
	make -s -C "$REPO" O="$BUILD" tinyconfig >"$log" 2>&1 ||
		fail "make tinyconfig failed at $1"
	(cd "$REPO" && scripts/kconfig/merge_config.sh -m -O "$BUILD" \
		"$BUILD/.config" "$HERE/kabi.config") >>"$log" 2>&1 ||
		fail "merge_config.sh failed at $1"
	make -s -C "$REPO" O="$BUILD" olddefconfig >>"$log" 2>&1 ||
		fail "make olddefconfig failed at $1"

	lost=
	for line in $(grep '^CONFIG_' "$HERE/kabi.config"); do
		grep -qx "$line" "$BUILD/.config" || lost="$lost $line"
	done
	[ -z "$lost" ] ||
		die "kabi.config asks for what the $1 .config does not have:$lost"
}

# fail MESSAGE: die, showing the end of the current log
fail() {
	tail -n 25 "$log" | sed 's/^/  /' >&2
	die "$* (log: $log)"
}

# build NAME TAG: build TAG and save it as $tmp/NAME
build() {
	name=$1
	tag=$2
	log=$CACHE/kabi-build-$name.log
	out=$tmp/$name

	git -C "$REPO" checkout -q -f --detach "$tag" ||
		die "cannot check out $tag in $REPO"
	commit=$(git -C "$REPO" rev-parse --short=12 "$tag")
	say "configuring $name ($tag, $commit)"
	configure "$tag"

	say "building $name: make -j$JOBS vmlinux bzImage (log: $log)"
	start=$(date +%s)
	# The build is reproducible: no build counter, user, host or clock
	# in the version string.  The release names the revision.
	make -C "$REPO" O="$BUILD" -j"$JOBS" \
		LOCALVERSION="-$tag" \
		KBUILD_BUILD_VERSION=1 \
		KBUILD_BUILD_USER=kabidiff KBUILD_BUILD_HOST=kabidiff \
		KBUILD_BUILD_TIMESTAMP="$(git -C "$REPO" log -1 --format=%cD "$tag")" \
		vmlinux bzImage >>"$log" 2>&1 ||
		fail "building $tag failed"
	took=$(elapsed "$start")
	say "built $name in $took"

	mkdir -p "$out/arch/x86/boot" "$out/arch/x86/entry/vdso" \
		"$out/arch/x86/include/generated/asm" "$out/source"
	cp "$BUILD/vmlinux" "$BUILD/System.map" "$BUILD/.config" "$out/"
	cp "$BUILD/arch/x86/boot/bzImage" "$out/arch/x86/boot/"
	cp "$BUILD/arch/x86/entry/vdso/vdso64.so.dbg" \
		"$BUILD/arch/x86/entry/vdso/vdso32.so.dbg" \
		"$out/arch/x86/entry/vdso/"
	cp "$BUILD/arch/x86/include/generated/asm/syscalls_64.h" \
		"$BUILD/arch/x86/include/generated/asm/syscalls_32.h" \
		"$out/arch/x86/include/generated/asm/"
	git -C "$REPO" archive "$tag" Documentation/ABI \
		arch/x86/entry/syscalls/syscall_64.tbl \
		arch/x86/entry/syscalls/syscall_32.tbl | tar -x -C "$out/source"
	release=$(cat "$BUILD/include/config/kernel.release")
	printf '%s\t%s %s %s built in %s\n' "$name" "$tag" \
		"$(git -C "$REPO" rev-parse "$tag")" "$release" "$took" \
		>>"$tmp/BUILD-INFO"
}

need_deps
check_base
lock_cache

key=$(cache_key)
result=$RESULTS/$key
if [ -z "$rebuild" ] && [ -f "$result/BUILD-INFO" ]; then
	say "the fixture kernels are up to date (key $key)"
	printf '%s\n' "$result"
	exit 0
fi

"$HERE/prepare-repo.sh" >/dev/null

mkdir -p "$RESULTS"
tmp=$(mktemp -d "$RESULTS/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

printf 'key\t%s\npackage\t%s %s\n' "$key" "$PACKAGE" "$VERSION" >"$tmp/BUILD-INFO"
all=$(date +%s)
build old kabi-old
build new kabi-new

# Leave the repository at kabi-new, as prepare-repo.sh does.
git -C "$REPO" checkout -q -f kabi

if [ -e "$result" ]; then
	mv "$result" "$tmp/stale"
fi
mv "$tmp" "$result"
trap - EXIT
rm -rf "$result/stale"

# Results of other keys are other versions of the patches: drop them.
for stale in "$RESULTS"/*; do
	[ "$stale" = "$result" ] || rm -rf "$stale"
done

say "the fixture kernels are in $result ($(elapsed "$all") in all)"
printf '%s\n' "$result"
