#!/bin/sh
# Bad input: every way a snapshot file can be wrong gets one line on stderr
# naming the file (and, for JSON syntax, line and column), exit status 2 and
# no output.  Run against the plain and the sanitizer build.
. "$(dirname "$0")/../lib.sh"

BAD=tests/fixtures/bad

# FILE<TAB>the one line kabidiff must print
cat >"$TMP/cases" <<'CASES'
abi-not-listed.json	kabidiff: FILE: syscall "ia32" number 3: syscall_abis does not list its ABI
abis-duplicate.json	kabidiff: FILE: duplicate syscall ABI "x86_64"
abis-empty.json	kabidiff: FILE: syscall_abis: no syscall ABI listed
abis-without-syscalls.json	kabidiff: FILE: syscall_abis without a syscalls part
bad-escape.json	kabidiff: FILE: sysfs[0].path: bad byte escape or NUL in string
bad-source.json	kabidiff: FILE: syscalls[0].sources[0]: unknown or repeated source "guess"
build-date.json	kabidiff: FILE: kernel.build_date: "2025-02-29" is not a date YYYY-MM-DD
bitfield-half.json	kabidiff: FILE: types["struct s"].members[0]: missing field "bit_offset"
census-duplicate.json	kabidiff: FILE: duplicate census attribute "uevent_seqnum_attr" of "vmlinux"
census-group.json	kabidiff: FILE: census.attributes[0]: only a grouped attribute has a group
census-kind.json	kabidiff: FILE: census.attributes[0].kind: unknown value "widget"
census-mode.json	kabidiff: FILE: census.attributes[0].mode: "10000" is not four octal digits
census-module-not-read.json	kabidiff: FILE: census attribute "__param_force" of "k10temp": census.modules does not list its module
census-no-modules.json	kabidiff: FILE: census: missing field "modules"
coverage-over.json	kabidiff: FILE: coverage: more nodes documented than there are
dir-value.json	kabidiff: FILE: sysfs[0]: only a file has a value
duplicate-key.json	kabidiff: FILE:3:10: duplicate object key near '"format"'
duplicate-path.json	kabidiff: FILE: duplicate sysfs path "/sys/a"
empty.json	kabidiff: FILE: empty file, not a kabidiff snapshot
future-version.json	kabidiff: FILE: snapshot format version 7 is newer than this kabidiff reads (up to 6); upgrade kabidiff
incomplete-size.json	kabidiff: FILE: types["struct s"]: an incomplete type has no size
incomplete-target.json	kabidiff: FILE: types["t"]: a declared-only typedef has no target
kernel-array.json	kabidiff: FILE: kernel: expected an object, found an array
level-undocumented.json	kabidiff: FILE: docs[0].level: a doc entry cannot be undocumented
line-zero.json	kabidiff: FILE: docs[0].line: lines count from 1
link-no-target.json	kabidiff: FILE: sysfs[0]: missing field "target"
mode-digits.json	kabidiff: FILE: sysfs[0].mode: "644" is not four octal digits
no-format.json	kabidiff: FILE: not a kabidiff snapshot: "format" is not "kabidiff-snapshot"
no-kernel.json	kabidiff: FILE: missing field "kernel"
not-an-object.json	kabidiff: FILE: not a kabidiff snapshot: found an array, not an object
not-utf8.json	kabidiff: FILE:1:72: unable to decode byte 0xff near '"6.1'
nr-huge.json	kabidiff: FILE: syscalls[0].nr: 4294967296 is out of range (0 to 2147483647)
nr-negative.json	kabidiff: FILE: syscalls[0].nr: -1 is out of range (0 to 2147483647)
nr-string.json	kabidiff: FILE: syscalls[0].nr: expected an integer, found a string
nul-in-string.json	kabidiff: FILE:1:94: \u0000 is not allowed without JSON_ALLOW_NUL near '"/sys/a\u0000b"'
size-huge.json	kabidiff: FILE: types["struct s"].size: 8589934592 is out of range (0 to 4294967296)
size-overflow.json	kabidiff: FILE:1:114: real number overflow near '1e400'
size-real.json	kabidiff: FILE: types["struct s"].size: expected an integer, found a real number
sysfs-object.json	kabidiff: FILE: sysfs: expected an array, found an object
trailing-garbage.json	kabidiff: FILE:1:68: end of file expected near 'trailing'
truncated.json	kabidiff: FILE:105:18: premature end of input near '"x86_'
type-kind.json	kabidiff: FILE: types["struct s"].kind: unknown value "class"
typedef-no-target.json	kabidiff: FILE: types["t"]: missing field "target"
unknown-field.json	kabidiff: FILE: sysfs[0]: unknown field "colour"
version-huge.json	kabidiff: FILE:1:63: too big integer near '99999999999999999999'
version-string.json	kabidiff: FILE: version: expected an integer, found a string
version-zero.json	kabidiff: FILE: version: version 0 does not exist
what-empty.json	kabidiff: FILE: docs[0].what: an entry needs at least one What: pattern
wrong-format.json	kabidiff: FILE: not a kabidiff snapshot: "format" is not "kabidiff-snapshot"
CASES

check_case() {
	file=$1 expected=$2 bin=$3 tag=$4
	"$bin" show "$file" >"$TMP/out" 2>"$TMP/err"
	status=$?
	is "$status|$(cat "$TMP/err")|$(wc -c <"$TMP/out")" "2|$expected|0" \
	   "$tag${file#"$TOP"/}"
}

cd "$TOP" || exit 1
for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$bin" && continue
	tag=
	[ "$bin" = "$KABIDIFF" ] || tag="asan: "
	if [ ! -x "$bin" ]; then
		fail "$tag$bin is built"
		continue
	fi
	while IFS='	' read -r name message; do
		check_case "$BAD/$name" \
			"$(printf '%s' "$message" | sed "s|FILE|$BAD/$name|")" \
			"$bin" "$tag"
	done <"$TMP/cases"
	check_case "$TMP/no-such.json" \
		"kabidiff: $TMP/no-such.json: No such file or directory" "$bin" "$tag"
	check_case "$TMP" "kabidiff: $TMP: Is a directory" "$bin" "$tag"
done

done_testing
