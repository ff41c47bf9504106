#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The reports for CI systems, each checked against its specification:
# --format ktap by a KTAP parser written from the kernel's ktap.rst (and
# the kernel's own kunit_parser.py when the cache has a kernel tree),
# --format junit by Jenkins' junit-10.xsd, --format sarif by the SARIF
# 2.1.0 schema (tests/fixtures/ci/ has both and says where they come
# from), on every fixture pair, narrowed, with waivers, and on names made
# of bytes XML and KTAP cannot take as they are.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
PAIRS="stable testing unstable obsolete private removed undocumented docs move"
# Debian's python3, with python3-lxml and python3-jsonschema
PYTHON=${PYTHON:-/usr/bin/python3}
$PYTHON -c 'import lxml, jsonschema' 2>/dev/null ||
	skip_all "$PYTHON has no lxml or jsonschema module ('make deps' installs python3-lxml and python3-jsonschema)"
KUNIT_DIR=
for d in "${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}"/linux-source-*/tools/testing/kunit; do
	[ -f "$d/kunit_parser.py" ] && KUNIT_DIR=$d
done
[ -n "$KUNIT_DIR" ] || echo "# no kernel tree in the cache: KTAP is not read by kunit_parser.py too"
export KUNIT_DIR

# reports NAME OPTIONS... OLD NEW: the JSON, KTAP, JUnit and SARIF reports
# of one comparison, each with the same status, then the checker on them
reports() {
	name=$1
	shift
	statuses=
	for f in json ktap junit sarif; do
		"$KABIDIFF" diff --format "$f" "$@" >"$TMP/$name.$f" 2>"$TMP/$name.$f.err"
		statuses="$statuses $?"
	done
	case "$statuses" in
	" 0 0 0 0"|" 1 1 1 1") pass "$name: every format exits as the JSON report" ;;
	*) fail "$name: every format exits as the JSON report" "statuses:$statuses" ;;
	esac
	run_checker "ci-formats.py $name" "$PYTHON" "$TOP/tests/cli/ci-formats.py" "$name" \
		"$TMP/$name.json" "$TMP/$name.ktap" "$TMP/$name.junit" "$TMP/$name.sarif"
}

for n in $PAIRS; do
	reports "$n" "$D/$n.old.json" "$D/$n.new.json"
done
reports "stable-narrowed" --verdict warn --only sysfs,types "$D/stable.old.json" "$D/stable.new.json"
reports "testing-waived" --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
reports "no-change" "$D/stable.old.json" "$D/stable.old.json"

# names of any bytes: control characters, '#', XML's specials, bytes that
# are not UTF-8, U+FFFE and U+FFFF, in subjects, a doc file and a contact
$PYTHON - "$TMP" <<'PY'
import json, sys
hostile = ["/sys/kabi/ctl\x01\x1b[31mred", "/sys/kabi/hash#1", "/sys/kabi/amp&<lt>\"q'",
           "/sys/kabi/latin\\xe9", "/sys/kabi/nonchar\ufffe\uffff", "/sys/kabi/cr\rtab\tnl\nend",
           "/sys/kabi/back\\\\slash", "/sys/kabi/utf8-caf\u00e9-\U0001F600"]
def snap(release, nodes):
    return {"format": "kabidiff-snapshot", "version": 1,
            "kernel": {"release": release, "build_id": "0123456789abcdef0123"},
            "sysfs": [{"path": "/sys/kabi", "kind": "dir", "mode": "0755"}] +
                     [{"path": p, "kind": "file", "mode": "0444"} for p in sorted(nodes)],
            "syscalls": [], "types": {},
            "docs": [{"level": "stable", "file": "stable/sysfs kabi#x&\u00e9\\xff", "line": 7,
                      "what": ["/sys/kabi/attr"], "contact": "a <b@example.org> & c\x0c",
                      "users": "x\x02y"}]}
json.dump(snap("6.1.0-old\x07", ["/sys/kabi/attr", "/sys/kabi/keep"] + hostile),
          open(sys.argv[1] + "/hostile.old.json", "w"), ensure_ascii=False)
json.dump(snap("6.1.0-new", ["/sys/kabi/keep"]),
          open(sys.argv[1] + "/hostile.new.json", "w"), ensure_ascii=False)
PY
reports "hostile" "$TMP/hostile.old.json" "$TMP/hostile.new.json"
is "$(grep -c 'not ok' "$TMP/hostile.ktap")" 2 "hostile: one break, its part failed"
is "$(grep -c "$(printf '\033')" "$TMP/hostile.ktap" "$TMP/hostile.junit" "$TMP/hostile.sarif" | tr '\n' ' ')" \
   "$TMP/hostile.ktap:0 $TMP/hostile.junit:0 $TMP/hostile.sarif:0 " "hostile: no escape byte reaches any report"
grep -q 'node-removed "/sys/kabi/hash\\x231"$' "$TMP/hostile.ktap"
is "$?" 0 "hostile: a '#' in a KTAP description is \\x23"
grep -q 'name="node-removed /sys/kabi/latin\\xe9"' "$TMP/hostile.junit"
is "$?" 0 "hostile: a byte that is not UTF-8 is \\xHH in JUnit"
grep -q 'name="node-removed /sys/kabi/cr\\x0dtab&#9;nl&#10;end"' "$TMP/hostile.junit"
is "$?" 0 "hostile: CR is \\x0d, tab and newline character references in a JUnit attribute"
grep -q '"uri": "Documentation/ABI/stable/sysfs%20kabi%23x%26%C3%A9%FF"' "$TMP/hostile.sarif"
is "$?" 0 "hostile: a SARIF URI is percent-encoded, bytes and all"

