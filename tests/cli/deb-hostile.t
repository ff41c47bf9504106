#!/bin/sh
# collect --deb on hostile packages that dpkg-deb would not build, made
# with tests/tools/mkdeb.py: a -dbg package of the fixtures (mini.elf as
# its vmlinux, the vDSO images) with members added where kabidiff unpacks
# them.  Each runs with both builds, under timeout(1) so that a hang is a
# failure, with a fresh cache of its own in $TMP; what is refused is one
# line, exit 2, nothing cached and nothing written outside the cache.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip_all "python3 is not installed"
command -v timeout >/dev/null || skip_all "timeout(1) is not installed"

R=9.9.0-1-amd64
MKDEB=$TOP/tests/tools/mkdeb.py
MINI=$FIXTURES/vmlinux/mini.elf
V=$FIXTURES/vdso
D=./usr/lib/debug
VD=$D/lib/modules/$R/vdso
C=$TMP/c
mkdir "$TMP/debs" "$TMP/outside" "$TMP/small"

# a small tmpfs is mounted at $TMP/small for the full-disk checks
unmount_small() {
	unmount_status=$?
	mountpoint -q "$TMP/small" && umount "$TMP/small"
	(exit "$unmount_status")
	tap_exit
}
trap unmount_small EXIT

# dbg FILE VERSION MEMBER...: $TMP/debs/FILE, the -dbg package of the
# fixtures at VERSION with the MEMBERs (mkdeb.py's forms) after its own
dbg() {
	dbg_file=$TMP/debs/$1 dbg_version=$2
	shift 2
	python3 "$MKDEB" deb "$dbg_file" "linux-image-$R-dbg" "$dbg_version" amd64 \
		"f:$D/boot/vmlinux-$R:0644:$MINI" \
		"f:$VD/vdso64.so:0644:$V/vdso64.so" \
		"f:$VD/vdso32.so:0644:$V/vdso32.so" \
		"f:$VD/vdsox32.so:0644:$V/vdsox32.so" "$@" ||
		fail "mkdeb.py could not make $1"
}

# collect_again ARGS...: $BIN collect --no-sysfs ARGS with the cache
# $C, killed after 60 s (status 124); collect: the same with a fresh
# cache
collect_again() {
	rm -f "$TMP/out.json"
	KABIDIFF_CACHE=$C timeout 60 "$BIN" collect --no-sysfs "$@" \
		-o "$TMP/out.json" >"$TMP/out" 2>"$TMP/err"
	status=$?
	# mini.elf's own warning
	err=$(grep -v 'DWARF says 3 arguments, the ftrace metadata 2$' "$TMP/err")
}
collect() {
	rm -rf "$C"
	collect_again "$@"
}

# cached: what the cache holds after the run, one name a line
cached() {
	find "$C/packages" -mindepth 1 2>/dev/null | sed "s|^$C/packages/||" | sort
}

# refused NAME PATTERN ARGS...: collect ARGS is one line matching PATTERN
# (a case pattern), exit 2, no output, nothing cached, no sanitizer report
refused() {
	refused_name=$1 refused_pattern=$2
	shift 2
	collect "$@"
	lines=$(printf '%s\n' "$err" | wc -l)
	# shellcheck disable=SC2254
	case $err in
	$refused_pattern) matched=yes ;;
	*) matched=no ;;
	esac
	is "$status:$lines:$matched:$([ -e "$TMP/out.json" ] && echo output):$(cached | head -n 3)" \
	   "2:1:yes::" "$tag$refused_name: one line, exit 2, no output, nothing cached"
	[ "$matched" = yes ] || printf '#   %s\n' "$err" | head -n 5
}

# no_sanitizer: the last run printed no sanitizer report
no_sanitizer() {
	is "$(grep -c 'runtime error\|AddressSanitizer\|LeakSanitizer' "$TMP/err")" 0 \
	   "${tag}no sanitizer report"
}

# a linux-source package of the fixture docs whose tarball has first a
# file of 4 MiB: on a 1 MiB disk the docs after it were cut to nothing,
# and the entry was cached
mkdir -p "$TMP/tree/linux-source-9.9"
cp -R "$FIXTURES/abi/Documentation" "$TMP/tree/linux-source-9.9/"
head -c 4194304 /dev/zero >"$TMP/tree/linux-source-9.9/Documentation/ABI/aa-big"
tar -C "$TMP/tree" --sort=name -cJf "$TMP/source.tar.xz" linux-source-9.9 &&
	python3 "$MKDEB" deb "$TMP/debs/big.deb" linux-source-9.9 1 all \
		"f:./usr/src/linux-source-9.9.tar.xz:0644:$TMP/source.tar.xz" ||
	fail "could not make big.deb"

