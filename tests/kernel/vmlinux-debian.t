#!/bin/sh
# The vmlinux collector on Debian's own 6.1 kernel, or 6.12 with
# KABIDIFF_DEBIAN_ABI=6.12 (the newest ABI of the series the archive has:
# the -dbg package's vmlinux with DWARF, fetched into the cache): the
# x86_64 table agrees with the syscall_64.tbl of its series' linux-source
# number by number, every implemented syscall has a DWARF signature whose
# argument count the ftrace metadata confirms, the ia32 and x32 numbers
# have the signatures of what they run (compat ones over compat types),
# syscalls and types have the files of the tree that declare them, and the
# layouts of the UAPI structs, native and compat, agree with pahole's.
. "$(dirname "$0")/../lib.sh"

VMLINUX=$("$TOP/tests/debian-vmlinux.sh") || {
	missing_input "could not fetch Debian's vmlinux (tests/debian-vmlinux.sh)"
}
# the tree of the vmlinux's series: vmlinux-6.12.118+deb12-amd64 is 6.12's
SERIES=$(basename "$VMLINUX" | sed -n 's/^vmlinux-\(6\.[0-9]*\)[.-].*/\1/p')
TREE=$("$TOP/tests/kernel-tree.sh" "${SERIES:-6.1}") || {
	missing_input "could not unpack linux-source-${SERIES:-6.1} (tests/kernel-tree.sh)"
}
echo "# Debian's kernel here: ${VMLINUX##*/}, with linux-source-${SERIES:-6.1} $(tree_version "$TREE")"
TBL=$TREE/arch/x86/entry/syscalls/syscall_64.tbl

"$KABIDIFF" collect --vmlinux "$VMLINUX" --docs "$TREE" -o "$TMP/snap.json" 2>"$TMP/err"
is "$?:$(grep -v 'warnings about the ABI documentation' "$TMP/err")" "0:" \
   "collect --vmlinux ${VMLINUX##*/}: no warning (DWARF and ftrace agree on every argument count)"

run_checker "the checker of the syscall table" python3 - "$TMP/snap.json" "$TBL" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
ours = {s["nr"]: s for s in snap["syscalls"] if s["abi"] == "x86_64"}
tbl = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 4 and not f[0].startswith("#") and f[1] in ("common", "64"):
        tbl[int(f[0])] = (f[2], "__x64_" + f[3])
agree, off = [], []
for nr, (name, entry) in sorted(tbl.items()):
    s = ours.get(nr)
    if s and s["implemented"]:
        (agree if (s["name"], s["entry"]) == (name, entry) else off).append(nr)
    else:
        off.append(nr)
print(("ok" if len(agree) >= 340 else "not ok") +
      f" - {len(agree)} implemented syscalls agree with syscall_64.tbl (name and entry point)")
# the table's entries this build does not implement (COND_SYSCALL stubs)
not_built = [nr for nr in off if nr in ours and not ours[nr]["implemented"]]
print(("ok" if off == not_built else "not ok") +
      f" - {len(not_built)} table entries are not implemented in this build: " +
      ", ".join(f"{nr} {tbl[nr][0]}" for nr in not_built))
for nr in sorted(set(off) - set(not_built)):
    print(f"#   {nr}: table {tbl[nr]}, ours {ours.get(nr)}")
extra = [nr for nr, s in ours.items() if s["implemented"] and nr not in tbl]
print(("ok" if not extra else "not ok") +
      f" - no implemented syscall outside the table {extra if extra else ''}")
impl = [s for s in ours.values() if s["implemented"]]
both = [s for s in impl if "dwarf" in s["sources"] and "ftrace" in s["sources"]]
print(("ok" if len(both) == len(impl) else "not ok") +
      f" - {len(both)} of {len(impl)} implemented syscalls typed from DWARF and checked against the ftrace metadata")
read = ours[0]
print(("ok" if [(a["name"], a["type"]) for a in read["args"]] ==
       [("fd", "unsigned int"), ("buf", "char *"), ("count", "size_t")] else "not ok") +
      " - read(unsigned int fd, char *buf, size_t count)")
print(("ok" if ours[39]["args"] == [] else "not ok") + " - getpid() has no arguments")
# ia32 and x32: the signature of what each number runs, native or compat,
# in the sizes its 32-bit programs pass
by = {(s["abi"], s["name"]): s for s in snap["syscalls"]}
for abi in ("ia32", "x32"):
    impl = [s for s in snap["syscalls"] if s["abi"] == abi and s["implemented"]]
    typed = [s for s in impl if "dwarf" in s["sources"] and
             all(a.get("abi_size") for a in s["args"])]
    print(("ok" if impl and len(typed) == len(impl) else "not ok") +
          f" - {abi}: {len(typed)} of {len(impl)} implemented syscalls typed from DWARF, with ABI sizes")
def sig(abi, name):
    s = by[(abi, name)]
    return (s["entry"], [(a["type"], a["abi_size"]) for a in s["args"]])
# arch/x86/kernel/sys_ia32.c and fs/ioctl.c: COMPAT_SYSCALL_DEFINE3(ioctl, ...)
print(("ok" if sig("ia32", "ioctl") == ("__ia32_compat_sys_ioctl",
       [("unsigned int", 4), ("unsigned int", 4), ("compat_ulong_t", 4)])
       else "not ok") + " - ia32 ioctl: compat_sys_ioctl(unsigned int, unsigned int, compat_ulong_t), 4 bytes each")
