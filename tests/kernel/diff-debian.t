#!/bin/sh
# kabidiff on two real kernels: Debian's 6.1.0-47 and 6.1.0-57 (vmlinux from
# the -dbg packages, booted vmlinuz and modules from the -unsigned ones,
# on the standard machine, both judged by the documentation of
# linux-source-6.1).  Ten point releases of a stable kernel must not break
# its ABI: exit 0, and only the changes these two really have, slab caches
# merged differently and a new dependency between two virtio modules.
# Each snapshot against itself is silent.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
TREE=$("$TOP/tests/kernel-tree.sh") || {
	missing_input "could not unpack linux-source-6.1 (tests/kernel-tree.sh)"
}

for abi in 6.1.0-47 6.1.0-57; do
	vmlinux=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh") &&
	image=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh" --image) &&
	modules=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh" --modules) || {
		missing_input "could not fetch Debian's $abi kernel (tests/debian-vmlinux.sh)"
	}
	"$KABIDIFF" collect --vmlinux "$vmlinux" --image "$image" \
		--modules "$modules" --docs "$TREE" --timeout 120 \
		-o "$TMP/$abi.json" 2>"$TMP/err"
	is "$?" 0 "collect $abi: vmlinux, boot with its modules, and docs"
done

run_kabidiff diff --format json "$TMP/6.1.0-47.json" "$TMP/6.1.0-57.json"
is "$status" 0 "6.1.0-47 -> 6.1.0-57: no break, exit 0"
printf '%s\n' "$out" >"$TMP/report.json"
run_checker "the checker of the 47 -> 57 report" python3 - "$TMP/report.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
print(("ok" if r["compared"] == ["sysfs", "syscalls", "types", "docs"] else "not ok")
      + " - every part compared: " + ", ".join(r["compared"]))
kinds = collections.Counter((f["verdict"], f["kind"]) for f in r["findings"])
# 6.1.0-57's virtio.ko has depends=virtio_ring, 6.1.0-47's none (their
# .modinfo), so virtio_ring gained a holder
want = {("warn", "link-target-changed"): 2, ("note", "node-moved"): 3,
        ("note", "node-added"): 1}
print(("ok" if kinds == want else "not ok") +
      " - 2 slab alias links warn, 3 merged slab caches moved, 1 holder added")
for (verdict, kind), n in sorted(kinds.items()):
    print(f"#   {n} {verdict} {kind}")
subjects = {f["subject"].rsplit("/", 1)[0] for f in r["findings"]}
print(("ok" if subjects == {"/sys/kernel/slab", "/sys/module/virtio_ring/holders"}
       else "not ok") + " - under /sys/kernel/slab, and virtio_ring's holder virtio")
PY

run_kabidiff "$TMP/6.1.0-57.json" "$TMP/6.1.0-57.json"
is "$status:$out:$err" "0::" "6.1.0-57 against itself: silent, exit 0"

done_testing
