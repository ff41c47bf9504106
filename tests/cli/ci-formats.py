#!/usr/bin/env python3
"""Check kabidiff's CI reports of one comparison against their
specifications and against its JSON report of the same comparison.

Usage: python3 tests/cli/ci-formats.py NAME REPORT.json KTAP JUNIT SARIF

- KTAP: parsed by tests/cli/ktap.py (strict KTAP version 1), and by the
  kernel's own tools/testing/kunit/kunit_parser.py when $KUNIT_DIR names
  its folder;
- JUnit: valid against tests/fixtures/ci/junit-10.xsd (python3-lxml);
- SARIF: valid against tests/fixtures/ci/sarif-2.1.0-subset.schema.json
  (python3-jsonschema, with its format checker);

and each holds exactly the findings of REPORT.json (made with the same
options), with the outcome each verdict calls for.  Prints "ok - NAME: ..."
or "not ok - NAME: ..." lines with "# " evidence, for tests/lib.sh's
run_checker.
"""
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CI = os.path.join(TOP, "tests", "fixtures", "ci")
PARTS = ["sysfs", "syscalls", "vdso", "types", "docs"]
SARIF_LEVEL = {"break": "error", "warn": "warning", "note": "note"}
LOGICAL_KINDS = {"function", "member", "module", "namespace", "parameter",
                 "resource", "returnType", "type", "variable", "object",
                 "array", "property", "value", "element", "text",
                 "attribute", "comment", "declaration", "dtd",
                 "processingInstruction"}


def part_of(report, finding):
    """The part of a finding, from its kind (see main())."""
    return KIND_PART[finding["kind"]]


KIND_PART = {}


class Checks:
    def __init__(self, name):
        self.name = name

    def check(self, ok, what, *evidence):
        print(f"{'ok' if ok else 'not ok'} - {self.name}: {what}")
        if not ok:
            for line in evidence:
                for part in str(line).splitlines():
                    print(f"#   {part}")
        return ok


def fails(finding):
    return finding["verdict"] == "break" and finding["waiver"] is None


def shown_parts(report):
    only = (report.get("filter") or {}).get("only")
    return [p for p in report["compared"] if only is None or p in only]


def decode(s):
    """The bytes a jstr-spelt JSON string stands for (model/jstr.h)."""
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1] == "\\":
            out += b"\\"
            i += 2
        elif s[i] == "\\" and s[i + 1] == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            out += s[i].encode("utf-8")
            i += 1
    return bytes(out)


def ktap_unquote(text):
    """The bytes a KTAP description's subject stands for: as it is, or
    quoted with \\n, \\t, \\\\, \\" and \\xHH (ktap.c's show_text())."""
    if not text.startswith('"'):
        return text.encode("utf-8")
    if len(text) < 2 or not text.endswith('"'):
        return None
    out, i, body = bytearray(), 0, text[1:-1]
    while i < len(body):
        if body[i] != "\\":
            out += body[i].encode("utf-8")
            i += 1
        elif body[i + 1:i + 2] in ("n", "t", "\\", '"'):
            out += {"n": b"\n", "t": b"\t", "\\": b"\\", '"': b'"'}[body[i + 1]]
            i += 2
        elif body[i + 1:i + 2] == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        else:
            return None
    return bytes(out)


def junit_text(raw):
    """How junit.c spells bytes in XML: UTF-8 characters XML 1.0 takes as
    they are, a backslash doubled, any other byte as \\xHH."""
    out, i = [], 0
    while i < len(raw):
        for n in (1, 2, 3, 4):
            try:
                ch = raw[i:i + n].decode("utf-8")
                break
            except UnicodeDecodeError:
                ch = None
        cp = ord(ch) if ch else None
        if ch is None or (cp < 0x20 and ch not in "\t\n") or cp == 0x7f or \
           cp in (0xfffe, 0xffff):
            out.append(f"\\x{raw[i]:02x}")
            i += 1
        else:
            out.append("\\\\" if ch == "\\" else ch)
            i += len(ch.encode("utf-8"))
    return "".join(out)


def ktap_text(raw):
    """How tests/cli/ktap.py's rules say a subject shows on a KTAP line."""
    try:
        text = raw.decode("utf-8")
        plain = all(0x20 <= ord(c) != 0x7f for c in text) and \
            "\\" not in text and '"' not in text and "#" not in text
    except UnicodeDecodeError:
        plain = False
    return text if plain else None


