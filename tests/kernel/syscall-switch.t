#!/bin/sh
# The syscall switches decoded from real kernels (tests/tools/switch-dump):
# Debian's newest 6.1 and 6.12 (6.1.0-57 and 6.12.118+deb12 when this was
# written), compare trees, and the fixture kernels when they are in the
# cache, jump tables (they are not built here).
# ia32_sys_call() takes every i386 row of syscall_32.tbl with an entry
# point to it (the compat one where the row has one), x32_sys_call() every
# common and x32 row of syscall_64.tbl (indexed without the x32 bit,
# 0x40000000, as do_syscall_x32() calls it); entry points the build left
# out (COND_SYSCALL() stubs, or sys_ni_syscall) are listed by number; the
# other numbers reach the default, sys_ni_syscall.  x64_sys_call() takes
# each number where sys_call_table does, as the vmlinux collector reads it.
# And the snapshot kabidiff collects (with the tree's .tbl files, for
# Debian's kernels) holds each ABI's numbers as the tables have them, the
# ABIs the kernel lacks listed and empty.
. "$(dirname "$0")/../lib.sh"

DUMP=$TOP/build/tests/tools/switch-dump
not_built "$DUMP" && done_testing

# decode NAME VMLINUX FUNCTION PREFIX: $TMP/NAME.FUNCTION, and the "# "
# line that says its shape and how long it took
decode() {
	if "$DUMP" "$2" "$3" "$4" >"$TMP/$1.$3" 2>"$TMP/err"; then
		pass "$1: $3 decoded"
		cat "$TMP/err"
	else
		fail "$1: $3 decoded" "$(cat "$TMP/err")"
		: >"$TMP/$1.$3"
	fi
}

# check NAME VMLINUX TBL32 TBL64 ABIS [TREE]: decode the switches of ABIS
# (of ia32, x32, x64) and check them against the tables and sys_call_table,
# and the snapshot collected from VMLINUX (and TREE's .tbl files) too
check() {
	for abi in $5; do
		case $abi in
		ia32)	decode "$1" "$2" ia32_sys_call __ia32_ ;;
		x32)	decode "$1" "$2" x32_sys_call __x64_ ;;
		x64)	decode "$1" "$2" x64_sys_call __x64_ ;;
		esac
	done
	if "$KABIDIFF" collect --vmlinux "$2" ${6:+--docs "$6"} -o "$TMP/$1.json" \
		2>"$TMP/err"; then
		pass "$1: kabidiff collect --vmlinux${6:+ --docs TREE}"
	else
		fail "$1: kabidiff collect --vmlinux${6:+ --docs TREE}" "$(cat "$TMP/err")"
	fi
	nm --defined-only "$2" >"$TMP/$1.nm" ||
		fail "$1: nm reads the symbols"
	run_checker "the checker of $1" python3 - "$1" "$3" "$4" "$5" "$TMP" "$6" <<'PY'
import json, sys
name, tbl32, tbl64, abis, tmp, tree = sys.argv[1:]
snap = json.load(open(f"{tmp}/{name}.json"))
records = {}
for s in snap["syscalls"]:
    records.setdefault(s["abi"], {})[s["nr"]] = s

# A syscall can have several names at one address: SYSCALL_DEFINE0's
# __ia32_ and __x64_ wrappers, and without CONFIG_POSIX_TIMERS every
# timer syscall is an alias of sys_ni_posix_timers.  So entry points are
# compared by address.
addr, names, weak = {}, {}, set()
for line in open(f"{tmp}/{name}.nm"):
    f = line.split()
    if len(f) == 3:
        addr[f[2]] = int(f[0], 16)
        names.setdefault(int(f[0], 16), []).append(f[2])
        if f[1] in "Ww":
            weak.add(int(f[0], 16))

def dump(func):
    """number -> address, and the default's name and address"""
    nrs, default = {}, (None, None)
    for line in open(f"{tmp}/{name}.{func}"):
        f = line.split()
        if f[0] == "default":
            default = (f[1], int(f[2], 16))
        else:
            nrs[int(f[0])] = int(f[2], 16)
    return nrs, default

def rows(path, abis, prefix, compat):
    """number -> (name, entry point), and the numbers of rows without one"""
    entries, bare = {}, set()
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#") or f[1] not in abis:
            continue
        if len(f) < 4:
            bare.add(int(f[0]))
            continue
        entry = f[4] if compat and len(f) > 4 and f[4] != "-" else f[3]
        entries[int(f[0])] = (f[2], prefix + entry)
    return entries, bare

