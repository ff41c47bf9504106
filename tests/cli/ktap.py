#!/usr/bin/env python3
"""A strict parser of KTAP version 1, from the kernel's
Documentation/dev-tools/ktap.rst (a copy: linux-source-6.12 in the cache).

Usage: python3 tests/cli/ktap.py FILE    prints the tests as JSON

The grammar, as ktap.rst gives it:

  document   := version subtest-name? plan? item*
  subtest-name := INDENT "# Subtest: " NAME     (KUnit's, see below)
  version    := INDENT "KTAP version 1"   (also "TAP version 13|14")
  plan       := INDENT "1.." N
  item       := diagnostic | result | subtest | unknown
  diagnostic := INDENT "#" TEXT          ("# Subtest: NAME" is one too)
  result     := INDENT ("ok" | "not ok") " " NUMBER [" " DESCRIPTION]
                [" # " [DIRECTIVE] [DIAGNOSTIC DATA]]
  subtest    := a document indented two more spaces, followed by the result
                line of its parent test at the parent's indentation

with these rules: the first result of a level is number 1 and each next one
the number after; a plan, when there is one, counts the results of its
level; a description holds neither '#' nor a newline; a directive is one of
SKIP, TODO, XFAIL, TIMEOUT, ERROR; a test fails when any of its subtests
fails (ktap.rst's "bubbling up").

KUnit writes a "# Subtest: NAME" diagnostic between a nested version line
and its plan (ktap.rst's last section mentions TAP14's "Subtest" line, and
the kernel's tools/testing/kunit/kunit_parser.py reads it there); it is
taken as the name of the test whose subtests follow.

ktap.rst allows unknown lines (kernel messages mixed in); kabidiff writes
none, so this parser, which checks what kabidiff writes, refuses them.

A test is {"number", "ok", "description", "directive", "diagnostics",
"subtests"}: "diagnostics" are the "# " lines before its result line (at
the level of its subtests for a test that has some, else at its own), and
"subtests" its nested tests (null for a leaf).  Exits 0 with the JSON on
stdout, or 1 with "FILE:LINE: what is wrong" on stderr.
"""
import json
import re
import sys

VERSION = re.compile(r"^(KTAP version 1|TAP version 1[34])$")
PLAN = re.compile(r"^1\.\.(0|[1-9][0-9]*)$")
RESULT = re.compile(r"^(ok|not ok) ([1-9][0-9]*)(?: ([^#]*?))?(?: # ?(.*))?$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR")


class KtapError(Exception):
    def __init__(self, line, message):
        super().__init__(f"{line}: {message}")
        self.line = line


def indent_of(text):
    spaces = len(text) - len(text.lstrip(" "))
    return spaces, text[spaces:]


class Parser:
    def __init__(self, lines):
        self.lines = lines
        self.pos = 0
        self.names = []

    def peek(self):
        if self.pos >= len(self.lines):
            return None
        return indent_of(self.lines[self.pos])

    def error(self, message):
        raise KtapError(self.pos + 1, message)

    def document(self, depth):
        """The tests of one level, which starts at a version line."""
        want = 2 * depth
        head = self.peek()
        if head is None or head[0] != want or not VERSION.match(head[1]):
            self.error(f"expected a version line indented {want} spaces")
        self.pos += 1
        name = None
        head = self.peek()
        if depth and head is not None and head[0] == want and \
                head[1].startswith("# Subtest: "):
            name = head[1][len("# Subtest: "):]
            self.pos += 1
        self.names.append(name)
        plan = None
        head = self.peek()
        if head is not None and head[0] == want and PLAN.match(head[1]):
            plan = int(head[1][3:])
            self.pos += 1
        tests, diags = [], []
        while True:
            head = self.peek()
            if head is None or head[0] < want:
                break
            spaces, text = head
            if spaces == want + 2 and VERSION.match(text):
                subtests, sub_diags = self.document(depth + 1)
                name = self.names.pop()
                result = self.result_line(want)
                if name is not None and name != result["description"]:
                    self.error(f"subtests named {name!r} end with the result of {result['description']!r}")
                result["diagnostics"] = sub_diags + diags
                result["subtests"] = subtests
                if any(not t["ok"] for t in subtests) and result["ok"]:
                    # the result line, just read
                    raise KtapError(self.pos, f"test {result['number']} is ok but one of its subtests failed")
                self.number(tests, result)
                diags = []
            elif spaces != want:
                self.error(f"a line indented {spaces} spaces where {want} are expected")
            elif text.startswith("#"):
                diags.append(text[1:].lstrip(" ") if text != "#" else "")
                self.pos += 1
            elif RESULT.match(text):
                result = self.result_line(want)
                result["diagnostics"] = diags
                result["subtests"] = None
                self.number(tests, result)
                diags = []
            else:
                self.error(f"an unknown line: {text!r}")
        if plan is not None and plan != len(tests):
            self.error(f"the plan 1..{plan} but {len(tests)} tests")
        # diagnostics after the last result of a level belong to the
        # parent's result; at the top level, to nobody
        return tests, diags

    def result_line(self, want):
        head = self.peek()
        if head is None or head[0] != want:
            self.error(f"expected a result line indented {want} spaces")
        match = RESULT.match(head[1])
        if not match:
            self.error(f"expected a result line, not {head[1]!r}")
        self.pos += 1
        ok, number, description, rest = match.groups()
        directive = None
        if rest is not None:
            word = rest.split(" ", 1)[0]
            if word in DIRECTIVES:
                directive = word
        return {"number": int(number), "ok": ok == "ok",
                "description": description or "", "directive": directive,
                "data": rest}

    def number(self, tests, result):
        if result["number"] != len(tests) + 1:
            # the result line, just read
            raise KtapError(self.pos, f"test number {result['number']} where {len(tests) + 1} is next")
        tests.append(result)


def parse(text):
    """The top-level tests of KTAP @text and the trailing diagnostics."""
    if text and not text.endswith("\n"):
        raise KtapError(text.count("\n") + 1, "the last line has no newline")
    parser = Parser(text.split("\n")[:-1] if text else [])
    tests, trailing = parser.document(0)
    if parser.pos != len(parser.lines):
        parser.error("text after the end of the top-level tests")
    return tests, trailing


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    try:
        tests, trailing = parse(text)
    except KtapError as e:
        print(f"{argv[1]}:{e}", file=sys.stderr)
        return 1
    json.dump({"tests": tests, "trailing": trailing}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