# fs/stat.c: COMPAT_SYSCALL_DEFINE2(newstat, ..., struct compat_stat __user *)
print(("ok" if sig("ia32", "stat") == ("__ia32_compat_sys_newstat",
       [("const char *", 4), ("struct compat_stat *", 4)])
       else "not ok") + " - ia32 stat: compat_sys_newstat(const char *, struct compat_stat *)")
# syscall_64.tbl gives x32 the native lseek: its off_t is x32's 64-bit
# __kernel_long_t (asm/posix_types_x32.h), its pointers and unsigned ints 4
print(("ok" if sig("x32", "lseek") == ("__x64_sys_lseek",
       [("unsigned int", 4), ("off_t", 8), ("unsigned int", 4)])
       else "not ok") + " - x32 lseek: the native sys_lseek, off_t passed in 8 bytes")
PY

# Declaring files (DW_AT_decl_file), relative to the top of the tree: the
# units name the tree's files relative to it (Debian maps its build path
# away), the generated headers relative to the build directory
run_checker "the checker of the declaring files" python3 - "$TMP/snap.json" "$TREE" <<'PY'
import json, os, sys
snap = json.load(open(sys.argv[1]))
by = {(s["abi"], s["name"]): s for s in snap["syscalls"]}
types = snap["types"]
def check(got, want, why):
    print(("ok" if got == want else "not ok") + f" - {why}: {want}")
    if got != want:
        print(f"#   got {got}")
# fs/read_write.c: SYSCALL_DEFINE3(read, ...), __do_sys_read's file
check(by[("x86_64", "read")].get("file"), "fs/read_write.c", "read")
# the ia32 number runs the same sys_read
check(by[("ia32", "read")].get("file"), "fs/read_write.c", "ia32 read")
# fs/ioctl.c: COMPAT_SYSCALL_DEFINE3(ioctl, ...)
check(by[("ia32", "ioctl")].get("file"), "fs/ioctl.c", "ia32 ioctl")
# kernel/sys.c: SYSCALL_DEFINE0(getpid)
check(by[("x86_64", "getpid")].get("file"), "kernel/sys.c", "getpid")
# x86_64's struct stat is the second one of the uapi asm/stat.h (#else of __i386__)
check(types["struct stat"].get("file"), "arch/x86/include/uapi/asm/stat.h",
      "struct stat")
# struct compat_stat is the kernel's own, in asm/compat.h
check(types["struct compat_stat"].get("file"), "arch/x86/include/asm/compat.h",
      "struct compat_stat")
# a typedef: include/linux/types.h has "typedef __kernel_size_t size_t;"
check(types["size_t"].get("file"), "include/linux/types.h", "size_t")
check(types["unsigned int"].get("file"), None, "a base type has no file")
impl = [s for s in snap["syscalls"] if s["implemented"] and "dwarf" in s["sources"]]
check(sum("file" in s for s in impl), len(impl),
      "every syscall typed from DWARF has a file")
defined = [t for t in types.values() if t["kind"] != "base" and not t.get("incomplete")]
check(sum("file" in t for t in defined), len(defined),
      "every defined type that is not a base type has a file")
files = {r["file"] for r in list(types.values()) + snap["syscalls"] if "file" in r}
missing = sorted(f for f in files if not os.path.isfile(os.path.join(sys.argv[2], f)))
check(missing, [], f"the {len(files)} files are files of the source tree")
PY

# Struct layouts against pahole on the same file
command -v pahole >/dev/null || {
	fail "pahole is installed ('make deps' installs dwarves)"
	done_testing
}
STRUCTS="stat __kernel_timespec sockaddr iovec epoll_event clone_args compat_stat old_timespec32 compat_sigaction compat_statfs"
for s in $STRUCTS; do
	pahole -C "$s" "$VMLINUX" >"$TMP/pahole-$s" 2>&1
done
run_checker "the checker of the struct layouts" python3 - "$TMP/snap.json" "$TMP" $STRUCTS <<'PY'
import json, re, sys
types = json.load(open(sys.argv[1]))["types"]
for name in sys.argv[3:]:
    text = open(f"{sys.argv[2]}/pahole-{name}").read()
    size = int(re.search(r"/\* size: (\d+)", text).group(1))
    members, depth = [], 0
    for line in text.split("\n")[1:]:
        # a top-level member's line ends at depth 0 with "/* offset size */";
        # "};" closes an anonymous one
        m = re.search(r"(\w+)?(\[\d*\])*(\s+__attribute__\(\(.*\)\))?;"
                      r"\s+/\*\s+(\d+)\s+(\d+)\s+\*/", line)
        depth += line.count("{") - line.count("}")
        if depth == 0 and m:
            anon = line.strip().startswith("}")
            members.append((None if anon else m.group(1), int(m.group(4)), int(m.group(5))))
    ours = types.get(f"struct {name}")
    got = ours and (ours["size"], [(x.get("name"), x["offset"], x["size"]) for x in ours["members"]])
    ok = got == (size, members)
    print(("ok" if ok else "not ok") + f" - struct {name}: {size} bytes, {len(members)} members as pahole -C says")
    if not ok:
        print(f"#   pahole: {(size, members)}\n#   ours:   {got}")
PY

done_testing
