#!/usr/bin/env python3
"""Check the verdicts of kabidiff's JSON reports on the hand-made pairs.

Usage: diff-verdicts.py DIR

DIR holds LEVEL.report.json for each level pair of
tests/fixtures/diff/gen-pairs.py and docs.report.json.  Prints TAP lines
("ok - NAME" / "not ok - NAME" with "# " evidence) for tests/lib.sh's relay:

- every finding's verdict is the one DESIGN.md's table gives its kind at its
  level (the table and the kinds' classes are written out again here, so
  that a slip in kabidiff's copy shows);
- each level pair has every sysfs, syscall and type kind at its own level,
  and the docs pair every documentation kind.
"""
import json
import os
import sys

LEVELS = ["stable", "testing", "unstable", "obsolete", "private", "removed",
          "undocumented"]

# DESIGN.md, "Stability levels and the default policy"
TABLE = {
    "removed":      ["break", "break", "note", "note", "note", "note", "warn"],
    "incompatible": ["break", "break", "note", "warn", "note", "note", "warn"],
    "compatible":   ["note"] * 7,
    "added":        ["note"] * 7,
    "security":     ["warn"] * 7,
    "demoted":      ["break", "break", "note", "note", "note", "note", "note"],
}

SYSFS = {"node-removed": "removed", "node-added": "added",
         "node-kind-changed": "incompatible", "mode-lost": "incompatible",
         "mode-gained": "compatible", "world-writable": "security",
         "link-target-changed": "incompatible",
         "value-shape-changed": "incompatible",
         "value-shape-widened": "compatible",
         "became-unreadable": "incompatible"}
SYSCALLS = {"syscall-removed": "removed", "syscall-added": "added",
            "syscall-renumbered": "incompatible",
            "syscall-args-changed": "incompatible"}
TYPES = {"type-removed": "removed", "type-added": "added",
         "type-kind-changed": "incompatible",
         "type-size-changed": "incompatible",
         "typedef-changed": "incompatible", "member-removed": "incompatible",
         "member-added": "compatible", "member-renamed": "incompatible",
         "member-reserved-used": "compatible",
         "member-offset-changed": "incompatible",
         "member-size-changed": "incompatible",
         "member-type-changed": "incompatible",
         "enumerator-removed": "incompatible",
         "enumerator-added": "compatible",
         "enumerator-value-changed": "incompatible",
         "enumerator-limit-changed": "compatible"}
DOCS = {"doc-demoted": "demoted", "doc-removed-early": "demoted",
        "doc-dropped": "demoted", "doc-obsoleted": "compatible",
        "doc-retired": "compatible", "doc-promoted": "compatible",
        "doc-added": "added"}
CLASS = {**SYSFS, **SYSCALLS, **TYPES, **DOCS}
SEVERITY = ["note", "warn", "break"]


def expected(finding):
    verdict = TABLE[CLASS[finding["kind"]]][LEVELS.index(finding["level"])]
    # an obsolete interface removed before its announced date: warn at least
    if finding["removal_ahead"] and SEVERITY.index(verdict) < 1:
        verdict = "warn"
    return verdict


def check_report(name, report):
    bad = ["%s %s at %s: %s, expected %s" % (f["kind"], f["subject"],
                                             f["level"], f["verdict"],
                                             expected(f))
           for f in report["findings"] if f["verdict"] != expected(f)]
    print("%s - %s: every verdict is the table's" %
          ("not ok" if bad else "ok", name))
    for line in bad:
        print("# " + line)


def check_coverage(name, report, kinds, level=None):
    seen = {f["kind"] for f in report["findings"]
            if level is None or f["level"] == level}
    missing = sorted(set(kinds) - seen)
    print("%s - %s: has every kind it should" %
          ("not ok" if missing else "ok", name))
    if missing:
        print("# missing: " + ", ".join(missing))


def main():
    folder = sys.argv[1]
    for level in LEVELS:
        with open(os.path.join(folder, level + ".report.json")) as fp:
            report = json.load(fp)
        check_report(level, report)
        check_coverage(level, report, {**SYSFS, **SYSCALLS, **TYPES}, level)
    with open(os.path.join(folder, "docs.report.json")) as fp:
        report = json.load(fp)
    check_report("docs", report)
    check_coverage("docs", report, DOCS)


main()
