#!/bin/sh
# The host reader of the guest agent's stream (collect --sysfs-stream) on a
# dump of a small tree made with 'kabi-agent --root', and on every kind of
# damage: each is exit 2, one message, no snapshot.
. "$(dirname "$0")/../lib.sh"

AGENT=$TOP/build/kabi-agent
python3 "$TOP/tests/sysfs-materialise.py" "$FIXTURES/sysfs/small.list" "$TMP/sys" ||
	missing_input "could not materialise small.list"
printf '42\n' >"$TMP/sys/kernel/uevent_seqnum"
printf 'always [madvise] never\n' >"$TMP/sys/kernel/mm/transparent_hugepage/enabled"
"$AGENT" --root "$TMP/sys" --prefix /sys >"$TMP/stream" ||
	missing_input "$AGENT --root failed"

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
ASAN=$ASAN_KABIDIFF
if ! not_built "$ASAN"; then
	"$ASAN" collect --sysfs-stream "$TMP/stream" --docs "$FIXTURES/abi" \
		-o "$TMP/asan.json" >"$TMP/asan-out" 2>&1
	is "$?:$(grep -c 'runtime error\|AddressSanitizer' "$TMP/asan-out")" "0:0" \
	   "asan: collect --sysfs-stream reads the agent's dump, no sanitizer report"
	cmp -s "$TMP/snap.json" "$TMP/asan.json" &&
		pass "asan: to the same snapshot" ||
		fail "asan: to the same snapshot" "$(diff "$TMP/snap.json" "$TMP/asan.json")"
fi

# damaged NAME MESSAGE: $TMP/NAME is refused with MESSAGE, nothing written
damaged() {
	run_kabidiff collect --sysfs-stream "$TMP/$1" -o "$TMP/out.json"
	is "$status|$err|$(ls "$TMP/out.json" 2>/dev/null)" "2|kabidiff: $TMP/$1: $2|" \
	   "$1: $2"
}

size=$(wc -c <"$TMP/stream")
head -c $((size - 3)) "$TMP/stream" >"$TMP/truncated"
damaged truncated "byte $((size - 17)): truncated: the frame needs 12 bytes, 9 remain"
head -c $((size - 17)) "$TMP/stream" >"$TMP/no-trailer"
damaged no-trailer "byte $((size - 17)): no trailer: the stream ends after 21 nodes"
python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 0x40
open(sys.argv[2], "wb").write(d)' "$TMP/stream" "$TMP/flipped"
run_kabidiff collect --sysfs-stream "$TMP/flipped" -o "$TMP/out.json"
is "$status:$(ls "$TMP/out.json" 2>/dev/null)" "2:" "a flipped byte: exit 2, nothing written"
case "$err" in
"kabidiff: $TMP/flipped: byte "[0-9]*": "*) pass "and one message saying so ($err)" ;;
*) fail "and one message saying so" "$err" ;;
esac
printf 'not a stream' >"$TMP/garbage"
damaged garbage "no agent stream (12 bytes without the agent's magic): did the guest start the agent?"
cat "$TMP/stream" "$TMP/stream" >"$TMP/twice"
damaged twice "byte $size: $size bytes after the trailer"

# Every rule of "What a reader must refuse" (docs/agent-stream.md): each
# stream of 'stream.py bad' breaks one, its checksum right.  Both builds
# refuse it with exit 2, the message below and no snapshot, and stream.py
# refuses it with the same words.
STREAM="python3 $TOP/tests/agent/stream.py"
$STREAM bad good >"$TMP/good"
for bin in "$KABIDIFF" "$ASAN"; do
	not_built "$bin" && continue
	tag=
	[ "$bin" = "$KABIDIFF" ] || tag="asan: "
	"$bin" collect --sysfs-stream "$TMP/good" -o "$TMP/good.json" >"$TMP/out" 2>&1
	is "$?:$(cat "$TMP/out")" "0:" "${tag}stream.py's good stream is read"
done
n=0
while IFS='	' read -r name message; do
	$STREAM bad "$name" >"$TMP/$name"
	for bin in "$KABIDIFF" "$ASAN"; do
		not_built "$bin" && continue
		tag=
		[ "$bin" = "$KABIDIFF" ] || tag="asan: "
		rm -f "$TMP/out.json"
		"$bin" collect --sysfs-stream "$TMP/$name" -o "$TMP/out.json" \
			>"$TMP/out" 2>"$TMP/err"
		is "$?|$(cat "$TMP/out" "$TMP/err")|$(ls "$TMP/out.json" 2>/dev/null)" \
		   "2|kabidiff: $TMP/$name: $message|" "$tag$name: $message"
	done
	$STREAM verify "$TMP/$name" >"$TMP/out" 2>"$TMP/err"
	is "$?|$(cat "$TMP/out" "$TMP/err")" "2|$TMP/$name: $message" \
	   "stream.py agrees on $name"
	n=$((n + 1))
