#!/bin/sh
# The whole tool on the fixture kernels of kernel-patches/: both built
# (cached after the first run), booted in QEMU and collected, then judged.
# The report holds exactly the changes the break series plants, with the
# policy's verdicts (golden: tests/fixtures/kernels/e2e.txt), none of the
# vDSO, which the series leaves alone, and the old snapshot holds the
# fixture's interfaces.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
DIR=$("$TOP/kernel-patches/build-fixtures.sh" | tail -n 1) && [ -d "$DIR/old" ] || {
	missing_input "the fixture kernels did not build (kernel-patches/build-fixtures.sh)"
}

for side in old new; do
	"$KABIDIFF" collect --timeout 120 -o "$TMP/$side.json" "$DIR/$side" 2>"$TMP/err"
	is "$?" 0 "collect the $side fixture kernel: vmlinux, boot, docs"
done

run_checker "the checker of the old snapshot" python3 - "$TMP/old.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
nodes = {n["path"]: n for n in s["sysfs"]}
def check(label, got, want):
    print(("ok" if got == want else "not ok") + " - old snapshot: " + label)
    if got != want:
        print("#   got:  %r\n#   want: %r" % (got, want))
attrs = {p.rsplit("/", 1)[1]: (n["kind"], n["mode"]) for p, n in nodes.items()
         if p.startswith("/sys/kernel/kabi_selftest/")}
check("the fixture's attributes, one per level and one undocumented", attrs, {
    "stable_value": ("file", "0444"), "testing_locked": ("file", "0644"),
    "unstable_calls": ("file", "0444"), "obsolete_hexvalue": ("file", "0444"),
    "private_args_size": ("file", "0444"),
    "undocumented_flags": ("file", "0444")})
param = nodes.get("/sys/module/kabi_selftest/parameters/initial_value")
check("the module parameter", param and (param["kind"], param["mode"]),
      ("file", "0444"))
sc = [c for c in s["syscalls"] if c["name"] == "kabi_selftest"]
# ia32 runs the native entry point (syscall_32.tbl has no compat one), whose
# pointer its programs pass in 4 bytes
check("the syscall with its typed argument, in x86_64 and in ia32",
      [(c["abi"], c["nr"], c["implemented"], c["args"]) for c in sc],
      [("ia32", 451, True, [{"name": "uargs",
                              "type": "struct kabi_selftest_args *",
                              "abi_size": 4}]),
       ("x86_64", 451, True, [{"name": "uargs",
                                 "type": "struct kabi_selftest_args *"}])])
t = s["types"].get("struct kabi_selftest_args", {})
check("the argument's layout",
      (t.get("size"), [(m["name"], m["type"], m["offset"], m["size"])
                       for m in t.get("members", [])]),
      (32, [("version", "__u32", 0, 4), ("flags", "__u32", 4, 4),
            ("value", "__u64", 8, 8), ("reserved", "__u64[2]", 16, 16)]))
# the build directory's vDSO images (IA32_EMULATION, no X86_X32_ABI), which
# the break series leaves alone: the report's vDSO-neutral control
vdso = {(v["image"], v["name"]): v for v in s.get("vdso", [])}
check("the vDSO images of the build directory",
      sorted({image for image, _ in vdso}), ["vdso32", "vdso64"])
gettime = vdso.get(("vdso32", "__vdso_clock_gettime"), {})
check("vdso32's __vdso_clock_gettime, at LINUX_2.6, with its i386 prototype",
      (gettime.get("version"), gettime.get("return"),
       [a["type"] for a in gettime.get("args", [])]),
      ("LINUX_2.6", {"type": "vdso32:int"},
       ["vdso32:clockid_t", "vdso32:struct old_timespec32 *"]))
check("vdso32's __kernel_vsyscall, at LINUX_2.5, in assembly: no prototype",
      vdso.get(("vdso32", "__kernel_vsyscall")),
      {"image": "vdso32", "name": "__kernel_vsyscall", "version": "LINUX_2.5"})
PY

# The build ids in the first line are the one thing two builds of the same
# tree do not share (the cache's path is in the DWARF): the golden report
# has "(build id ...)" there, and the check that they are ids is apart.
BUILD_ID='s/(build id [0-9a-f]\{12\})/(build id ...)/g'

run_kabidiff diff --color=never --verdict note "$TMP/old.json" "$TMP/new.json"
is "$status" 1 "kabidiff old new: exit 1, the planted breaks"
printf '%s\n' "$out" | head -n 1 |
	grep -q '^kabidiff: 6\.1\.[0-9]*-kabi-old (build id [0-9a-f]\{12\}) -> 6\.1\.[0-9]*-kabi-new (build id [0-9a-f]\{12\}); compared: sysfs, syscalls, vdso, types, docs$'
is "$?" 0 "the report's first line names both kernels, their build ids and the parts"
# (kernel-patches/ builds with fixed KBUILD_BUILD_TIMESTAMPs, from no git
# work tree: no commit)
printf '%s\n' "$out" | sed -n 2,4p | sed 's/build id [0-9a-f]\{40\}/build id .../' >"$TMP/details"
is "$(cat "$TMP/details")" "  old:   6.1.192-kabi-old, #1 Mon, 6 Jan 2025 11:00:00 +0000, build id ..., machine standard, from $TMP/old.json
  new:   6.1.192-kabi-new, #1 Mon, 13 Jan 2025 17:00:00 +0000, build id ..., machine standard, from $TMP/new.json
  rules: policy default, waivers none" \
   "the details under it: version, build id and machine of each, the rules"
# the golden report without them: their build ids differ
drop_details | sed "$BUILD_ID" >"$TMP/report"
if cmp -s "$TMP/report" "$FIXTURES/kernels/e2e.txt"; then
	pass "the report is exactly the golden one"
else
	fail "the report is exactly the golden one" \
	     "$(diff "$FIXTURES/kernels/e2e.txt" "$TMP/report" | head -40)"
fi

# whom to tell: the planted syscall and type breaks to linux-api@ (their
# entry, stable/syscalls, names no Contact:), the sysfs ones to the
# contact of the entries that document them
run_kabidiff diff --notify "$TMP/old.json" "$TMP/new.json"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
   "To: linux-api@vger.kernel.org, kabidiff developers <kabidiff@example.org>" \
   "--notify: a To: line of both recipients"
is "$(printf '%s\n' "$out" | awk '/^[^ ]/ { who = $0 } /^  break / { n[who]++ } END { for (w in n) print n[w], w }' | sort -n)" \
   "2 kabidiff developers <kabidiff@example.org>
6 linux-api@vger.kernel.org" \
   "--notify: each with its breaks"

run_kabidiff "$TMP/old.json" "$TMP/old.json"
is "$status:$out" "0:" "kabidiff old old: silent, exit 0"

# the build directories themselves, collected on the fly
"$KABIDIFF" diff --color=never --verdict note "$DIR/old" "$DIR/new" >"$TMP/out" 2>/dev/null
is "$?" 1 "kabidiff OLD_BUILD NEW_BUILD: exit 1"
out=$(cat "$TMP/out")
drop_details | sed "$BUILD_ID" | cmp -s - "$FIXTURES/kernels/e2e.txt"
is "$?" 0 "and the same report"

done_testing