# subjects that differ only after 5,000 bytes: each finding's test name
# whole, so two names (a KTAP name once stopped at 4 KiB when quoted)
$PYTHON - "$TMP" <<'PY'
import json, sys
long = ["/sys/kabi/hash#" + "x" * 5000 + end for end in ("-a", "-b")] + \
       ["/sys/kabi/plain-" + "y" * 5000 + end for end in ("-a", "-b")]
def snap(release, nodes):
    return {"format": "kabidiff-snapshot", "version": 1,
            "kernel": {"release": release, "build_id": "0123456789abcdef0123"},
            "sysfs": [{"path": "/sys/kabi", "kind": "dir", "mode": "0755"}] +
                     [{"path": p, "kind": "file", "mode": "0444"} for p in sorted(nodes)],
            "syscalls": [], "types": {}, "docs": []}
json.dump(snap("6.1.0-old", ["/sys/kabi/keep"] + long), open(sys.argv[1] + "/long.old.json", "w"))
json.dump(snap("6.1.0-new", ["/sys/kabi/keep"]), open(sys.argv[1] + "/long.new.json", "w"))
PY
plain=$KABIDIFF
for build in plain asan; do
	KABIDIFF=$plain
	[ "$build" = plain ] || KABIDIFF=$ASAN_KABIDIFF
	not_built "$KABIDIFF" && continue
	reports "long-$build" "$TMP/long.old.json" "$TMP/long.new.json"
	is "$(sed -n 's/^  ok [0-9]* node-removed //p' "$TMP/long-$build.ktap" | awk '{ print length($0), substr($0, 1, 16), substr($0, length($0) - 2) }')" \
	   "5022 \"/sys/kabi/hash\\ -a\"
5022 \"/sys/kabi/hash\\ -b\"
5018 /sys/kabi/plain- y-a
5018 /sys/kabi/plain- y-b" \
	   "long-$build: the KTAP names whole, quoted or not, two of each"
done
KABIDIFF=$plain

# the checkers catch what they are for
printf 'KTAP version 1\n1..2\nok 1 a\nok 3 b\n' >"$TMP/bad.ktap"
$PYTHON "$TOP/tests/cli/ktap.py" "$TMP/bad.ktap" >/dev/null 2>"$TMP/bad.err"
is "$?:$(cat "$TMP/bad.err")" "1:$TMP/bad.ktap:4: test number 3 where 2 is next" "ktap.py: refuses a number out of order"
printf 'KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 a\nok 1 b\n' >"$TMP/bad.ktap"
$PYTHON "$TOP/tests/cli/ktap.py" "$TMP/bad.ktap" >/dev/null 2>"$TMP/bad.err"
is "$?:$(cat "$TMP/bad.err")" "1:$TMP/bad.ktap:6: test 1 is ok but one of its subtests failed" \
   "ktap.py: refuses a parent that passes a failed subtest"
printf 'KTAP version 1\n1..2\nok 1 a\n' >"$TMP/bad.ktap"
$PYTHON "$TOP/tests/cli/ktap.py" "$TMP/bad.ktap" >/dev/null 2>"$TMP/bad.err"
is "$?:$(cat "$TMP/bad.err")" "1:$TMP/bad.ktap:4: the plan 1..2 but 1 tests" "ktap.py: refuses a plan that does not count"
$PYTHON "$TOP/tests/cli/ktap.py" "$TOP/tests/fixtures/ci/ktap-example.ktap" >"$TMP/example.json"
is "$?:$($PYTHON -c 'import json, sys; t = json.load(open(sys.argv[1]))["tests"][0]; print(t["description"], t["ok"], [s["description"] for s in t["subtests"]])' "$TMP/example.json")" \
   "0:main_test False ['example_test_1', 'example_test_2', 'example_test_3']" \
   "ktap.py: reads ktap.rst's example as ktap.rst explains it"
sed 's/<testsuite name="sysfs"/<testsuite/' "$TMP/stable.junit" >"$TMP/bad.junit"
$PYTHON -c '
import sys
from lxml import etree
s = etree.XMLSchema(etree.parse(sys.argv[1]))
sys.exit(0 if s.validate(etree.parse(sys.argv[2])) else 1)' "$FIXTURES/ci/junit-10.xsd" "$TMP/bad.junit"
is "$?" 1 "junit-10.xsd: refuses a testsuite without a name"
$PYTHON -c '
import json, sys
from jsonschema import Draft7Validator
s = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
log["runs"][0]["results"][0]["level"] = "fatal"
sys.exit(0 if Draft7Validator(s).is_valid(log) else 1)' "$FIXTURES/ci/sarif-2.1.0-subset.schema.json" "$TMP/stable.sarif"
is "$?" 1 "the SARIF schema: refuses a level that is not SARIF's"

# --stat is not for them; --help says what each is
run_kabidiff diff --format junit --stat "$D/stable.old.json" "$D/stable.new.json"
is "$status:$out:$err" "2::kabidiff: --stat is for the text, json and markdown formats, not junit" \
   "--stat with --format junit: exit 2, before any work"
run_kabidiff bisect --repo "$TMP/no-repo" --good v1 --bad v2 --stat --format ktap
is "$status:$out:$err" "2::kabidiff: --stat is for the text, json and markdown formats, not ktap" \
   "bisect --stat --format ktap: exit 2 before it looks at the repository"
run_kabidiff diff --format tap "$D/stable.old.json" "$D/stable.new.json"
is "$status:$err" "2:kabidiff: --format is text, json, markdown, ktap, junit or sarif, not 'tap'
Try 'kabidiff diff --help'." "an unknown format names the six"

done_testing
