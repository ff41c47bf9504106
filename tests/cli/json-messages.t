#!/bin/sh
# Diagnostics as JSON: when a command prints JSON (the global --json, a
# command's --json, --format json), each error, warning and progress line on
# stderr is one JSON object, {"level":...,"message":...}, with "file" and
# "line" (and "column") when the message names a place, and "hint" for a
# usage error; valid JSON whatever bytes the message shows.  Without them
# the messages are the text lines they were.
. "$(dirname "$0")/../lib.sh"

PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || skip_all "$PYTHON is not installed: it parses the JSON lines"
D=$FIXTURES/diff
OLD=$D/stable.old.json
NEW=$D/stable.new.json
ESC=$(printf '\033')

# messages FILE: each line of FILE parsed as JSON, one line each:
# LEVEL|MESSAGE|FILE|LINE|COLUMN|HINT, or "not JSON: LINE", or "not one
# object: LINE"
messages() {
	"$PYTHON" -c '
import json, sys
KEYS = ("level", "message", "file", "line", "column", "hint")
for line in open(sys.argv[1], "rb").read().decode("utf-8").split("\n")[:-1]:
    try:
        o = json.loads(line)
    except ValueError:
        print("not JSON: " + line)
        continue
    if not isinstance(o, dict) or set(o) - set(KEYS) or \
       not isinstance(o.get("level"), str) or not isinstance(o.get("message"), str):
        print("not one object: " + line)
        continue
    print("|".join(str(o.get(k, "")) for k in KEYS))
' "$1" 2>&1
}

# json_run ARGS...: run kabidiff, its stderr parsed into $msgs
json_run() {
	run_kabidiff "$@"
	msgs=$(messages "$TMP/err")
}

# A usage error, with each way of asking for JSON; an error before
# --format json on the line is JSON all the same
for args in "--json diff --verdict fatal $OLD $NEW" \
	    "diff --format json --verdict fatal $OLD $NEW" \
	    "diff --verdict fatal --format=json $OLD $NEW" \
	    "diff --verdict fatal $OLD $NEW --json"; do
	# shellcheck disable=SC2086
	json_run $args
	is "$status|$out|$msgs" \
	   "2||error|--verdict is break, warn or note, not 'fatal'||||Try 'kabidiff diff --help'." \
	   "usage error as JSON: kabidiff $(echo "$args" | sed "s|$D/||g")"
done
json_run diff --format json "$OLD" "$NEW" --waivers
is "$status|$msgs" "2|error|option '--waivers' requires an argument||||Try 'kabidiff diff --help'." \
   "getopt's error as JSON: a missing argument (and the operands stay operands)"
json_run diff --format json --bogus "$OLD" "$NEW"
is "$status|$msgs" "2|error|unrecognized option '--bogus'||||Try 'kabidiff diff --help'." \
   "getopt's error as JSON: an unknown option"
json_run diff --format json --p sysfs "$OLD" "$NEW"
is "$status|$msgs" "2|error|option '--p' is ambiguous||||Try 'kabidiff diff --help'." \
   "getopt's error as JSON: an ambiguous option"
json_run show -jx "$OLD"
is "$status|$msgs" "2|error|invalid option -- 'x'||||Try 'kabidiff show --help'." \
   "getopt's error as JSON: an unknown letter"
json_run --json frob
is "$status|$msgs" "2|error|unknown command 'frob'||||Try 'kabidiff --help'." \
   "an unknown command under --json"
json_run --json docs validate "$FIXTURES/abi"
is "$status|$msgs" "2|error|docs validate prints FILE:LINE: lines, not JSON: --json is not its||||Try 'kabidiff docs --help'." \
   "a command that refuses --json says so in JSON"

# A malformed waiver file: its place in "file" and "line", the message
# after it; control bytes and bytes that are not UTF-8 escaped as in text
printf 'node-removed /sys/a ok\n%s[31m\351 /sys/a see bug\n' "$ESC" >"$TMP/bad.waivers"
for args in "--json diff $OLD $NEW" "diff --format json $OLD $NEW" \
	    "check --format json --baseline $OLD $TMP"; do
	# shellcheck disable=SC2086
	json_run $args --waivers "$TMP/bad.waivers"
	is "$status|$out|$msgs" \
	   "2||error|'\\x1b[31m\\xe9' is not a change kind (node-removed, mode-lost, ... or *)|$TMP/bad.waivers|2||" \
	   "a malformed waiver file as JSON: kabidiff ${args%% /*}"
done
run_kabidiff diff --waivers "$TMP/bad.waivers" "$OLD" "$NEW"
is "$status|$err" "2|kabidiff: $TMP/bad.waivers:2: '\\x1b[31m\\xe9' is not a change kind (node-removed, mode-lost, ... or *)" \
   "without JSON, the same error is the text line it was"

# A missing file: no place, the file is part of the message
json_run diff --format json "$TMP/nothing.json" "$NEW"
is "$status|$out|$msgs" "2||error|$TMP/nothing.json: No such file or directory||||" \
   "a missing file as JSON (diff --format json)"
json_run show --json "$TMP/nothing.json"
is "$status|$out|$msgs" "2||error|$TMP/nothing.json: No such file or directory||||" \
   "a missing file as JSON (show --json)"
run_kabidiff show "$TMP/nothing.json"
is "$status|$err" "2|kabidiff: $TMP/nothing.json: No such file or directory" \
   "without JSON, a missing file is the text line it was"
json_run --json show "$FIXTURES/bad/truncated.json"
is "$status|$msgs" "2|error|premature end of input near '\"x86_'|$FIXTURES/bad/truncated.json|105|18|" \
   "a JSON syntax error: file, line and column"

# Warnings and progress beside the report: stdout is the report alone
printf 'node-removed /sys/kabi/gone "as planned"\nnode-removed /sys/nowhere "stale"\n' >"$TMP/stale.waivers"
KABIDIFF_VERBOSE=1 json_run diff --format json --waivers "$TMP/stale.waivers" "$OLD" "$NEW"
is "$status|$(printf '%s\n' "$msgs" | grep -c '^info|'):$(printf '%s\n' "$msgs" | grep -v '^info|')" \
   "1|3:warning|waiver matched no change|$TMP/stale.waivers|2||" \
   "a stale waiver and the progress, as JSON"
is "$(printf '%s\n' "$out" | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["summary"])')" \
   "{'break': 19, 'warn': 1, 'note': 10, 'waived': 1}" "the report on stdout is untouched"
run_kabidiff -q diff --format json --waivers "$TMP/stale.waivers" "$OLD" "$NEW"
is "$status|$err" "1|" "-q: no warning, in JSON or not"
json_run -q --json show "$TMP/nothing.json"
is "$status|$msgs" "2|error|$TMP/nothing.json: No such file or directory||||" "-q --json: errors, as JSON"
run_kabidiff diff --waivers "$TMP/stale.waivers" "$OLD" "$NEW"
is "$status|$err" "1|kabidiff: warning: $TMP/stale.waivers:2: waiver matched no change" \
   "without JSON, a warning is the text line it was"

# The last word says: --json, then --format text, is text
run_kabidiff --json diff --format text --verdict fatal "$OLD" "$NEW"
is "$status|$err" "2|kabidiff: --verdict is break, warn or note, not 'fatal'
Try 'kabidiff diff --help'." "--json then --format text: text messages"
run_kabidiff diff --bogus "$OLD" "$NEW"
is "$status|$err" "2|kabidiff diff: unrecognized option '--bogus'
Try 'kabidiff diff --help'." "without JSON, getopt's message is its own"

done_testing
