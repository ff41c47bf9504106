#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Narrowing a report: --verdict, --only and --stat show less, in text,
# Markdown and JSON, and say so; the summary and the exit status still
# count every finding.  (diff.t checks that a report without them is as
# before, byte for byte.)
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
PYTHON=${PYTHON:-/usr/bin/python3}

# --verdict: only the findings of that verdict or worse, the rest counted
run_kabidiff diff --color=never --verdict break "$D/stable.old.json" "$D/stable.new.json"
is "$status" 1 "--verdict break: exit 1"
is "$(printf '%s\n' "$out" | grep '^== ')" "== break ==" "--verdict break: only the break group"
is "$(printf '%s\n' "$out" | tail -2)" "20 break, 1 warn, 10 note, 0 waived
shown: 20 of 31 findings (verdict break or worse)" \
   "--verdict break: the summary counts all, a last line says what is shown"
run_kabidiff diff --color=never --verdict warn "$D/stable.old.json" "$D/stable.new.json"
is "$(printf '%s\n' "$out" | grep '^== ' | tr '\n' ' ')" "== break == == warn == " \
   "--verdict warn: break and warn groups"
run_kabidiff diff --color=never --verdict note "$D/stable.old.json" "$D/stable.new.json"
is "$(relative_out)" "$(cat "$D/stable.txt")" "--verdict note is the whole report, as golden"

# nothing shown but findings there: header, summary, and what was left out
run_kabidiff diff --color=never --verdict break "$D/undocumented.old.json" "$D/undocumented.new.json"
is "$status:$(drop_details)" "0:kabidiff: 6.1.0-kabi-old -> 6.1.0-kabi-new; compared: sysfs, syscalls, types, docs

0 break, 21 warn, 10 note, 0 waived
shown: 0 of 31 findings (verdict break or worse)" \
   "--verdict break with only warns and notes: exit 0, nothing shown, said so"

# --only: the exit status comes from the parts not shown too
run_kabidiff diff --color=never --only docs "$D/stable.old.json" "$D/stable.new.json"
is "$status:$(printf '%s\n' "$out" | tail -2)" "1:20 break, 1 warn, 10 note, 0 waived
shown: 0 of 31 findings (parts docs), the notes counted" \
   "--only docs: no docs finding, exit 1 all the same"
run_kabidiff diff --color=never --only syscalls,types --verdict break "$D/stable.old.json" "$D/stable.new.json"
is "$(drop_details | grep -c '^    [a-z]')" 14 "--only syscalls,types --verdict break: 14 findings"
is "$(printf '%s\n' "$out" | grep '^  ' | grep -c '/sys/')" 0 "--only syscalls,types: no sysfs finding"
is "$(printf '%s\n' "$out" | tail -1)" \
   "shown: 14 of 31 findings (verdict break or worse; parts syscalls, types)" \
   "--only and --verdict: both named"
# --parts compares less, --only shows less
run_kabidiff diff --color=never --parts sysfs "$D/stable.old.json" "$D/stable.new.json"
parts_summary=$(printf '%s\n' "$out" | tail -1)
run_kabidiff diff --color=never --only sysfs "$D/stable.old.json" "$D/stable.new.json"
is "$parts_summary|$(printf '%s\n' "$out" | tail -2 | head -1)" \
   "6 break, 1 warn, 3 note, 0 waived|20 break, 1 warn, 10 note, 0 waived" \
   "--parts sysfs judges sysfs alone, --only sysfs judges all and shows sysfs"

# --stat: the counts, one line per part, kind, level and verdict
run_kabidiff diff --color=never --stat "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(drop_details)" "1:kabidiff: 6.1.0-kabi-old -> 6.1.0-kabi-new; compared: docs
 docs  doc-demoted        stable   | 1 break
 docs  doc-demoted        testing  | 1 break
 docs  doc-removed-early  testing  | 1 break
 docs  doc-removed-early  private  | 1 note
 docs  doc-dropped        stable   | 1 break
 docs  doc-dropped        unstable | 1 note
 docs  doc-obsoleted      stable   | 1 note
 docs  doc-retired        obsolete | 1 note
 docs  doc-promoted       unstable | 1 note
 docs  doc-added          testing  | 1 note
4 break, 0 warn, 6 note, 0 waived" "--stat: as git diff --stat, then the summary"
run_kabidiff diff --color=never --stat "$D/stable.old.json" "$D/stable.new.json"
is "$(printf '%s\n' "$out" | grep ' | ' | awk '{ n += $5 } END { print n }')" 31 \
   "--stat: the counts add up to the findings"
is "$(printf '%s\n' "$out" | grep ' | ' | awk '{ print $1 }' | uniq | tr '\n' ' ')" \
   "sysfs syscalls types " "--stat: parts in their order, each once"
run_kabidiff diff --color=never --stat --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
is "$status:$(drop_details | sed -n 2p)" \
   "0: sysfs     node-removed              testing | 1 break, waived" \
   "--stat with waivers: accepted findings counted apart"
run_kabidiff diff --color=never --stat --only types --verdict break "$D/stable.old.json" "$D/stable.new.json"
is "$(printf '%s\n' "$out" | grep -c ' | ')" 11 "--stat --only types --verdict break: 11 lines"
is "$(printf '%s\n' "$out" | tail -1)" \
   "shown: 11 of 31 findings (verdict break or worse; parts types)" "--stat narrowed: said so"
run_kabidiff diff --color=always --stat "$D/docs.old.json" "$D/docs.new.json"
is "$(drop_details | sed -n 2p)" "$(printf ' docs  doc-demoted        stable   | 1 \033[1;31mbreak\033[0m')" \
   "--stat --color=always: the verdict coloured"
