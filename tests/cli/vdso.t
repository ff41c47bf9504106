#!/bin/sh
# The vdso collector on the fixture images (tests/fixtures/vdso): each
# image's symbols, versions, prototypes and types; the diff of vdso64.so and
# its next release judged by a stable/vdso entry; a build directory's images
# found without --vdso; and bad inputs: one line, exit 2, no output file.
. "$(dirname "$0")/../lib.sh"

V=$FIXTURES/vdso

for image in vdso64 vdso32 vdsox32; do
	run_kabidiff collect --vdso "$V/$image.so" -o "$TMP/$image.json"
	is "$status:$err" "0:" "collect --vdso $image.so"
done

run_checker "the checker of the images" python3 - "$TMP" <<'PY'
import json, sys

def check(ok, name, *evidence):
    print(("ok" if ok else "not ok") + " - " + name)
    for line in evidence if not ok else ():
        print("#   " + line)

def load(image):
    return json.load(open("%s/%s.json" % (sys.argv[1], image)))

for image in ("vdso64", "vdso32", "vdsox32"):
    s = load(image)
    syms = {v["name"]: v for v in s["vdso"]}
    check(all(v["image"] == image for v in s["vdso"]),
          "%s: the image is told by the ELF class and machine" % image)
    check(syms["__vdso_clock_gettime"]["version"] == "LINUX_2.6",
          "%s: __vdso_clock_gettime is at LINUX_2.6" % image)
    proto = syms["__vdso_clock_gettime"]
    check(proto["return"] == {"type": image + ":int"} and
          [a["type"] for a in proto["args"]] ==
          [image + ":__kernel_clockid_t", image + ":struct __kernel_timespec *"],
          "%s: __vdso_clock_gettime's prototype, its types prefixed" % image,
          json.dumps(proto))
    tv = s["types"][image + ":struct __kernel_old_timeval"]
    want = 16 if image == "vdso64" else 8
    check(tv["size"] == want and tv["members"][1]["offset"] == want // 2,
          "%s: struct __kernel_old_timeval is %d bytes: longs of the image's ABI"
          % (image, want), json.dumps(tv))
    check(not any(":" not in name for name in s["types"]),
          "%s: every type has the image's prefix" % image)
    # vdso.c, compiled in the fixture's directory, defines them
    check(tv.get("file") == "vdso.c" and
          "file" not in s["types"][image + ":int"],
          "%s: struct __kernel_old_timeval is declared in vdso.c, int nowhere"
          % image, json.dumps(tv.get("file")))

s64 = {v["name"]: v for v in load("vdso64")["vdso"]}
check(s64["clock_gettime"].get("return") == s64["__vdso_clock_gettime"]["return"] and
      s64["clock_gettime"]["args"] == s64["__vdso_clock_gettime"]["args"],
      "vdso64: the weak alias clock_gettime has __vdso_clock_gettime's prototype")
s32 = {v["name"]: v for v in load("vdso32")["vdso"]}
check(sorted(s32) == ["__kernel_vsyscall", "__vdso_clock_getres",
                      "__vdso_clock_gettime", "__vdso_getcpu",
                      "__vdso_gettimeofday", "__vdso_time"],
      "vdso32: the six exported symbols, not the version names", *sorted(s32))
check(s32["__kernel_vsyscall"] == {"image": "vdso32", "name": "__kernel_vsyscall",
                                   "version": "LINUX_2.5"},
      "vdso32: __kernel_vsyscall, in assembly, is at LINUX_2.5 without a prototype",
      json.dumps(s32["__kernel_vsyscall"]))
PY

run_kabidiff show "$TMP/vdso32.json"
is "$(printf '%s\n' "$out" | grep '^vdso')" \
   "vdso        vdso32 6 symbols, 5 with prototypes (LINUX_2.5, LINUX_2.6)" \
   "show counts the symbols and versions of an image"