# the data archive of a -dbg package in 50 blocks of 64 KiB (3 MiB of
# random bytes among the vDSO images), one with 4 MiB of zeros after its
# tar's end, and the two cut short: by half, by its last byte, and by
# its footer, the 12 bytes after the padding
XZ_DEBS=
if command -v xz >/dev/null && command -v ar >/dev/null; then
	python3 -c 'import random, sys; random.seed(1); sys.stdout.buffer.write(random.randbytes(3 << 20))' \
		>"$TMP/random"
	python3 "$MKDEB" deb --blocks 65536 "$TMP/debs/blocks.deb" "linux-image-$R-dbg" 1 amd64 \
		"f:$D/boot/vmlinux-$R:0644:$MINI" "f:$VD/vdso64.so:0644:$V/vdso64.so" \
		"f:$VD/random:0644:$TMP/random" "f:$VD/vdso32.so:0644:$V/vdso32.so" \
		"f:$VD/vdsox32.so:0644:$V/vdsox32.so" &&
		dbg pad.deb 1 pad:4194304 &&
		size=$(ar p "$TMP/debs/blocks.deb" data.tar.xz | wc -c) &&
		python3 "$MKDEB" cut "$TMP/debs/blocks.deb" "$TMP/debs/cut-half.deb" data.tar.xz \
			$((size / 2)) &&
		python3 "$MKDEB" cut "$TMP/debs/blocks.deb" "$TMP/debs/cut-last-byte.deb" data.tar.xz -1 &&
		python3 "$MKDEB" cut "$TMP/debs/pad.deb" "$TMP/debs/cut-pad.deb" data.tar.xz -12 &&
		XZ_DEBS=yes
	[ -n "$XZ_DEBS" ] || fail "mkdeb.py could not make the data.tar.xz packages"
fi

