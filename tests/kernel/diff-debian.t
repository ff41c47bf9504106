#!/bin/sh
# kabidiff on two real kernels of one series: the oldest and the newest
# ABI of Debian's 6.1 the archive has (6.1.0-47 and 6.1.0-57, ten point
# releases apart, when this was written; vmlinux from the -dbg packages,
# booted vmlinuz and modules from the -unsigned ones, on the standard
# machine, both judged by the documentation of linux-source-6.1).  Point
# releases of a stable kernel must not break its ABI: exit 0, and every
# change is one of sysfs, none of the syscalls, their types or the docs;
# each is printed for review.  On the pair they were reviewed on, the changes are
# exactly those these two really have: slab caches merged differently and
# a new dependency between two virtio modules.  Each snapshot against
# itself is silent.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
TREE=$("$TOP/tests/kernel-tree.sh") || {
	missing_input "could not unpack linux-source-6.1 (tests/kernel-tree.sh)"
}

# the ends of what the archive has, a pair however it moves
set -- $(series_abis 6.1)
[ $# -ge 2 ] ||
	missing_input "the archive has ${1:-no Debian 6.1 kernel}${1:+ and no other 6.1 kernel} to compare (apt-cache pkgnames linux-image-6.1.)"
OLD=$1
shift $(($# - 1))
NEW=$1
echo "# the pair here: $OLD -> $NEW"
if reviewed "the 6.1 pair" "$OLD $NEW" "6.1.0-47 6.1.0-57"; then
	expect=exact
else
	expect=any
fi

for abi in "$OLD" "$NEW"; do
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

run_kabidiff diff --format json "$TMP/$OLD.json" "$TMP/$NEW.json"
is "$status" 0 "$OLD -> $NEW: no break, exit 0"
printf '%s\n' "$out" >"$TMP/report.json"
run_checker "the checker of the $OLD -> $NEW report" python3 - "$TMP/report.json" \
	"$expect" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
# exact: the pair the changes were reviewed on
exact = sys.argv[2] == "exact"

def check(ok, name, *evidence):
    print(("ok" if ok else "not ok") + " - " + name)
    for line in evidence if not ok else ():
        print("#   " + line)

check(r["compared"] == ["sysfs", "syscalls", "types", "docs"],
      "every part compared: " + ", ".join(r["compared"]))
# one series, one tree: its syscalls, their types and the docs stay
other = [f for f in r["findings"] if not f["subject"].startswith("/sys/")]
check(not other, "every change is one of sysfs",
      *["%s %s %s" % (f["verdict"], f["kind"], f["subject"]) for f in other])
kinds = collections.Counter((f["verdict"], f["kind"]) for f in r["findings"])
if exact:
    # 6.1.0-57's virtio.ko has depends=virtio_ring, 6.1.0-47's none (their
    # .modinfo), so virtio_ring gained a holder
    # the f2fs disk's four GC thread attributes, read on a read-only mount
    # (no GC thread), change shape between the two 6.1 stable releases, a
    # note; f2fs_dic_entry is one more merged slab alias
    want = {("warn", "link-target-changed"): 3, ("note", "node-moved"): 3,
            ("note", "node-added"): 1, ("note", "value-shape-widened"): 4}
    check(kinds == want,
          "3 slab alias links warn, 3 merged slab caches moved, 1 holder added, 4 f2fs GC values widened",
          *["%d %s %s" % (n, v, k) for (v, k), n in sorted(kinds.items())])
    subjects = {f["subject"].rsplit("/", 1)[0] for f in r["findings"]}
    check(subjects == {"/sys/kernel/slab", "/sys/module/virtio_ring/holders",
                       "/sys/fs/f2fs/vdb"},
          "under /sys/kernel/slab and /sys/fs/f2fs/vdb, and virtio_ring's holder virtio",
          *sorted(subjects))
# not a check: what a reviewer reads
for (verdict, kind), n in sorted(kinds.items()):
    print(f"# {n} {verdict} {kind}")
for f in r["findings"]:
    print(f"#   {f['verdict']} {f['kind']} {f['subject']}")
PY

run_kabidiff "$TMP/$NEW.json" "$TMP/$NEW.json"
is "$status:$out:$err" "0::" "$NEW against itself: silent, exit 0"

done_testing