done <<'EOF'
no-header	byte 8: the first frame is not the header
two-headers	byte 4367: a header that is not first
unknown-frame	byte 4367: unknown frame type 0x58
long-frame	byte 4367: frame length 65537 is over 65536: corrupt
version	byte 8: format version 3, this reader knows 1 to 2
module-v1	byte 4367: a module frame in a stream of version 1
module-short	byte 4367: module 0: its fields run past its length
module-extra	byte 4367: module 0: 1 bytes left over after its fields
module-how	byte 4367: module 0: unknown cause 4
module-no-name	byte 4367: module 0: no name
node-after-module	byte 4440: a node after the modules
flags	byte 8: unknown flags 0x0003
cap	byte 8: value cap 1024, expected 4096
header-short	byte 8: header: its fields run past its length
header-extra	byte 8: header: 1 bytes left over after its fields
node-short	byte 135: node 2: its fields run past its length
node-extra	byte 135: node 2: 1 bytes left over after its fields
same	byte 58: node 0: shares 1 bytes with a previous path of 0
same-long	byte 135: node 2: shares 21 bytes with a previous path of 20
kind	byte 135: node 2: unknown kind 4
status	byte 135: node 2: unknown value status 6
mode	byte 135: node 2: mode 010444 is more than permission bits
relative	byte 58: node 0: path "sys" is not a clean absolute path
empty-path	byte 58: node 0: path "" is not a clean absolute path
root	byte 58: node 0: path "/" is not a clean absolute path
double-slash	byte 135: node 2: path "/sys/kernel//uevent_seqnum" is not a clean absolute path
trailing-slash	byte 58: node 0: path "/sys/" is not a clean absolute path
nul-path	byte 135: node 2: path "/sys/kernel/uevent\x00seqnum" is not a clean absolute path
file-target	byte 135: node 2: a file with a target
dir-target	byte 58: node 0: a dir with a target
nul-target	byte 79: node 1: a target holding a NUL byte
none-value	byte 58: node 0: none with a value
timeout-value	byte 4340: node 5: timeout with a value
short-truncated	byte 176: node 3: truncated at 100 bytes, not 4096
long-truncated	byte 176: node 3: truncated at 4097 bytes, not 4096
over-cap	byte 135: node 2: data of 4097 bytes, over the cap of 4096
error-no-name	byte 4294: node 4: open-error without an errno name
error-bad-name	byte 4294: node 4: open-error without an errno name
dir-value	byte 58: node 0: a dir with a value
link-value	byte 79: node 1: a link with a value
repeated-path	byte 4367: node 6: path "/sys/kernel/uevent_seqnum" came before, as node 2
trailer-short	byte 4367: trailer of 8 bytes, not 12
trailer-extra	byte 4367: trailer of 13 bytes, not 12
count	byte 4367: the trailer counts 7 nodes, the stream holds 6
crc	byte 4367: checksum mismatch: the trailer says 0x00000000, the bytes give 0x3d5b9fa1
after	byte 4384: 1 bytes after the trailer
no-trailer	byte 4367: no trailer: the stream ends after 6 nodes
cut	byte 4367: truncated: the frame needs 12 bytes, 11 remain
cut-head	byte 4367: truncated inside a frame's head
magic	no agent stream (7 bytes without the agent's magic): did the guest start the agent?
bad-magic	no agent stream (4383 bytes without the agent's magic): did the guest start the agent?
EOF
is "$n $($STREAM bad-names - | wc -l)" "$n $((n + 1))" \
   "every bad stream of stream.py but the good one is tried ($n)"

# Every changed byte and every cut of the example of docs/agent-stream.md:
# kabidiff refuses each with the very words of stream.py.
sed -n '/^```hexdump/,/^```$/p' "$TOP/docs/agent-stream.md" | sed '1d;$d' >"$TMP/example.txt"
$STREAM unhex "$TMP/example.txt" >"$TMP/ex"
$STREAM mutants "$TMP/ex" >"$TMP/mutants"
total=0 differ=0
while IFS='	' read -r file message; do
	"$KABIDIFF" collect --sysfs-stream "$file" -o "$TMP/out.json" >/dev/null 2>"$TMP/err"
	got="$?|$(cat "$TMP/err")"
	total=$((total + 1))
	if [ "$got" != "2|kabidiff: $message" ]; then
		differ=$((differ + 1))
		[ $differ -gt 5 ] || echo "# $file: stream.py: $message; kabidiff: $got"
	fi
done <"$TMP/mutants"
is "$differ of $total" "0 of $(( $(wc -c <"$TMP/ex") * 2 ))" \
   "kabidiff and stream.py word alike every changed byte and cut of the example"

done_testing
