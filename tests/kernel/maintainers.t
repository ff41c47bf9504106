#!/bin/sh
# The mailing lists abidiff/notify/ names for real source paths, read from
# the MAINTAINERS files of Debian's linux-source-6.1 and 6.12 in the cache
# (tests/kernel-tree.sh unpacks them; a tree that is not there is skipped),
# through tests/tools/maintainers-lookup: the most specific section, and
# the lists to tell.  Each expectation says why.  Each was checked against
# the tree's own `scripts/get_maintainer.pl --no-git --no-git-fallback -f
# PATH`, and the test checks again that the script prints each of our
# lists too.  It prints more: THE REST's linux-kernel@vger.kernel.org
# always, every matching section's lists, and in 6.1 the lists of sections
# whose K: keywords the file's text holds (6.3 made that --keywords-in-file).
. "$(dirname "$0")/../lib.sh"

LOOKUP=$TOP/build/tests/tools/maintainers-lookup
not_built "$LOOKUP" && done_testing
CACHE=${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}
[ -f "$CACHE/linux-source-6.1/MAINTAINERS" ] ||
	[ -f "$CACHE/linux-source-6.12/MAINTAINERS" ] ||
	skip_all "neither $CACHE/linux-source-6.1/MAINTAINERS nor 6.12's is there (tests/kernel-tree.sh [6.12] unpacks them)"

# expect SERIES PATH SECTION LISTS REASON: in linux-source-SERIES, PATH's
# most specific section is SECTION and its lists are LISTS (space
# separated), for REASON; and get_maintainer.pl prints each of LISTS
expect() {
	tree=$CACHE/linux-source-$1
	if [ ! -f "$tree/MAINTAINERS" ]; then
		pass "$1 $2 # SKIP $tree/MAINTAINERS is not there"
		pass "$1 $2: get_maintainer.pl # SKIP no tree"
		return
	fi
	if ! "$LOOKUP" "$tree/MAINTAINERS" "$2" >"$TMP/out" 2>"$TMP/err"; then
		fail "$1 $2: looked up" "$(cat "$TMP/err")"
		return
	fi
	section=$(sed -n 's/^\tsection [-0-9]* //p' "$TMP/out" | head -n 1)
	lists=$(sed -n 's/^\tlist //p' "$TMP/out" | tr '\n' ' ')
	is "$section: ${lists% }" "$3: $4" "$1 $2: $5"

	(cd "$tree" && perl scripts/get_maintainer.pl --no-git \
		--no-git-fallback -f "$2") >"$TMP/gm" 2>"$TMP/err"
	missing=
	for list in $lists; do
		awk -v l="$list" '$1 == l { found = 1 } END { exit !found }' \
			"$TMP/gm" || missing="$missing $list"
	done
	if [ -z "$missing" ] && [ -s "$TMP/gm" ]; then
		pass "$1 $2: get_maintainer.pl prints ${lists% } too"
	else
		fail "$1 $2: get_maintainer.pl prints ${lists% } too" \
		     "it does not print:$missing" "$(cat "$TMP/gm" "$TMP/err")"
	fi
}

while IFS='|' read -r series path section lists reason; do
	expect "$series" "$path" "$section" "$lists" "$reason"
done <<'EOF'
6.1|fs/read_write.c|FILESYSTEMS (VFS and infrastructure)|linux-fsdevel@vger.kernel.org|the VFS section's fs/* owns it; THE REST, which the script adds, is left out
6.12|fs/read_write.c|FILESYSTEMS (VFS and infrastructure)|linux-fsdevel@vger.kernel.org|the VFS section's fs/* owns it; THE REST, which the script adds, is left out
6.1|include/uapi/linux/stat.h|THE REST|linux-kernel@vger.kernel.org|no section names it: THE REST's list, as the script's only one
6.12|include/uapi/linux/stat.h|THE REST|linux-kernel@vger.kernel.org|no section names it: THE REST's list, as the script's only one
6.1|drivers/iio/dac/ltc2688.c|LTC2688 IIO DAC DRIVER|linux-iio@vger.kernel.org|the driver's F: of the file (rank 4) before the IIO subsystem's drivers/iio/ (2)
6.12|drivers/iio/dac/ltc2688.c|LTC2688 IIO DAC DRIVER|linux-iio@vger.kernel.org|the driver's F: of the file (rank 4) before the IIO subsystem's drivers/iio/ (2)
6.1|drivers/vdpa/vdpa.c|VIRTIO CORE AND NET DRIVERS|virtualization@lists.linux-foundation.org|VIRTIO CORE's drivers/vdpa/, its list before it moved
6.12|drivers/vdpa/vdpa.c|VIRTIO CORE AND NET DRIVERS|virtualization@lists.linux.dev|VIRTIO CORE's drivers/vdpa/, its list since it moved to lists.linux.dev
6.1|arch/x86/entry/syscalls/syscall_64.tbl|X86 ENTRY CODE|linux-kernel@vger.kernel.org|arch/x86/entry/ (rank 3) before X86 ARCHITECTURE's arch/x86/ (2); the entry code's list is LKML
6.12|arch/x86/entry/syscalls/syscall_64.tbl|X86 ENTRY CODE|linux-kernel@vger.kernel.org|arch/x86/entry/ (rank 3) before X86 ARCHITECTURE's arch/x86/ (2); the entry code's list is LKML
6.1|drivers/char/random.c|RANDOM NUMBER DRIVER|linux-kernel@vger.kernel.org|an X: takes CHAR and MISC DRIVERS off; the driver's section has no L:, so THE REST's
6.12|drivers/char/random.c|RANDOM NUMBER DRIVER|linux-kernel@vger.kernel.org|an X: takes CHAR and MISC DRIVERS off; the driver's section has no L:, so THE REST's
6.1|drivers/soc/tegra/pmc.c|TEGRA ARCHITECTURE SUPPORT|linux-tegra@vger.kernel.org|owned through the N: regex [^a-z]tegra alone
6.12|drivers/soc/tegra/pmc.c|TEGRA ARCHITECTURE SUPPORT|linux-tegra@vger.kernel.org|owned through the N: regex [^a-z]tegra alone
6.1|kernel/sys_ni.c|ABI/API|linux-api@vger.kernel.org|the syscall stubs are ABI/API's (the script adds 6.1's keyword sections)
6.12|kernel/sys_ni.c|ABI/API|linux-api@vger.kernel.org|the syscall stubs are ABI/API's
6.1|include/asm-generic/bitops.h|GENERIC INCLUDE/ASM HEADER FILES|linux-arch@vger.kernel.org|include/asm-generic/ owns it; 6.1's BITOPS API does not name it yet
6.12|include/asm-generic/bitops.h|BITOPS API|linux-arch@vger.kernel.org|BITOPS API names the file but has no L:, so the next rank's: include/asm-generic/
EOF

done_testing