# The next release of vdso64, judged by the kernel's stable/vdso entry
mkdir -p "$TMP/tree/Documentation/ABI/stable"
cat >"$TMP/tree/Documentation/ABI/stable/vdso" <<'EOF'
What:		vDSO
Date:		July 2011
KernelVersion:	3.0
Contact:	Andy Lutomirski <luto@kernel.org>
Description:
	The vDSO uses symbol versioning; whenever you request a symbol from
	the vDSO, specify the version you are expecting.
EOF
for side in old new; do
	image=$V/vdso64.so
	[ "$side" = new ] && image=$V/vdso64-new.so
	run_kabidiff collect --vdso "$image" --vdso "$V/vdso32.so" \
		--docs "$TMP/tree" -o "$TMP/$side.json"
	is "$status:$err" "0:" "collect the $side vDSO images with the docs"
done
run_kabidiff diff --format json "$TMP/old.json" "$TMP/new.json"
is "$status" 1 "vdso64 -> vdso64-new: exit 1, for the breaks"
printf '%s\n' "$out" >"$TMP/report.json"
python3 "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" "$TMP/report.json" >"$TMP/schema"
is "$?:$(grep -c "^not ok" "$TMP/schema")" "0:0" "the report validates against docs/report.schema.json"
python3 "$TOP/tests/cli/schema.py" "$TOP/docs/snapshot.schema.json" "$TMP/old.json" \
	"$TMP/new.json" "$TMP/vdso32.json" "$TMP/vdsox32.json" >"$TMP/schema"
is "$?:$(grep -c "^not ok" "$TMP/schema")" "0:0" "the snapshots validate against docs/snapshot.schema.json"
run_kabidiff diff --format markdown "$TMP/old.json" "$TMP/new.json"
printf '%s\n' "$out" | grep -qF '| stable | vdso-symbol-reversioned | vdso64/\_\_vdso\_getcpu | LINUX\_2.6 | LINUX\_2.7 |' &&
	pass "the Markdown report has the vDSO findings" ||
	fail "the Markdown report has the vDSO findings" "$out"
run_checker "the checker of the vDSO report" python3 - "$TMP/report.json" <<'PY'
import json, sys

def check(ok, name, *evidence):
    print(("ok" if ok else "not ok") + " - " + name)
    for line in evidence if not ok else ():
        print("#   " + line)

r = json.load(open(sys.argv[1]))
got = sorted((f["verdict"], f["kind"], f["subject"], f["old"], f["new"])
             for f in r["findings"])
want = sorted([
    ("break", "vdso-symbol-removed", "vdso64/__vdso_time", "LINUX_2.6", None),
    ("break", "vdso-symbol-reversioned", "vdso64/__vdso_getcpu",
     "LINUX_2.6", "LINUX_2.7"),
    # an int argument became a long long: another size
    ("break", "vdso-prototype-changed", "vdso64/__vdso_clock_getres",
     "vdso64:int (vdso64:__kernel_clockid_t clock, vdso64:struct __kernel_timespec * res)",
     "vdso64:int (vdso64:long long int clock, vdso64:struct __kernel_timespec * res)"),
    # no prototype reaches it any more
    ("break", "type-removed", "vdso64:struct timezone", "struct, 8 bytes", None),
    # a pointer that points elsewhere: worth a look, on the alias too
    ("warn", "vdso-arg-pointee-changed", "vdso64/__vdso_gettimeofday",
     "vdso64:struct timezone * tz (arg 2)", "void * tz (arg 2)"),
    ("warn", "vdso-arg-pointee-changed", "vdso64/gettimeofday",
     "vdso64:struct timezone * tz (arg 2)", "void * tz (arg 2)"),
    ("note", "vdso-symbol-added", "vdso64/__vdso_getrandom", None, "LINUX_2.6"),
    ("note", "type-added", "vdso64:__kernel_size_t", None,
     "typedef vdso64:long unsigned int"),
])
check(got == want, "exactly the planted changes, and none of the unchanged vdso32",
      *["got: %s" % (g,) for g in got])
