#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# scripts/tuxmake-results-hook, the recipe of docs/ci.md, run as tuxmake
# runs a results hook (sh -c, in its output directory) on a directory laid
# out as tuxmake's output: vmlinux.xz (debugkernel), modules.tar.xz
# (modules), config, System.map, build.log, metadata.json; no bzImage, so
# no sysfs part, which tuxmake's own kernels would boot for.
. "$(dirname "$0")/../lib.sh"

HOOK=$TOP/scripts/tuxmake-results-hook
PYTHON=${PYTHON:-/usr/bin/python3}
command -v xz >/dev/null || skip_all "no xz to make vmlinux.xz with"
export KABIDIFF

# tuxmake's output directory, made of the fixtures
OUT=$TMP/tuxmake/builds/1
mkdir -p "$OUT" "$TMP/modinstall/lib/modules/6.1.0-kabi"
xz -c "$FIXTURES/vmlinux/mini.elf" >"$OUT/vmlinux.xz"
: >"$TMP/modinstall/lib/modules/6.1.0-kabi/modules.order"
tar -cJf "$OUT/modules.tar.xz" -C "$TMP/modinstall" lib
printf 'CONFIG_64BIT=y\n' >"$OUT/config"
: >"$OUT/System.map"
printf 'I: build output in %s\n' "$OUT" >"$OUT/build.log"
printf '{"results": {"status": "PASS"}, "build": {"target_arch": "x86_64", "targets": ["config", "kernel", "modules", "debugkernel"]}}\n' \
	>"$OUT/metadata.json"

# the baseline: the same kernel, collected once
"$KABIDIFF" collect -o "$TMP/base.json" --vmlinux "$FIXTURES/vmlinux/mini.elf" \
	--docs "$FIXTURES/abi" 2>/dev/null
is "$?" 0 "the baseline is collected"

# hook NAME HOOK-ARGS...: run it as tuxmake does, status and stderr kept
hook() {
	(cd "$OUT" && sh -c "$*") >"$TMP/hook.out" 2>"$TMP/hook.err"
	status=$?
}

hook "'$HOOK' --docs '$FIXTURES/abi' '$TMP/base.json'"
is "$status:$(cat "$OUT/kabi.status")" "0:0" "the same kernel: exit 0, kabi.status 0"
is "$(cd "$OUT" && ls kabi*)" "kabi-junit.xml
kabi.json
kabi.status" "it writes kabi.json, kabi-junit.xml and kabi.status into the output directory"
grep -q 'no bzImage: the sysfs part is not collected' "$TMP/hook.err"
is "$?" 0 "without bzImage it says the sysfs part is not collected"
is "$($PYTHON -c 'import json, sys; s = json.load(open(sys.argv[1])); print(sorted(k for k in s if k in ("syscalls", "types", "docs", "sysfs", "vdso")))' "$OUT/kabi.json")" \
   "['docs', 'syscalls', 'types']" "kabi.json: syscalls and types of vmlinux.xz, the docs of --docs"
$PYTHON -c '
import sys
from lxml import etree
s = etree.XMLSchema(etree.parse(sys.argv[1]))
d = etree.parse(sys.argv[2])
ok = s.validate(d)
r = d.getroot()
print(ok, [t.get("name") for t in r], r.get("tests"), r.get("failures"))' \
	"$FIXTURES/ci/junit-10.xsd" "$OUT/kabi-junit.xml" >"$TMP/junit" 2>&1
is "$(cat "$TMP/junit")" "True ['syscalls', 'types', 'docs'] 0 0" \
   "kabi-junit.xml: valid, a testsuite per part compared, nothing failed"

# a baseline with a syscall this build lacks; --strict makes its warn a break
$PYTHON -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["syscalls"].append({"abi": "x86_64", "nr": 450, "name": "kabi_gone", "entry": "__x64_sys_kabi_gone",
                      "implemented": True, "args": [], "sources": ["table"]})
json.dump(s, open(sys.argv[2], "w"), indent=1)' "$TMP/base.json" "$TMP/gone.json"
hook "'$HOOK' --docs '$FIXTURES/abi' --no-sysfs '$TMP/gone.json' --strict"
is "$status:$(cat "$OUT/kabi.status")" "1:1" "a syscall gone, --strict passed on: exit 1, kabi.status 1"
grep -c '<failure type="syscall-removed"' "$OUT/kabi-junit.xml" >"$TMP/n"
is "$(cat "$TMP/n")" 1 "kabi-junit.xml: the removal is a failure"
hook "'$HOOK' --format sarif --no-sysfs '$TMP/gone.json'"
is "$status:$(cat "$OUT/kabi.status")" "0:0" "without --strict the undocumented removal is a warn: exit 0"
is "$($PYTHON -c 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]["results"]; print([(x["ruleId"], x["level"]) for x in r])' "$OUT/kabi-report.sarif")" \
   "[('syscall-removed', 'warning')]" "--format sarif: kabi-report.sarif, the removal a warning"

# trouble: exit 2 and kabi.status 2, with the reason
rm "$OUT/kabi.status"
hook "'$HOOK' --no-sysfs '$TMP/nowhere.json'"
is "$status:$(cat "$OUT/kabi.status")" "2:2" "a baseline that is not there: exit 2, kabi.status 2"
mv "$OUT/vmlinux.xz" "$TMP/vmlinux.xz"
hook "'$HOOK' '$TMP/base.json'"
is "$status:$(cat "$TMP/hook.err")" "2:tuxmake-results-hook: no vmlinux.xz in $OUT: build the debugkernel target (and kernel, modules for sysfs)" \
   "no vmlinux.xz: exit 2, the target to build named"
mv "$TMP/vmlinux.xz" "$OUT/vmlinux.xz"
hook "'$HOOK'"
is "$status:$(cat "$TMP/hook.err")" "2:Usage: tuxmake-results-hook [--docs DIR] [--no-sysfs] [--format FORMAT]
                            [--output FILE] BASELINE [DIFF OPTIONS...]" "no BASELINE: the usage, exit 2"

# it leaves no temporary directory behind
mkdir "$TMP/tmpdir"
hook "TMPDIR='$TMP/tmpdir' '$HOOK' --no-sysfs '$TMP/base.json'"
is "$status:$(ls -A "$TMP/tmpdir")" "0:" "it leaves nothing in \$TMPDIR"

done_testing
