#!/bin/sh
# collect --deb on small Debian packages made here with dpkg-deb from the
# fixtures: an image package (a bzImage whose xz payload is
# tests/fixtures/vmlinux/mini.elf, as a kernel's is its stripped vmlinux),
# its -dbg package (mini.elf, the three vDSO fixture images) and a
# linux-source package (a tarball of tests/fixtures/abi).  The snapshot
# must be the one collected from the same files by hand; the cache gets
# one entry a package.  Then bad packages: one line, exit 2, no output
# file and nothing cached.
. "$(dirname "$0")/../lib.sh"

command -v dpkg-deb >/dev/null || skip_all "no dpkg-deb"

R=9.9.0-1-amd64
MINI=$FIXTURES/vmlinux/mini.elf
V=$FIXTURES/vdso
export KABIDIFF_CACHE=$TMP/cache

# bzimage ELF OUT: a bzImage of boot protocol 2.15 whose payload is ELF,
# xz-compressed, with the decompressed size appended (the kernel's
# size_append)
bzimage() {
	python3 - "$1" "$2" <<'PY'
import lzma, struct, sys
elf = open(sys.argv[1], "rb").read()
payload = lzma.compress(elf, check=lzma.CHECK_CRC32) + struct.pack("<I", len(elf))
head = bytearray(1024)                  # boot sector and one setup sector
head[0x1f1] = 1
head[0x202:0x206] = b"HdrS"
head[0x206:0x208] = struct.pack("<H", 0x20f)
head[0x24c:0x250] = struct.pack("<I", len(payload))
open(sys.argv[2], "wb").write(bytes(head) + payload)
PY
}

# package NAME ARCH DIR: DIR as NAME_1_ARCH.deb in $TMP/debs, printed
package() {
	mkdir -p "$3/DEBIAN" "$TMP/debs"
	printf 'Package: %s\nVersion: 1\nArchitecture: %s\nMaintainer: t <t@example.org>\nDescription: test\n' \
		"$1" "$2" >"$3/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz --build "$3" "$TMP/debs/$1_1_$2.deb" >/dev/null &&
		echo "$TMP/debs/$1_1_$2.deb"
}

# image ELF ARCH, dbg VMLINUX ARCH, source: the three packages
image() {
	d=$TMP/image-$2-${1##*/}
	mkdir -p "$d/boot" "$d/lib/modules/$R/kernel"
	bzimage "$1" "$d/boot/vmlinuz-$R"
	echo "CONFIG_X86_64=y" >"$d/boot/config-$R"
	: >"$d/lib/modules/$R/modules.order"
	package "linux-image-$R-unsigned" "$2" "$d"
}
dbg() {
	d=$TMP/dbg-$2-${1##*/}
	mkdir -p "$d/usr/lib/debug/boot" "$d/usr/lib/debug/lib/modules/$R/vdso"
	cp "$1" "$d/usr/lib/debug/boot/vmlinux-$R"
	for i in vdso64 vdso32 vdsox32; do
		cp "$V/$i.so" "$d/usr/lib/debug/lib/modules/$R/vdso/"
	done
	package "linux-image-$R-dbg" "$2" "$d"
}
source_package() {
	d=$TMP/source
	mkdir -p "$d/usr/src" "$TMP/tree/linux-source-9.9"
	cp -r "$FIXTURES/abi/Documentation" "$TMP/tree/linux-source-9.9/"
	tar -C "$TMP/tree" -cJf "$d/usr/src/linux-source-9.9.tar.xz" linux-source-9.9
	package linux-source-9.9 all "$d"
}

IMAGE=$(image "$MINI" amd64) && DBG=$(dbg "$MINI" amd64) && SOURCE=$(source_package) ||
	{ fail "could not make the test packages"; done_testing; }

run_kabidiff collect --no-sysfs --vmlinux "$MINI" --vdso "$V/vdso64.so" \
	--vdso "$V/vdso32.so" --vdso "$V/vdsox32.so" \
	--docs "$TMP/tree/linux-source-9.9" --census "$DBG" -o "$TMP/by-hand.json"
is "$status" 0 "collect by hand (the census reads the -dbg package)"
run_kabidiff collect --no-sysfs --deb "$IMAGE" --deb "$DBG" --deb "$SOURCE" -o "$TMP/deb.json"
is "$status" 0 "collect --deb of the image, -dbg and source packages"
if cmp -s "$TMP/by-hand.json" "$TMP/deb.json"; then
	pass "the snapshot of the packages is the one of their files"
else
	fail "the snapshot of the packages is the one of their files" \
	     "$(diff "$TMP/by-hand.json" "$TMP/deb.json" | head -n 20)"
fi
is "$(ls "$KABIDIFF_CACHE/packages" | tr '\n' ' ')" \
   "linux-image-$R-dbg_1_amd64 linux-image-$R-unsigned_1_amd64 linux-source-9.9_1_all+2 " \
   "one cache entry a package, nothing else left there"
is "$(cat "$KABIDIFF_CACHE/packages/linux-image-$R-unsigned_1_amd64/.kabidiff-build-id")" \
   "$(LC_ALL=C readelf -n "$MINI" | sed -n 's/.*Build ID: //p')" \
   "the image's build id is mini.elf's, read from the bzImage's payload"
is "$(ls "$KABIDIFF_CACHE/packages/linux-source-9.9_1_all+2/linux-source-9.9")" \
   "Documentation" "of the source tarball, only what kabidiff reads is unpacked"

# Again: served by the cache, the same snapshot
touch -d @0 "$KABIDIFF_CACHE/packages/linux-image-$R-dbg_1_amd64"
run_kabidiff collect --no-sysfs --deb "$IMAGE" --deb "$DBG" --deb "$SOURCE" -o "$TMP/again.json"
is "$status:$(cmp "$TMP/deb.json" "$TMP/again.json" && echo same)" "0:same" \
   "collect --deb again: the same snapshot"
is "$(stat -c %Y "$KABIDIFF_CACHE/packages/linux-image-$R-dbg_1_amd64")" 0 \
   "collect --deb again: the cached entry is used, not unpacked anew"

# expect_refused NAME PATTERN DEB...: one line matching PATTERN, exit 2,
# no output file, nothing cached (a fresh cache stays without entries)
expect_refused() {
	name=$1 pattern=$2
	shift 2
	args=
	for deb; do
		args="$args --deb $deb"
	done
	rm -rf "$TMP/fresh" "$TMP/refused.json"
	# shellcheck disable=SC2086
	KABIDIFF_CACHE=$TMP/fresh run_kabidiff collect --no-sysfs $args -o "$TMP/refused.json"
	lines=$(printf '%s\n' "$err" | wc -l)
	case $err in
	*$pattern*) matched=yes ;;
	*) matched=no ;;
	esac
	left=$(find "$TMP/fresh" -mindepth 2 2>/dev/null | head -n 3)
	is "$status:$lines:$matched:$([ -e "$TMP/refused.json" ] && echo output):$left" \
	   "2:1:yes::" "$name: one line naming it, exit 2, no output, nothing cached"
	[ "$matched" = yes ] || printf '#   %s\n' "$err"
}