def check_ktap(c, report, path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        tests, trailing = ktap.parse(text)
    except ktap.KtapError as e:
        c.check(False, "KTAP parses as KTAP version 1", str(e))
        return
    c.check(True, "KTAP parses as KTAP version 1")
    parts = shown_parts(report)
    c.check([t["description"] for t in tests] == parts,
            "KTAP: a test per part compared and shown",
            f"tests: {[t['description'] for t in tests]}", f"parts: {parts}")
    bad = []
    for test in tests:
        want = [f for f in report["findings"] if part_of(report, f) == test["description"]]
        subs = test["subtests"] or []
        if len(subs) != len(want):
            bad.append(f"{test['description']}: {len(subs)} subtests, {len(want)} findings")
            continue
        if test["ok"] != (not any(fails(f) for f in want)):
            bad.append(f"{test['description']}: ok is {test['ok']}")
        for sub, f in zip(subs, want):
            if sub["ok"] == fails(f):
                bad.append(f"{sub['description']}: ok is {sub['ok']} for a {f['verdict']}")
            if sub["directive"] is not None:
                bad.append(f"{sub['description']}: a directive {sub['directive']}")
            plain = ktap_text(decode(f["subject"]))
            if plain is not None and sub["description"] != f"{f['kind']} {plain}":
                bad.append(f"{sub['description']!r} is not {f['kind']} {plain}")
            if not sub["description"].startswith(f["kind"] + " "):
                bad.append(f"{sub['description']!r} does not start with {f['kind']}")
            elif ktap_unquote(sub["description"][len(f["kind"]) + 1:]) != decode(f["subject"]):
                bad.append(f"{sub['description'][:200]!r}...: not the whole subject of "
                           f"{f['kind']} {f['subject'][:200]}...")
            if not sub["diagnostics"] or \
               sub["diagnostics"][0].split(":")[0] != f["verdict"]:
                bad.append(f"{sub['description']}: the first diagnostic is not its verdict")
            if f["doc"] and not any(d.startswith("doc: ") and
                                    d.endswith(f":{f['doc']['line']}")
                                    for d in sub["diagnostics"]):
                bad.append(f"{sub['description']}: no doc: FILE:LINE diagnostic")
    c.check(not bad, "KTAP: each finding a subtest, not ok exactly for a break not waived", *bad)
    names = [sub["description"] for test in tests for sub in test["subtests"] or []]
    c.check(len(names) == len(set(names)), "KTAP: no two findings make one test name",
            *sorted({n[:200] + "..." for n in names if names.count(n) > 1}))
    s = report["summary"]
    c.check(trailing == [f"{s['break']} break, {s['warn']} warn, {s['note']} note, {s['waived']} waived"],
            "KTAP: the summary in a closing diagnostic", f"{trailing}")

    kunit_dir = os.environ.get("KUNIT_DIR")
    if not kunit_dir:
        return
    sys.path.insert(0, kunit_dir)
    import kunit_parser
    import kunit_printer
    # its messages go to our stdout, where they would be stray lines
    kunit_printer.stdout._output = io.StringIO()
    result = kunit_parser.parse_run_tests(
        kunit_parser.extract_tap_lines(text.splitlines()))
    failed = sum(fails(f) for f in report["findings"])
    c.check(result.counts.errors == 0 and result.counts.failed == failed and
            result.counts.total() == len(report["findings"]) + sum(
                1 for p in shown_parts(report)
                if not any(part_of(report, f) == p for f in report["findings"])),
            "KTAP: the kernel's kunit_parser.py reads it, the failures are the breaks",
            f"{result.counts}", f"breaks not waived: {failed}")
    kunit_names = [sub.name for test in result.subtests for sub in test.subtests]
    c.check(kunit_names == names, "KTAP: kunit_parser.py names the findings' tests as ktap.py does",
            *[f"{k[:200]!r} for {n[:200]!r}" for k, n in zip(kunit_names, names) if k != n])


def check_junit(c, report, path):
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(os.path.join(CI, "junit-10.xsd")))
    try:
        doc = etree.parse(path)
    except etree.XMLSyntaxError as e:
        c.check(False, "JUnit is well-formed XML", str(e))
        return
    c.check(schema.validate(doc), "JUnit validates against junit-10.xsd",
            *[str(e) for e in schema.error_log])
    root = doc.getroot()
    suites = root.findall("testsuite")
    parts = shown_parts(report)
    c.check(root.tag == "testsuites" and [s.get("name") for s in suites] == parts,
            "JUnit: a testsuite per part compared and shown",
            f"{[s.get('name') for s in suites]} != {parts}")
    bad = []
    for suite in suites:
        want = [f for f in report["findings"] if part_of(report, f) == suite.get("name")]
        cases = suite.findall("testcase")
        counts = (len(cases), sum(1 for x in cases if x.find("failure") is not None),
                  sum(1 for x in cases if x.find("skipped") is not None))
        attrs = tuple(int(suite.get(a)) for a in ("tests", "failures", "skipped"))
        if counts != attrs:
            bad.append(f"{suite.get('name')}: counts {attrs}, elements {counts}")
        if len(cases) != len(want):
            bad.append(f"{suite.get('name')}: {len(cases)} testcases, {len(want)} findings")
            continue
        for case, f in zip(cases, want):
            outcome = "failure" if fails(f) else "skipped" if f["waiver"] else "system-out"
            children = [x.tag for x in case]
            if children != [outcome]:
                bad.append(f"{case.get('name')}: {children} for a {f['verdict']}")
            want_name = f"{f['kind']} {junit_text(decode(f['subject']))}"
            if case.get("name") != want_name:
                bad.append(f"{case.get('name')!r} != {want_name!r}")
            body = case[0].text or ""
            if f["doc"] and f":{f['doc']['line']}\n" not in body:
                bad.append(f"{case.get('name')}: the doc entry is not named")
    c.check(not bad, "JUnit: each finding a testcase, a failure exactly for a break not waived", *bad)
    c.check(int(root.get("tests")) == len(report["findings"]) and
            int(root.get("failures")) == sum(fails(f) for f in report["findings"]),
            "JUnit: testsuites counts the findings and failures",
            f"tests={root.get('tests')} failures={root.get('failures')}")


