#!/bin/sh
# kabidiff check, the command for 'git bisect run': 0 good, 1 bad, 125 skip,
# 2 when the baseline itself is unusable.  The build is made of the mini.elf
# fixture as its vmlinux and the small docs tree as its source.
. "$(dirname "$0")/../lib.sh"

BUILD=$TMP/build
mkdir "$BUILD"
cp "$FIXTURES/vmlinux/mini.elf" "$BUILD/vmlinux"
ln -s "$FIXTURES/abi" "$BUILD/source"
"$KABIDIFF" collect -o "$TMP/good.json" "$BUILD" 2>/dev/null
is "$?" 0 "collect the build as the baseline"

run_kabidiff check --baseline "$TMP/good.json" "$BUILD"
is "$status:$out" "0:" "the same build: exit 0 (good), no report"

# a baseline where a syscall had another number: the build renumbered it
python3 - "$TMP/good.json" "$TMP/renumbered.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sc = next(sc for sc in s["syscalls"] if sc["implemented"])
sc["nr"] += 400
json.dump(s, open(sys.argv[2], "w"))
PY
"$KABIDIFF" show --json "$TMP/renumbered.json" >"$TMP/baseline.json"
run_kabidiff check --baseline "$TMP/baseline.json" "$BUILD"
is "$status" 0 "a renumbered syscall the tree does not document: a warn, exit 0"
run_kabidiff check --strict --baseline "$TMP/baseline.json" "$BUILD"
is "$status" 1 "the same with --strict: exit 1 (bad)"
printf '%s\n' "$out" | grep -q '^    syscall-renumbered  x86_64/'
is "$?" 0 "and the report names it"

run_kabidiff check --baseline "$TMP/good.json" "$TMP/nowhere"
is "$status:$out:$err" "125::kabidiff: $TMP/nowhere: no kernel build there (no vmlinux): skipping" \
   "no build: exit 125 (skip)"
mkdir "$TMP/broken"
printf 'not an ELF file\n' >"$TMP/broken/vmlinux"
run_kabidiff check --baseline "$TMP/good.json" "$TMP/broken"
is "$status" 125 "a build that cannot be collected: exit 125 (skip)"
printf '%s\n' "$err" | tail -1 | grep -q "^kabidiff: $TMP/broken: the build could not be collected: skipping$"
is "$?" 0 "and says why it skips"

run_kabidiff check --baseline "$TMP/missing.json" "$BUILD"
is "$status" 2 "an unreadable baseline: exit 2 (git bisect run stops)"
run_kabidiff check "$BUILD"
is "$status" 2 "no --baseline: exit 2"

done_testing