head -c "$(($(stat -c %s "$DBG") / 2))" "$DBG" >"$TMP/truncated.deb"
expect_refused "a truncated -dbg package" "truncated.deb: corrupt or truncated package" \
	"$IMAGE" "$TMP/truncated.deb" "$SOURCE"
python3 - "$DBG" "$TMP/corrupt.deb" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(b) // 2, len(b) // 2 + 64):
    b[i] ^= 0x55
open(sys.argv[2], "wb").write(b)
PY
expect_refused "a corrupted -dbg package" "corrupt.deb: corrupt or truncated package" \
	"$IMAGE" "$TMP/corrupt.deb" "$SOURCE"
expect_refused "a file that is no package" "mini.elf: not a Debian package" "$MINI"
expect_refused "a missing file" "nothing.deb: No such file or directory" "$TMP/nothing.deb"
ARM=$(dbg "$MINI" arm64)
expect_refused "a -dbg package for arm64" \
	"linux-image-$R-dbg is a package for arm64; kabidiff reads the amd64 kernel's" \
	"$IMAGE" "$ARM" "$SOURCE"
OTHER=$(dbg "$FIXTURES/vmlinux/compat-table.elf" amd64)
expect_refused "a -dbg package of another build" "is not the kernel of" \
	"$IMAGE" "$OTHER" "$SOURCE"
expect_refused "two image packages" "are both kernel image packages" "$IMAGE" "$IMAGE"
mkdir -p "$TMP/other/DEBIAN"
OTHER=$(package hello amd64 "$TMP/other")
expect_refused "a package that is no kernel's" "hello is no kernel image, -dbg or linux-source package" \
	"$OTHER"

# a FIFO named as a package, or in a directory of packages: refused at
# once, not waited on (timeout kills a kabidiff that waits: 124)
mkdir "$TMP/fifo-dir"
mkfifo "$TMP/fifo-dir/zz.deb"
for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$bin" && continue
	for args in "collect --no-sysfs --deb $TMP/fifo-dir/zz.deb" \
		    "diff $TMP/fifo-dir $TMP/fifo-dir"; do
		KABIDIFF_CACHE=$TMP/fresh timeout 60 "$bin" $args >/dev/null 2>"$TMP/err"
		status=$?
		grep -q "zz.deb: not a regular file, so no Debian package" "$TMP/err"
		is "$status:$?" "2:0" "${bin##*/build/}: $(echo "$args" | cut -d' ' -f1): a FIFO as a package is refused at once"
	done
done

done_testing