run_kabidiff diff --stat "$D/stable.old.json" "$D/stable.old.json"
is "$status:$out:$err" "0::" "--stat of no change: silent"

# Markdown: what is shown said under the header, tables counted as shown
run_kabidiff diff --format markdown --verdict warn --only sysfs "$D/stable.old.json" "$D/stable.new.json"
is "$(drop_details | sed -n '1,5p')" "## kabidiff: 20 break, 1 warn, 10 note, 0 waived
6.1.0-kabi-old -> 6.1.0-kabi-new; compared: sysfs, syscalls, types, docs


Shown: 7 of 31 findings (verdict warn or worse; parts sysfs)." "Markdown: the header, then what is shown"
is "$(printf '%s\n' "$out" | grep '^###' | tr '\n' ' ')" "### Break (6) ### Warn (1) ### Documentation entries ### Whom to notify " \
   "Markdown: each table counts the findings it shows"
is "$(printf '%s\n' "$out" | grep -c '^| stable |')" 7 "Markdown: 7 rows"
run_kabidiff diff --format markdown --stat "$D/docs.old.json" "$D/docs.new.json"
is "$(drop_details | sed -n '4,7p')" "
| part | change | level | findings | verdict |
|---|---|---|---:|---|
| docs | doc-demoted | stable | 1 | break |" "Markdown --stat: a table of the counts"

# JSON: the findings shown, and a filter record saying what was left out
json_of() {
	"$KABIDIFF" diff --format json "$@" >"$TMP/r.json"
	printf '%s' "$?"
}
is "$(json_of --verdict warn --only sysfs,types "$D/stable.old.json" "$D/stable.new.json")" 1 \
   "JSON narrowed: exit 1"
cp "$TMP/r.json" "$TMP/narrow.report.json"
is "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
f = r["findings"]
ok = all(x["verdict"] in ("break", "warn") for x in f)
print(r["filter"], len(f), ok, r["summary"], list(r)[-1])' "$TMP/r.json")" \
   "{'verdict': 'warn', 'only': ['sysfs', 'types'], 'stat': False, 'shown': 18, 'total': 31} 18 True {'break': 20, 'warn': 1, 'note': 10, 'waived': 0} filter" \
   "JSON narrowed: findings filtered, the filter record, the summary of all"
is "$(json_of --stat --waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json" 2>/dev/null)" 0 \
   "JSON --stat with waivers: exit 0"
cp "$TMP/r.json" "$TMP/stat.report.json"
is "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
s = r["stat"]
print(r["findings"], r["filter"]["stat"], sum(x["count"] for x in s), s[0])' "$TMP/r.json")" \
   "[] True 31 {'part': 'sysfs', 'kind': 'node-removed', 'level': 'testing', 'verdict': 'break', 'waived': True, 'count': 1}" \
   "JSON --stat: no findings, the counts in stat"
json_of --only vdso "$D/stable.old.json" "$D/stable.new.json" >/dev/null
cp "$TMP/r.json" "$TMP/empty.report.json"
json_of "$D/stable.old.json" "$D/stable.new.json" >/dev/null
is "$(python3 -c 'import json, sys; print("filter" in json.load(open(sys.argv[1])))' "$TMP/r.json")" \
   False "JSON not narrowed: no filter record"
if $PYTHON -c 'import jsonschema' 2>/dev/null; then
	$PYTHON "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" \
		"$TMP/narrow.report.json" "$TMP/stat.report.json" "$TMP/empty.report.json" >"$TMP/schema"
	is "$?" 0 "narrowed JSON reports validate against docs/report.schema.json"
	grep '^#' "$TMP/schema"
	# the schema says what a narrowed report must have
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
del r["filter"]["total"]
r["filter"]["verdict"] = "fatal"
json.dump(r, open(sys.argv[2], "w"))' "$TMP/narrow.report.json" "$TMP/bad.report.json"
	$PYTHON "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" "$TMP/bad.report.json" >"$TMP/schema"
	is "$?" 1 "the schema refuses a filter record without total, with another verdict"
else
	pass "# SKIP $PYTHON has no jsonschema module"
	pass "# SKIP $PYTHON has no jsonschema module"
fi

# bad values: usage errors
run_kabidiff diff --verdict fatal "$D/stable.old.json" "$D/stable.new.json"
is "$status:$out:$err" "2::kabidiff: --verdict is break, warn or note, not 'fatal'
Try 'kabidiff diff --help'." "--verdict fatal: exit 2"
run_kabidiff diff --only sysfs,dev "$D/stable.old.json" "$D/stable.new.json"
is "$status:$out:$err" "2::kabidiff: --only takes sysfs, syscalls, vdso, types and docs, comma-separated, not 'sysfs,dev'
Try 'kabidiff diff --help'." "--only sysfs,dev: exit 2"

# every command with the diff options has them, and says so
for cmd in diff check bisect "docs diff"; do
	# shellcheck disable=SC2086
	"$KABIDIFF" $cmd --help >"$TMP/help" 2>&1
	is "$(grep -c -- '^  --verdict V \|^  --only P,\.\.\. \|^  --stat ' "$TMP/help")" 3 \
	   "$cmd --help names --verdict, --only and --stat"
done
run_kabidiff docs diff --stat --verdict warn "$FIXTURES/abi" "$FIXTURES/abi"
is "$status:$out" "0:" "docs diff takes --stat and --verdict"

done_testing
