#!/bin/sh
# make bench, vmlinux part: 'kabidiff collect --vmlinux' against pahole and
# libabigail's abidw, measured in this run on the same Debian 6.1 vmlinux
# (630 MB, DWARF 5) and the three vDSO images of its -dbg package.
# kabidiff decodes the x86_64, ia32 and x32 syscall switches, types every
# number of the three ABIs (reading only the compilation units that hold
# them) and reads each vDSO image's symbols and prototypes; the others read
# all of the DWARF, so the comparison is of the tools as one would use them
# for this job, not of equal work.  The target is 1/20 of pahole's time.
set -eu

. "$(dirname "$0")/lib.sh"
VMLINUX=$("$TOP/tests/debian-vmlinux.sh")
VDSO=$("$TOP/tests/debian-vmlinux.sh" --vdso)

set -- $(measure "$RUNS" "$KABIDIFF" collect --vmlinux "$VMLINUX" \
		--vdso "$VDSO/vdso64.so" --vdso "$VDSO/vdso32.so" \
		--vdso "$VDSO/vdsox32.so" -o "$TMP/snap.json") \
       $(measure 1 pahole -F dwarf --sizes "$VMLINUX")
echo "kabidiff collect --vmlinux (x86_64, ia32, x32) --vdso (3 images) vs pahole and abidw on ${VMLINUX##*/} (best of $RUNS / 1 run)"
printf '%-36s %9s %10s %16s\n' "tool" "wall" "peak" "kabidiff's share"
awk -v kw="$1" -v km="$2" -v pw="$3" -v pm="$4" 'BEGIN {
	printf "%-36s %7.2f s %7.1f MB\n", "kabidiff collect --vmlinux --vdso", kw, km / 1024
	printf "%-36s %7.2f s %7.1f MB %6.3f wall, %5.3f memory (target 0.05, 0.2)\n",
	       "pahole -F dwarf --sizes", pw, pm / 1024, kw / pw, km / pm }'
if command -v abidw >/dev/null; then
	set -- "$1" "$2" $(measure 1 abidw --noout "$VMLINUX")
	awk -v kw="$1" -v km="$2" -v aw="$3" -v am="$4" 'BEGIN {
		printf "%-36s %7.2f s %7.1f MB %6.3f wall, %5.3f memory\n",
		       "abidw --noout", aw, am / 1024, kw / aw, km / am }'
else
	echo "abidw: not installed ('make bench' installs abigail-tools)"
fi
