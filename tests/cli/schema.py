#!/usr/bin/env python3
"""Validate JSON files against a JSON Schema (draft 2020-12), reporting in TAP.

Usage: python3 tests/cli/schema.py SCHEMA FILE...

The schema itself is checked first (a broken one bails out).  Then the plan
"1..N" is printed and one line per FILE: "ok N - FILE", or "not ok N - FILE"
followed by a "# " comment line for each problem: a JSON syntax error, or each
validation error with its place in the document as a JSON path ("$.sysfs[0]").
Exits 0 when every FILE is valid, 1 otherwise, 2 on a usage error.

JSON is read as strictly as kabidiff reads it: a key given twice in an object
is an error, and a number written with a fraction or an exponent (1.0, 1e3) is
never an integer.

Needs only the standard library and the jsonschema module (Debian
python3-jsonschema).
"""
import decimal
import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match


def unique_keys(pairs):
    """An object from @pairs, refusing a key given twice (as kabidiff does)."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate object key {key!r}")
        obj[key] = value
    return obj


def load(path):
    # Numbers with a fraction or exponent become Decimal, which jsonschema
    # does not take for an integer even when whole: kabidiff refuses 1.0 too.
    with open(path, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=unique_keys,
                         parse_float=decimal.Decimal)


def problems(validator, path):
    """The messages saying why the file at @path is invalid; [] if it is valid."""
    try:
        doc = load(path)
    except (OSError, ValueError) as e:
        return [str(e)]
    messages = []
    for error in validator.iter_errors(doc):
        # for anyOf and the like, the error in the branch that came closest
        error = best_match([error])
        messages.append(f"{error.json_path}: {error.message}")
    return messages


def main(argv):
    if len(argv) < 3:
        print(f"usage: {argv[0]} SCHEMA FILE...", file=sys.stderr)
        return 2
    schema_path, files = argv[1], argv[2:]
    try:
        schema = load(schema_path)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as e:
        print(f"Bail out! {schema_path}: {str(e).splitlines()[0]}")
        return 1
    validator = Draft202012Validator(schema)

    print(f"1..{len(files)}")
    failed = 0
    for n, path in enumerate(files, 1):
        messages = problems(validator, path)
        print(f"{'not ok' if messages else 'ok'} {n} - {path}")
        for message in messages:
            for line in message.splitlines():
                print(f"# {line}")
        failed += bool(messages)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