def left_out(a):
    """the entry point at @a is a COND_SYSCALL() stub or a sys_ni_ alias"""
    return a in weak or any("sys_ni_" in n for n in names[a])

def check_table(abi, func, path, tbl_abis, prefix, compat):
    nrs, (default, default_addr) = dump(func)
    if default is None:
        return
    entries, bare = rows(path, tbl_abis, prefix, compat)
    built, stubs, wrong = [], [], []
    for nr, (row, entry) in sorted(entries.items()):
        a = nrs.get(nr, default_addr)
        if a != addr.get(entry):
            wrong.append(f"{nr}: {entry} in the table, {' '.join(names.get(a, [hex(a)]))} in the code")
        elif left_out(a):
            stubs.append(f"{nr} {row}" + (" (sys_ni_syscall)" if a == default_addr else ""))
        else:
            built.append(nr)
    print(("ok" if not wrong else "not ok") +
          f" - {name} {abi}: {len(built) + len(stubs)} of the {len(entries)} rows with an entry point reach it, {len(built)} built")
    for w in wrong:
        print(f"#   {w}")
    print(f"ok - {name} {abi}: {len(stubs)} entry points not built: " +
          (", ".join(stubs) or "none"))
    others = sorted(nr for nr, a in nrs.items() if nr not in entries and a != default_addr)
    print(("ok" if default == prefix + "sys_ni_syscall" and not others else "not ok") +
          f" - {name} {abi}: the {len(bare)} rows without an entry point and the numbers outside the table reach {default}" +
          (f"; not: {others}" if others else ""))

def check_records(abi, path, tbl_abis, prefix, compat):
    """the snapshot's records of @abi against the rows of the table at @path"""
    entries, bare = rows(path, tbl_abis, prefix, compat)
    ours, wrong = records.get(abi, {}), []
    for nr, (row, entry) in sorted(entries.items()):
        s = ours.get(nr)
        if not s or addr.get(s["entry"]) != addr.get(entry):
            wrong.append(f"{nr}: {entry} in the table, {s and s['entry']} in the snapshot")
        elif s["implemented"] == left_out(addr[entry]):
            wrong.append(f"{nr} {row}: implemented is {s['implemented']}")
        elif tree and (s["name"], "tbl" in s["sources"]) != (row, True):
            wrong.append(f"{nr} {row}: named {s['name']} from {s['sources']}")
        elif "switch" not in s["sources"]:
            wrong.append(f"{nr} {row}: not from the switch, from {s['sources']}")
    wrong += [f"{nr} {s['name']}: implemented, and in no row" for nr, s in
              sorted(ours.items()) if s["implemented"] and nr not in entries]
    print(("ok" if not wrong else "not ok") +
          f" - {name} {abi}: the snapshot holds the {len(entries)} rows with an entry point" +
          (", named by the table" if tree else ""))
    for w in wrong:
        print(f"#   {w}")

if "ia32" in abis.split():
    check_table("ia32", "ia32_sys_call", tbl32, ("i386",), "__ia32_", True)
    check_records("ia32", tbl32, ("i386",), "__ia32_", True)
if "x32" in abis.split():
    check_table("x32", "x32_sys_call", tbl64, ("common", "x32"), "__x64_", False)
    check_records("x32", tbl64, ("common", "x32"), "__x64_", False)
    print(f"# {name} x32: the x32 number of index N is 0x40000000 + N")
lacking = [abi for abi in ("ia32", "x32") if abi not in abis.split()]
print(("ok" if snap["syscall_abis"] == ["ia32", "x32", "x86_64"] and
       not any(records.get(abi) for abi in lacking) else "not ok") +
      f" - {name}: ia32, x32 and x86_64 collected" +
      (f"; {', '.join(lacking)} empty, as the kernel has none" if lacking else ""))
print(f"# {name}: " + "; ".join(
    f"{abi} {len(v)} numbers, {sum(s['implemented'] for s in v.values())} implemented"
    for abi, v in sorted(records.items())))