def check_sarif(c, report, path):
    from jsonschema import FormatChecker
    from jsonschema.validators import validator_for
    with open(os.path.join(CI, "sarif-2.1.0-subset.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    cls = validator_for(schema)
    cls.check_schema(schema)
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    errors = [f"{e.json_path}: {e.message}"
              for e in cls(schema, format_checker=FormatChecker()).iter_errors(log)]
    c.check(not errors, "SARIF validates against the SARIF 2.1.0 schema (subset)", *errors)
    runs = log["runs"]
    c.check(len(runs) == 1 and runs[0]["tool"]["driver"]["name"] == "kabidiff",
            "SARIF: one run of kabidiff")
    run = runs[0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    c.check(len(results) == len(report["findings"]),
            "SARIF: a result per finding", f"{len(results)} != {len(report['findings'])}")
    bad = []
    for r, f in zip(results, report["findings"]):
        if r["ruleId"] != f["kind"] or rules[r["ruleIndex"]]["id"] != f["kind"]:
            bad.append(f"{r['ruleId']}: not the rule of {f['kind']}")
        if r["level"] != SARIF_LEVEL[f["verdict"]]:
            bad.append(f"{f['subject']}: level {r['level']} for {f['verdict']}")
        loc = r["locations"][0]
        logical = loc["logicalLocations"][0]
        if logical["fullyQualifiedName"] != f["subject"] or logical["kind"] not in LOGICAL_KINDS:
            bad.append(f"{f['subject']}: logical location {logical}")
        phys = loc.get("physicalLocation")
        if f["doc"]:
            uri = "Documentation/ABI/" + f["doc"]["file"]
            from urllib.parse import unquote_to_bytes
            if phys is None or unquote_to_bytes(phys["artifactLocation"]["uri"]) != \
               decode(uri) or phys["region"]["startLine"] != f["doc"]["line"]:
                bad.append(f"{f['subject']}: physical location {phys} for {uri}")
        elif phys is not None:
            bad.append(f"{f['subject']}: a physical location without a doc entry")
        if bool(r.get("suppressions")) != bool(f["waiver"]):
            bad.append(f"{f['subject']}: suppressions {r.get('suppressions')}")
    c.check(not bad, "SARIF: rule, level, locations and suppression of each finding", *bad)
    ids = [r["id"] for r in rules]
    c.check(len(set(ids)) == len(ids) and all(f["kind"] in ids for f in report["findings"]),
            "SARIF: the rules are the change kinds, each once")


def main(argv):
    if len(argv) != 6:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    name, report_path, ktap_path, junit_path, sarif_path = argv[1:]
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    with open(os.path.join(TOP, "docs", "report.schema.json"), encoding="utf-8") as f:
        kinds = json.load(f)["$defs"]["finding"]["properties"]["kind"]["enum"]
    # the kinds are listed part by part, in docs/policy.md's order
    for kind in kinds:
        KIND_PART[kind] = ("sysfs" if not any(kind.startswith(p) for p in
                                              ("syscall-", "vdso-", "type", "member-",
                                               "enumerator-", "doc-"))
                           else "syscalls" if kind.startswith("syscall-")
                           else "vdso" if kind.startswith("vdso-")
                           else "docs" if kind.startswith("doc-") else "types")
    c = Checks(name)
    check_ktap(c, report, ktap_path)
    check_junit(c, report, junit_path)
    check_sarif(c, report, sarif_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
