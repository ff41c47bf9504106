#!/bin/sh
# make bench, vmlinux part: 'kabidiff collect --vmlinux' against pahole and
# libabigail's abidw, measured in this run on the same Debian 6.1 vmlinux
# (630 MB, DWARF 5).  kabidiff reads only the compilation units that hold
# the syscalls; the others read all of the DWARF, so the comparison is of
# the tools as one would use them for this job, not of equal work.
set -eu

. "$(dirname "$0")/lib.sh"
VMLINUX=$("$TOP/tests/debian-vmlinux.sh")

set -- $(measure "$RUNS" "$KABIDIFF" collect --vmlinux "$VMLINUX" -o "$TMP/snap.json") \
       $(measure 1 pahole -F dwarf --sizes "$VMLINUX")
echo "kabidiff collect --vmlinux vs pahole and abidw on ${VMLINUX##*/} (best of $RUNS / 1 run)"
printf '%-36s %9s %10s %16s\n' "tool" "wall" "peak" "kabidiff's share"
awk -v kw="$1" -v km="$2" -v pw="$3" -v pm="$4" 'BEGIN {
	printf "%-36s %7.2f s %7.1f MB\n", "kabidiff collect --vmlinux", kw, km / 1024
	printf "%-36s %7.2f s %7.1f MB %6.3f wall, %5.3f memory (target 0.1, 0.2)\n",
	       "pahole -F dwarf --sizes", pw, pm / 1024, kw / pw, km / pm }'
if command -v abidw >/dev/null; then
	set -- "$1" "$2" $(measure 1 abidw --noout "$VMLINUX")
	awk -v kw="$1" -v km="$2" -v aw="$3" -v am="$4" 'BEGIN {
		printf "%-36s %7.2f s %7.1f MB %6.3f wall, %5.3f memory\n",
		       "abidw --noout", aw, am / 1024, kw / aw, km / am }'
else
	echo "abidw: not installed ('make bench' installs abigail-tools)"
fi
