#!/bin/sh
# make bench, QEMU part: boot-to-snapshot wall time of 'kabidiff collect
# --image' on Debian's 6.1.0-57 vmlinuz under TCG, on the standard machine
# with the package's modules, which the guest loads for its devices
# (target: 15 s on 2 cores), and on the minimal machine without modules
# (target: 10 s); and the throughput of the agent's data channel (the
# second serial port) as the agent measured it inside the guest.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"
export KABIDIFF_DEBIAN_ABI=6.1.0-57
IMAGE=$("$TOP/tests/debian-vmlinux.sh" --image)
MODULES=$("$TOP/tests/debian-vmlinux.sh" --modules)

echo "kabidiff collect --image ${IMAGE##*/} (QEMU, tcg; best of $RUNS runs)"
# boot LABEL TARGET OPTION...: one line of timings, one of the data channel
boot() {
	label=$1 target=$2
	shift 2
	set -- "$label" "$target" $(measure "$RUNS" "$KABIDIFF" collect --image "$IMAGE" "$@" \
		-o "$TMP/snap.json") "$@"
	label=$1 target=$2 wall=$3 peak=$4
	shift 4
	KABIDIFF_VERBOSE=1 "$KABIDIFF" collect --image "$IMAGE" "$@" \
		-o "$TMP/snap.json" 2>"$TMP/err"
	awk -v l="$label" -v w="$wall" -v m="$peak" -v t="$target" 'BEGIN {
		printf "  %-36s boot to snapshot %6.2f s (target %s s), peak %.1f MB (of QEMU)\n",
		       l, w, t, m / 1024 }'
	sed -n 's/.*kabi-agent: done: //p' "$TMP/err" | awk '{
		nodes = $1; bytes = $3; secs = $6
		printf "  %-36s %d nodes, %d bytes in %.2f s in the guest: %.0f KB/s\n",
		       "", nodes, bytes, secs, bytes / secs / 1024 }'
}
boot "standard machine, package's modules" 15 --modules "$MODULES"
boot "minimal machine, no modules" 10 --machine minimal