for BIN in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$BIN" && continue
	tag=
	[ "$BIN" = "$KABIDIFF" ] || tag="asan: "
	if [ ! -x "$BIN" ]; then
		fail "$tag$BIN is built"
		continue
	fi

	# a member refused is named as the package has it: the name that
	# libarchive's entry held was freed before it was printed
	name=usr/lib/debug/lib/modules/$R/vdso/../../../../../../../../../../escaped
	dbg dotdot.deb 1 "f:./$name:0644:$MINI"
	refused "a member with .. in its path" \
		"kabidiff: $TMP/debs/dotdot.deb: unpacking $name into $TMP/c/packages/.tmp.*: *" \
		--deb "$TMP/debs/dotdot.deb"
	is "$(ls -A "$TMP/outside"):$(find "$TMP" -name escaped)" ":" \
	   "${tag}nothing written outside the cache"

	# the control fields name the cache entry: checked before they do.
	# With linux-image-$R-dbg_1_amd64 cached, this Version made the
	# entry $TMP/pwned_amd64.
	dbg good.deb 1
	collect --deb "$TMP/debs/good.deb"
	is "$status:$(cached | sed 1q)" "0:linux-image-$R-dbg_1_amd64" "${tag}a good -dbg package is cached"
	dbg version.deb 1_amd64/../../../pwned
	collect_again --deb "$TMP/debs/version.deb"
	is "$status:$err:$(cached | grep -v "^linux-image-$R-dbg_1_amd64")$(ls -d "$TMP"/pwned* 2>/dev/null)" \
	   "2:kabidiff: $TMP/debs/version.deb: its Version field '1_amd64/../../../pwned' is not a version by Debian policy 5.6.12: [epoch:]upstream[-revision] of A-Za-z0-9.+~-:" \
	   "${tag}a Version with / and _ is refused, nothing written outside the cache"
	no_sanitizer
	python3 "$MKDEB" deb "$TMP/debs/package.deb" "linux-image-../../../pwned-dbg" 1 amd64 \
		"f:$D/boot/vmlinux-../../../pwned:0644:$MINI"
	refused "a Package with /" \
		"kabidiff: $TMP/debs/package.deb: its Package field 'linux-image-../../../pwned-dbg' is not a package name by Debian policy 5.6.1: *" \
		--deb "$TMP/debs/package.deb"
	python3 "$MKDEB" deb "$TMP/debs/arch.deb" "linux-image-$R-dbg" 1 "amd64/../x" \
		"f:$D/boot/vmlinux-$R:0644:$MINI"
	refused "an Architecture with /" \
		"kabidiff: $TMP/debs/arch.deb: its Architecture field 'amd64/../x' is not an architecture name: *" \
		--deb "$TMP/debs/arch.deb"
	dbg epoch.deb 1:9.9.0-1~bpo12+1
	collect --deb "$TMP/debs/epoch.deb"
	is "$status:$err:$(cached | sed 1q)" "0::linux-image-$R-dbg_1:9.9.0-1~bpo12+1_amd64" \
	   "${tag}a Version with an epoch, a revision, ~ and + is one"
	for version in 1: :1 a:1 1:2:3 x1 1- 1_2 "1 2" "$(printf %0200d 1)"; do
		dbg bad.deb "$version"
		collect --deb "$TMP/debs/bad.deb"
		is "$status:$(printf '%s\n' "$err" | wc -l):$(cached)" "2:1:" \
		   "${tag}Version '$(printf %.16s "$version")' is refused"
	done

	# members are written relative to the entry, never through a link:
	# no symbolic link is made, so a/file after a -> outside lands in a/
	dbg link.deb 1 "l:$VD/a:$TMP/outside" "f:$VD/a/file:0644:$MINI" \
		"h:$VD/copy:$VD/vdso64.so"
	collect --deb "$TMP/debs/link.deb"
	E=$C/packages/linux-image-$R-dbg_1_amd64/usr/lib/debug/lib/modules/$R/vdso
	is "$status:$err:$(ls -A "$TMP/outside"):$(find "$C" -type l):$([ -f "$E/a/file" ] && echo file):$(stat -c %i "$E/copy" "$E/vdso64.so" 2>&1 | uniq | wc -l)" \
	   "0::::file:1" \
	   "${tag}a symbolic link is not made nor followed by the member after it; a hard link is made"
	for target in /etc/passwd ../../../../../../../../../../../etc/passwd; do
		dbg hard.deb 1 "h:$VD/hard:$target"
		refused "a hard link to $target" \
			"kabidiff: $TMP/debs/hard.deb: unpacking usr/lib/debug/lib/modules/$R/vdso/hard into $C/packages/.tmp.*: a hard link to a path out of the package's tree: refused" \
			--deb "$TMP/debs/hard.deb"
	done
	for name in "$VD//x" "$VD/./x"; do
		dbg name.deb 1 "f:$name:0644:$MINI"
		refused "a member named ${name#./}" \
			"kabidiff: $TMP/debs/name.deb: unpacking ${name#./} into $C/packages/.tmp.*: an empty or '.' component in its path: refused" \
			--deb "$TMP/debs/name.deb"
	done

	# only files and directories are made, without setuid, setgid,
	# sticky or others' write
	for member in "c:$VD/null:1,3" "b:$VD/loop:7,0" "p:$VD/fifo"; do
		case $member in
		c:*)	kind="a character device" ;;
		b:*)	kind="a block device" ;;
		*)	kind="a FIFO" ;;
		esac
		name=${member#?:./}
		dbg node.deb 1 "$member"
		refused "$kind in a package" \
			"kabidiff: $TMP/debs/node.deb: unpacking ${name%%:*} into $C/packages/.tmp.*: $kind, not a file or a directory: refused" \
			--deb "$TMP/debs/node.deb"
	done
	# the FIFO made to be the vmlinux blocked the build id's read for ever
	python3 "$MKDEB" deb "$TMP/debs/fifo.deb" "linux-image-$R-dbg" 1 amd64 \
		"p:$D/boot/vmlinux-$R"
	refused "a FIFO as the -dbg vmlinux" \
		"kabidiff: $TMP/debs/fifo.deb: unpacking usr/lib/debug/boot/vmlinux-$R into $C/packages/.tmp.*: a FIFO, not a file or a directory: refused" \
		--deb "$TMP/debs/fifo.deb"
	dbg modes.deb 1 "f:$VD/suid:04755:$MINI" "f:$VD/sgid:02755:$MINI" \
		"f:$VD/writable:0666:$MINI" "d:$VD/open:0777" "d:$VD/sticky:01777" \
		"d:$VD/closed:0500" "f:$VD/closed/file:0600:$MINI"
	collect --deb "$TMP/debs/modes.deb"
	is "$status:$err:$(cd "$E" 2>&1 && stat -c '%n %a' suid sgid writable open sticky closed closed/file 2>&1 | tr '\n' ' ')" \
	   "0::suid 755 sgid 755 writable 644 open 755 sticky 755 closed 700 closed/file 600 " \
	   "${tag}setuid, setgid, sticky and others' write are dropped"

	# the data.tar.xz, decoded by liblzma on threads: a stream of 50
	# blocks, as dpkg-deb's multi-threaded xz writes them, unpacks byte
	# for byte; one cut short, the ar archive around it whole, is
	# refused, unpacked (--deb) or read (--census), also when the tar in
	# it ends, and 4 MiB of padding after it, before the cut
	if [ -n "$XZ_DEBS" ]; then
		collect --deb "$TMP/debs/blocks.deb"
		is "$status:$err:$(cmp "$TMP/random" "$E/random" && echo same)" "0::same" \
		   "${tag}a data.tar.xz of 50 blocks unpacks, its members whole"
		collect --deb "$TMP/debs/pad.deb"
		is "$status:$err" "0:" "${tag}a data.tar.xz with 4 MiB after its tar's end is taken"
		for cut in half last-byte; do
			refused "a data.tar.xz less its $cut" \
				"kabidiff: $TMP/debs/cut-$cut.deb: corrupt or truncated package: data.tar.xz: the xz stream is cut short" \
				--deb "$TMP/debs/cut-$cut.deb"
			refused "--census: a data.tar.xz less its $cut" \
				"kabidiff: $TMP/debs/cut-$cut.deb: corrupt or truncated package: *" \
				--census "$TMP/debs/cut-$cut.deb"
		done
		for option in --deb --census; do
			refused "$option: a data.tar.xz less its footer, 4 MiB after its tar's end" \
				"kabidiff: $TMP/debs/cut-pad.deb: corrupt or truncated package: data.tar.xz: the xz stream is cut short" \
				"$option" "$TMP/debs/cut-pad.deb"
		done
	else
		skip "${tag}the truncated data.tar.xz: no xz(1) to make them"
	fi

	# a cap on what one package unpacks, checked before writing: the
	# 8 MiB member (a few KB of xz) is stopped on a 4 MiB tmpfs by the
	# 1 MiB cap, not by the disk (in $TMP/c where mount fails)
	dbg bomb.deb 1 "z:$VD/bomb:0644:8388608"
	mount -t tmpfs -o size=4m tmpfs "$TMP/small" 2>/dev/null && C=$TMP/small/c
	export KABIDIFF_UNPACK_MAX=1M
	refused "a package over KABIDIFF_UNPACK_MAX" \
		"kabidiff: $TMP/debs/bomb.deb: linux-image-$R-dbg unpacks to more than 1 MiB, the most one package may (KABIDIFF_UNPACK_MAX): stopped at usr/lib/debug/lib/modules/$R/vdso/bomb" \
		--deb "$TMP/debs/bomb.deb"
	mountpoint -q "$TMP/small" && umount "$TMP/small"
	C=$TMP/c
	KABIDIFF_UNPACK_MAX=60K
	refused "a package over a cap of 60K, its vmlinux and vDSO images within it" \
		"kabidiff: $TMP/debs/good.deb: linux-image-$R-dbg unpacks to more than 60 KiB, the most one package may (KABIDIFF_UNPACK_MAX): stopped at usr/lib/debug/lib/modules/$R/vdso/vdsox32.so" \
		--deb "$TMP/debs/good.deb"
	for KABIDIFF_UNPACK_MAX in 64KiB 65536 9G; do
		collect --deb "$TMP/debs/good.deb"
		is "$status:$err" "0:" "${tag}KABIDIFF_UNPACK_MAX=$KABIDIFF_UNPACK_MAX takes the package"
	done
	for KABIDIFF_UNPACK_MAX in 0 1X -1 G 99999999999T; do
		refused "KABIDIFF_UNPACK_MAX=$KABIDIFF_UNPACK_MAX" \
			"kabidiff: KABIDIFF_UNPACK_MAX: '$KABIDIFF_UNPACK_MAX' is not a size: *" \
			--deb "$TMP/debs/good.deb"
	done
	unset KABIDIFF_UNPACK_MAX

	# a full disk while unpacking: an error, and nothing half-written
	# stays in the cache
	if mount -t tmpfs -o size=1m tmpfs "$TMP/small" 2>"$TMP/mount.err"; then
		C=$TMP/small/c
		refused "a disk full while unpacking" \
			"kabidiff: $TMP/debs/big.deb: unpacking linux-source-9.9/Documentation/ABI/aa-big into $C/packages/.tmp.*: *" \
			--deb "$TMP/debs/big.deb"
		is "$(ls -A "$C/packages")" "" "${tag}no temporary directory is left"
		umount "$TMP/small"
		C=$TMP/c
	else
		pass "${tag}a disk full while unpacking # SKIP cannot mount a tmpfs: $(cat "$TMP/mount.err")"
		pass "${tag}no temporary directory is left # SKIP no tmpfs"
	fi
done

done_testing
