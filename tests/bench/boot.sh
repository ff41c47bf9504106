#!/bin/sh
# make bench, QEMU part: boot-to-snapshot wall time of 'kabidiff collect
# --image' on Debian's 6.1 vmlinuz under TCG (target: 10 s on 2 cores), and
# the throughput of the agent's data channel (the second serial port) as
# the agent measured it inside the guest.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"
IMAGE=$("$TOP/tests/debian-vmlinux.sh" --image)

set -- $(measure "$RUNS" "$KABIDIFF" collect --image "$IMAGE" -o "$TMP/snap.json")
KABIDIFF_VERBOSE=1 "$KABIDIFF" collect --image "$IMAGE" -o "$TMP/snap.json" 2>"$TMP/err"
summary=$(sed -n 's/.*kabi-agent: done: //p' "$TMP/err")
echo "kabidiff collect --image ${IMAGE##*/} (QEMU, tcg; best of $RUNS runs)"
awk -v w="$1" -v m="$2" 'BEGIN { printf "  boot to snapshot %6.2f s (target 10 s), peak %.1f MB (of QEMU, the largest process)\n", w, m / 1024 }'
echo "$summary" | awk '{
	nodes = $1; bytes = $3; secs = $6
	printf "  data channel     %d nodes, %d bytes in %.2f s in the guest: %.0f KB/s\n",
	       nodes, bytes, secs, bytes / secs / 1024 }'