check(all(f["level"] == "stable" and f["doc"]["file"] == "stable/vdso"
          for f in r["findings"]),
      "every finding is judged by stable/vdso, the types' too")
check(r["compared"] == ["vdso", "types", "docs"], "compared: vdso, types, docs",
      json.dumps(r["compared"]))
PY

# A build directory's images are found without --vdso
mkdir -p "$TMP/build/arch/x86/entry/vdso"
cp "$FIXTURES/vmlinux/mini.elf" "$TMP/build/vmlinux"
cp "$V/vdso64.so" "$TMP/build/arch/x86/entry/vdso/vdso64.so.dbg"
cp "$V/vdsox32.so" "$TMP/build/arch/x86/entry/vdso/vdsox32.so.dbg"
run_kabidiff collect --no-sysfs --docs "$TMP/tree" "$TMP/build"
printf '%s\n' "$out" >"$TMP/build.json"
is "$status:$(python3 -c 'import json, sys
print(" ".join(sorted({v["image"] for v in json.load(open(sys.argv[1]))["vdso"]})))' "$TMP/build.json")" \
   "0:vdso64 vdsox32" "BUILD_DIR: the images arch/x86/entry/vdso has"

# bad NAME MESSAGE [ARGS]: collecting $TMP/NAME fails with MESSAGE, no file
bad() {
	run_kabidiff collect --vdso "$TMP/$1" -o "$TMP/out.json"
	is "$status|$err|$(ls "$TMP/out.json" 2>/dev/null)" "2|kabidiff: $TMP/$1: $2|" \
	   "bad input $1: $2"
}
: >"$TMP/empty"
bad empty "not an ELF file, so not a vDSO image"
cp "$FIXTURES/vmlinux/mini.elf" "$TMP/vmlinux"
bad vmlinux "not a vDSO image of an x86 kernel (ELF type 2, machine 62); use arch/x86/entry/vdso/vdso*.so.dbg of a build directory, or usr/lib/debug/lib/modules/RELEASE/vdso/vdso*.so of a -dbg package"
head -c 3000 "$V/vdso32.so" >"$TMP/truncated"
bad truncated "truncated: the ELF headers describe more than its 3000 bytes"
bad none "No such file or directory"
# vdso64.so with the .gnu.version entry of its symbol 1 set to 9, which no
# version definition has
python3 - "$V/vdso64.so" "$TMP/badversion" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum = struct.unpack_from("<HH", b, 0x3a)
for i in range(shnum):
    sh = shoff + i * shentsize
    sh_type, = struct.unpack_from("<I", b, sh + 4)
    if sh_type == 0x6fffffff:		# SHT_GNU_versym
        offset, = struct.unpack_from("<Q", b, sh + 0x18)
        struct.pack_into("<H", b, offset + 2, 9)
open(sys.argv[2], "wb").write(b)
PY
name=$(readelf -W --dyn-syms "$V/vdso64.so" | awk '$1 == "1:" { sub(/@.*/, "", $8); print $8 }')
bad badversion "symbol $name has version 9, which .gnu.version_d does not define"

run_kabidiff collect --vdso "$V/vdso32.so" --vdso "$V/vdso32.so"
is "$status|$err" "2|kabidiff: $V/vdso32.so: a second vdso32 image: give one file of each image" \
   "the same image twice is refused"

strip --strip-debug -o "$TMP/stripped" "$V/vdso32.so"
run_kabidiff collect --vdso "$TMP/stripped"
is "$status|$err" "0|kabidiff: warning: $TMP/stripped: no DWARF (no DWARF information): the vdso32 symbols are collected without prototypes; the image with debug info is arch/x86/entry/vdso/vdso32.so.dbg in a build directory" \
   "an image without DWARF: a warning"
printf '%s\n' "$out" | grep -q '"return"' &&
	fail "an image without DWARF: no prototypes" ||
	pass "an image without DWARF: no prototypes"

done_testing
