#!/bin/sh
# The host reader of the guest agent's stream (collect --sysfs-stream) on a
# dump of a small tree made with 'kabi-agent --root', and on every kind of
# damage: each is exit 2, one message, no snapshot.
. "$(dirname "$0")/../lib.sh"

AGENT=$TOP/build/kabi-agent
python3 "$TOP/tests/sysfs-materialise.py" "$FIXTURES/sysfs/small.list" "$TMP/sys" ||
	{ echo "Bail out! could not materialise small.list"; exit 1; }
printf '42\n' >"$TMP/sys/kernel/uevent_seqnum"
printf 'always [madvise] never\n' >"$TMP/sys/kernel/mm/transparent_hugepage/enabled"
"$AGENT" --root "$TMP/sys" --prefix /sys >"$TMP/stream" ||
	{ echo "Bail out! $AGENT --root failed"; exit 1; }

run_kabidiff collect --sysfs-stream "$TMP/stream" --docs "$FIXTURES/abi" -o "$TMP/snap.json"
is "$status" 0 "collect --sysfs-stream reads the agent's dump"
run_checker "the checker of the stream's snapshot" python3 - "$TMP/snap.json" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
nodes = {n["path"]: n for n in snap["sysfs"]}
print(("ok" if len(nodes) == 21 else "not ok") + f" - all 21 nodes of the tree ({len(nodes)})")
def shape(p):
    return nodes[p].get("value", {}).get("shape")
print(("ok" if shape("/sys/kernel/uevent_seqnum") == "uint" else "not ok") + " - '42' is uint")
print(("ok" if shape("/sys/kernel/mm/transparent_hugepage/enabled") == "choice" else "not ok") +
      " - 'always [madvise] never' is a choice")
print(("ok" if shape("/sys/kernel/oops_count") == "empty" else "not ok") + " - an empty file is empty")
link = nodes["/sys/class/net/eth0"]
print(("ok" if link["kind"] == "link" and link["target"].endswith("net/eth0") else "not ok") +
      " - links keep their targets")
print(("ok" if snap["coverage"] == {"sysfs_nodes": 8, "documented": 5} else "not ok") +
      f" - coverage from the stream and the docs: {snap['coverage']}")
PY

# The sanitizer build reads the same dump to the same snapshot, silently.
ASAN=$TOP/build/asan/kabidiff
"$ASAN" collect --sysfs-stream "$TMP/stream" --docs "$FIXTURES/abi" \
	-o "$TMP/asan.json" >"$TMP/asan-out" 2>&1
is "$?:$(grep -c 'runtime error\|AddressSanitizer' "$TMP/asan-out")" "0:0" \
   "asan: collect --sysfs-stream reads the agent's dump, no sanitizer report"
cmp -s "$TMP/snap.json" "$TMP/asan.json" &&
	pass "asan: to the same snapshot" ||
	fail "asan: to the same snapshot" "$(diff "$TMP/snap.json" "$TMP/asan.json")"

# damaged NAME MESSAGE: $TMP/NAME is refused with MESSAGE, nothing written
damaged() {
	run_kabidiff collect --sysfs-stream "$TMP/$1" -o "$TMP/out.json"
	is "$status|$err|$(ls "$TMP/out.json" 2>/dev/null)" "2|kabidiff: $TMP/$1: $2|" \
	   "$1: $2"
}

size=$(wc -c <"$TMP/stream")
head -c $((size - 3)) "$TMP/stream" >"$TMP/truncated"
damaged truncated "the agent's stream is corrupt or cut short: a frame longer than what is left"
head -c $((size - 17)) "$TMP/stream" >"$TMP/no-trailer"
damaged no-trailer "the agent's stream is corrupt or cut short: it ends before the trailer"
python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 0x40
open(sys.argv[2], "wb").write(d)' "$TMP/stream" "$TMP/flipped"
run_kabidiff collect --sysfs-stream "$TMP/flipped" -o "$TMP/out.json"
is "$status:$(ls "$TMP/out.json" 2>/dev/null)" "2:" "a flipped byte: exit 2, nothing written"
case "$err" in
"kabidiff: $TMP/flipped: the agent's stream is corrupt or cut short: "*) pass "and one message saying so ($err)" ;;
*) fail "and one message saying so" "$err" ;;
esac
printf 'not a stream' >"$TMP/garbage"
damaged garbage "no agent stream (12 bytes without the agent's magic): did the guest start the agent?"
cat "$TMP/stream" "$TMP/stream" >"$TMP/twice"
damaged twice "the agent's stream is corrupt or cut short: bytes after the trailer"

done_testing
