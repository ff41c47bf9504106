#!/bin/sh
# The QEMU sysfs collector on Debian's own 6.1 kernel (the -unsigned
# package's vmlinuz, fetched into the cache), with the guest agent as
# /init: the stream verifies, the tree is complete, known nodes are there
# with the right kind, mode and shape, and two boots give the same snapshot.
# A guest whose /init cannot run panics: that is one error, exit 2.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
IMAGE=$("$TOP/tests/debian-vmlinux.sh" --image) || {
	echo "Bail out! could not fetch Debian's vmlinuz (tests/debian-vmlinux.sh --image)"
	exit 1
}

for boot in 1 2; do
	"$KABIDIFF" collect --image "$IMAGE" --timeout 120 -o "$TMP/boot$boot.json" \
		2>"$TMP/err$boot"
	is "$?:$(cat "$TMP/err$boot")" "0:" "boot $boot of ${IMAGE##*/}: the agent's stream verifies"
done
cmp -s "$TMP/boot1.json" "$TMP/boot2.json" &&
	pass "two boots of the same image give identical snapshots" ||
	fail "two boots of the same image give identical snapshots" \
	     "$(diff "$TMP/boot1.json" "$TMP/boot2.json" | head -20)"

run_checker "the checker of the booted snapshot" python3 - "$TMP/boot1.json" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
nodes = {n["path"]: n for n in snap["sysfs"]}
sys_nodes = sum(p.startswith("/sys") for p in nodes)
proc_nodes = sum(p.startswith("/proc/sys") for p in nodes)
print(("ok" if sys_nodes > 5000 and proc_nodes > 500 else "not ok") +
      f" - {sys_nodes} nodes under /sys, {proc_nodes} under /proc/sys")
def check(path, want, label):
    n = nodes.get(path)
    got = n and {k: n.get(k) for k in want}
    print(("ok" if got == want else "not ok") + f" - {label}")
    if got != want:
        print(f"#   {path}: {n}")
check("/sys/kernel/uevent_seqnum", {"kind": "file", "mode": "0444", "value": {"shape": "uint"}},
      "/sys/kernel/uevent_seqnum is a 0444 file holding an unsigned number")
tty = nodes.get("/sys/class/tty/ttyS0", {})
print(("ok" if tty.get("kind") == "link" and "/devices/" in tty.get("target", "") else "not ok") +
      f" - /sys/class/tty/ttyS0 is a link into /sys/devices ({tty.get('target')})")
check("/proc/sys/kernel/ostype", {"kind": "file", "mode": "0444", "value": {"shape": "word"}},
      "/proc/sys/kernel/ostype is a 0444 file holding a word")
print(("ok" if snap["kernel"].get("release", "").startswith("6.1.0-") else "not ok") +
      f" - the stream names the kernel release {snap['kernel'].get('release')}")
PY

# A guest that has not finished by the timeout is killed
"$KABIDIFF" collect --image "$IMAGE" --timeout 2 -o "$TMP/slow.json" 2>"$TMP/err"
is "$?:$(head -n 1 "$TMP/err"):$(ls "$TMP/slow.json" 2>/dev/null)" \
   "2:kabidiff: $IMAGE: the guest did not finish within 2 s (--timeout):" \
   "a guest still running at --timeout is killed: exit 2, no snapshot"

# An /init the kernel cannot run: it panics, QEMU ends, no stream
printf '\177ELF truncated' >"$TMP/bad-init"
chmod +x "$TMP/bad-init"
KABIDIFF_AGENT=$TMP/bad-init "$KABIDIFF" collect --image "$IMAGE" --timeout 120 \
	-o "$TMP/panic.json" 2>"$TMP/err"
status=$?
is "$status:$(head -n 1 "$TMP/err"):$(ls "$TMP/panic.json" 2>/dev/null)" \
   "2:kabidiff: $IMAGE: no agent stream (0 bytes without the agent's magic): did the guest start the agent?:" \
   "a guest that panics at once: exit 2, no snapshot"
grep -q 'Kernel panic' "$TMP/err" &&
	pass "the message quotes the console's panic" ||
	fail "the message quotes the console's panic" "$(cat "$TMP/err")"

done_testing