if "x64" in abis.split():
    nrs, (default, default_addr) = dump("x64_sys_call")
    table = {s["nr"]: addr.get(s["entry"]) for s in
             json.load(open(f"{tmp}/{name}.json"))["syscalls"] if s["abi"] == "x86_64"}
    differ = [f"{nr}: {table.get(nr)} in sys_call_table, {nrs.get(nr, default_addr)} in the code"
              for nr in range(max(len(table), max(nrs, default=0) + 1))
              if table.get(nr, default_addr) != nrs.get(nr, default_addr)]
    print(("ok" if table and default and not differ else "not ok") +
          f" - {name} x64: x64_sys_call takes the {len(table)} numbers of sys_call_table where it does")
    for d in differ:
        print(f"#   {d}")
PY
}

for series in 6.1 6.12; do
	abi=$(series_abis "$series" | tail -n 1)
	[ -n "$abi" ] ||
		missing_input "the archive has no Debian $series kernel (apt-cache pkgnames linux-image-$series.)"
	echo "# Debian's $series kernel here: $abi"
	VMLINUX=$(KABIDIFF_DEBIAN_ABI=$abi "$TOP/tests/debian-vmlinux.sh") || {
		missing_input "could not fetch Debian's $abi vmlinux (tests/debian-vmlinux.sh)"
	}
	TREE=$("$TOP/tests/kernel-tree.sh" "$series") || {
		missing_input "could not unpack linux-source-$series (tests/kernel-tree.sh)"
	}
	echo "# its tables: those of linux-source-$series $(tree_version "$TREE")"
	check "$abi" "$VMLINUX" "$TREE/arch/x86/entry/syscalls/syscall_32.tbl" \
	      "$TREE/arch/x86/entry/syscalls/syscall_64.tbl" "ia32 x32 x64" "$TREE"
done

# The fixture kernels, as kernel-patches/build-fixtures.sh left them, with
# copies of their .tbl files in source/ and of their generated headers.  No x32 (kabi.config leaves
# CONFIG_X86_X32_ABI off).  The new one numbers kabi_selftest 453 on i386
# (break/0008), which its syscall_32.tbl says too.
CACHE=${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}
fixtures=
for dir in "$CACHE"/kabi-fixtures/*/; do
	[ -f "$dir/BUILD-INFO" ] && fixtures=$dir
done
if [ -z "$fixtures" ]; then
	echo "# skipped the fixture kernels: none in $CACHE/kabi-fixtures (make fixture-kernels builds them)"
else
	for side in old new; do
		tbl=$fixtures/$side/source/arch/x86/entry/syscalls
		check "fixture-$side" "$fixtures/$side/vmlinux" "$tbl/syscall_32.tbl" \
		      "$tbl/syscall_64.tbl" "ia32 x64"
		# the build directory itself: its generated asm/syscalls_*.h too
		"$KABIDIFF" collect --no-sysfs -o "$TMP/build-$side.json" \
			"$fixtures/$side" 2>"$TMP/err"
		is "$?:$(grep -v 'warnings about the ABI' "$TMP/err")" "0:" \
		   "fixture-$side: collect BUILD_DIR agrees with its generated syscalls_32.h and syscalls_64.h"
	done
	# The old kernel beside the new build's syscalls_32.h, which numbers
	# kabi_selftest 453 on i386 and has 452, kabi_selftest_reset (break/0007):
	# three numbers, the first 451, say the build is not that of the vmlinux.
	asm=arch/x86/include/generated/asm
	mkdir -p "$TMP/mixed/$asm"
	ln -s "$fixtures/old/vmlinux" "$fixtures/old/source" "$TMP/mixed/"
	ln -s "$fixtures/old/$asm/syscalls_64.h" "$TMP/mixed/$asm/"
	ln -s "$fixtures/new/$asm/syscalls_32.h" "$TMP/mixed/$asm/"
	"$KABIDIFF" collect --no-sysfs -o "$TMP/mixed.json" "$TMP/mixed" 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "2:kabidiff: $TMP/mixed/vmlinux: ia32 syscall 451: ia32_sys_call reaches __ia32_sys_kabi_selftest, but $TMP/mixed/$asm/syscalls_32.h gives it no entry point (and 2 more numbers): is that the build of this vmlinux?" \
	   "the old kernel with the new build's syscalls_32.h: one error, naming both, exit 2"
	[ ! -e "$TMP/mixed.json" ]
	is "$?" 0 "and no snapshot written"
fi

done_testing
