#!/bin/sh
# The vmlinux collector on the small fixture (tests/fixtures/vmlinux) and on
# every kind of bad input: one line, exit 2, no output file; or, without
# DWARF, a warning and what the ftrace metadata gives.
. "$(dirname "$0")/../lib.sh"

MINI=$FIXTURES/vmlinux/mini.elf

run_kabidiff collect --vmlinux "$MINI"
printf '%s\n' "$out" >"$TMP/mini.json"
if [ "$status" -eq 0 ] && cmp -s "$FIXTURES/vmlinux/mini.json" "$TMP/mini.json"; then
	pass "collect --vmlinux mini.elf gives mini.json"
else
	fail "collect --vmlinux mini.elf gives mini.json" \
	     "$(diff -u "$FIXTURES/vmlinux/mini.json" "$TMP/mini.json" | head -30)"
fi
is "$err" "kabidiff: warning: $MINI: syscall 1 (newstat): DWARF says 3 arguments, the ftrace metadata 2" \
   "the ftrace metadata cross-checks the DWARF argument counts"
# mini.elf's unit was compiled in the fixture's directory (DW_AT_comp_dir),
# which its DW_AT_decl_file names mini.c in: the file is relative to it,
# that of __do_sys_read for read; a base type has none
is "$(printf '%s\n' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["syscalls"][0]["name"], d["syscalls"][0].get("file"),
      d["types"]["struct mini_stat"].get("file"), d["types"]["int"].get("file"))')" \
   "read mini.c mini.c None" "DW_AT_decl_file: read and struct mini_stat are in mini.c"

# bad NAME MESSAGE: collecting $TMP/NAME fails with MESSAGE and writes nothing
bad() {
	run_kabidiff collect --vmlinux "$TMP/$1" -o "$TMP/out.json"
	is "$status|$err|$(ls "$TMP/out.json" 2>/dev/null)" "2|kabidiff: $TMP/$1: $2|" \
	   "bad input $1: $2"
}

: >"$TMP/empty"
bad empty "empty file, not a vmlinux"
echo 'not an ELF' >"$TMP/text"
bad text "not an ELF file, so not a vmlinux"
head -c 40 "$MINI" >"$TMP/header-only"
bad header-only "a truncated or damaged ELF file"
head -c 3000 "$MINI" >"$TMP/truncated"
bad truncated "truncated: the ELF headers describe more than its 3000 bytes"
python3 -c 'import sys
b = bytearray(0x400); b[0x202:0x206] = b"HdrS"
open(sys.argv[1], "wb").write(b)' "$TMP/bzImage"
bad bzImage "a compressed kernel image (bzImage), not a vmlinux; use the vmlinux of the build directory, or for Debian's kernels the one in linux-image-*-dbg (usr/lib/debug/boot/vmlinux-*)"
strip -s -o "$TMP/stripped" "$MINI"
bad stripped "no symbol table (.symtab): was it stripped? kabidiff needs an unstripped vmlinux"
objcopy --strip-symbol=sys_call_table "$MINI" "$TMP/no-table"
bad no-table "no sys_call_table symbol: not an x86_64 vmlinux, or one without its symbol table"
python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[4] = 1                      # ELFCLASS32
open(sys.argv[2], "wb").write(d)
d[4] = 2; d[18:20] = (183).to_bytes(2, "little")     # EM_AARCH64
open(sys.argv[3], "wb").write(d)' "$MINI" "$TMP/elf32" "$TMP/aarch64"
bad elf32 "a 32-bit ELF for machine 62; only x86_64 vmlinux files are supported"
bad aarch64 "a 64-bit ELF for machine 183; only x86_64 vmlinux files are supported"
bad . "a directory, not a vmlinux"
bad missing "No such file or directory"

# Inputs the fuzzer made (tests/fuzz/fuzz-vmlinux.c) that once crashed
run_kabidiff collect --vmlinux "$FIXTURES/vmlinux/fuzz-type-loop.elf"
is "$status:$(printf '%s\n' "$out" | grep -c 'type loop')" "0:1" \
   "a pointer type made of itself (fuzz-type-loop.elf) is spelt, not recursed into"

# Without DWARF: a warning, the table and the ftrace metadata's signatures
strip --strip-debug -o "$TMP/no-dwarf" "$MINI"
run_kabidiff collect --vmlinux "$TMP/no-dwarf"
is "$status|$err" "0|kabidiff: warning: $TMP/no-dwarf: no DWARF (no DWARF information): syscall arguments come from the ftrace metadata (in 6.1's layout), no types are collected" \
   "no DWARF: one warning, exit 0"
is "$(printf '%s\n' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("types" in d, [(s["name"], [a["type"] for a in s["args"]], s["sources"]) for s in d["syscalls"][:2]])')" \
   "False [('read', ['unsigned int', 'char *', 'size_t'], ['table', 'ftrace']), ('newstat', ['const char *', 'struct stat *'], ['table', 'ftrace'])]" \
   "no DWARF: signatures from the ftrace metadata, no types part"
is "$(printf '%s\n' "$out" | grep -c '"file"')" "0" \
   "no DWARF: no declaring file"

done_testing
