#!/bin/sh
# The command line around the commands: help, the command tables (docs
# has its own), "did you mean", and what is a usage error.
. "$(dirname "$0")/../lib.sh"

run_kabidiff help diff
is "$status:$(printf '%s\n' "$out" | head -1)" \
   "0:Usage: kabidiff diff [--format text|json|markdown|ktap|junit|sarif]" \
   "help diff prints diff's help"
"$KABIDIFF" diff --help >"$TMP/diff-help"
is "$out" "$(cat "$TMP/diff-help")" "help diff is diff --help"

run_kabidiff help docs search
is "$status:$(printf '%s\n' "$out" | head -1)" "0:Usage: kabidiff docs validate [-o FILE] (DIR | FILE...)" \
   "help docs search prints the docs help"

run_kabidiff help
is "$status:$(printf '%s\n' "$out" | head -1)" "0:Usage: kabidiff [--json] [--quiet] COMMAND [ARGS...]" \
   "help alone prints the program's help"

run_kabidiff shwo x
is "$status:$out:$err" "2::kabidiff: unknown command 'shwo'; did you mean 'show'?
Try 'kabidiff --help'." "a mistyped command gets the nearest name"

run_kabidiff frob --help
is "$status:$out:$err" "2::kabidiff: unknown command 'frob'
Try 'kabidiff --help'." "an unknown command's --help is an error, not diff's help"

run_kabidiff help frob
is "$status:$err" "2:kabidiff: unknown command 'frob'
Try 'kabidiff --help'." "help of an unknown command is an error"

run_kabidiff docs valdate "$FIXTURES/abi"
is "$status:$err" "2:kabidiff: unknown docs command 'valdate'; did you mean 'validate'?
Try 'kabidiff docs --help'." "a mistyped docs subcommand gets the nearest name"

run_kabidiff docs
is "$status:$err" "2:kabidiff: docs needs validate, search or diff
Try 'kabidiff docs --help'." "docs without a subcommand"

run_kabidiff docs validate --json "$FIXTURES/abi"
is "$status:$err" "2:kabidiff docs validate: unrecognized option '--json'
Try 'kabidiff docs --help'." "docs validate takes no --json"

# "kabidiff OLD NEW" is diff, whatever the files are called
cp "$FIXTURES/snapshots/full.json" "$TMP/old"
run_kabidiff "$TMP/old" "$FIXTURES/snapshots/full.json"
is "$status:$out" "0:" "kabidiff OLD NEW diffs two snapshots"
(cd "$TMP" && "$KABIDIFF" old old >/dev/null 2>"$TMP/err")
is "$?:$(cat "$TMP/err")" "0:" "kabidiff OLD NEW with command-like file names"

run_kabidiff collect --timeout 0 "$TMP"
is "$status:$err" "2:kabidiff: --timeout takes 1 to 86400 seconds, not '0'
Try 'kabidiff collect --help'." "an option's handler refuses a bad value"

run_kabidiff diff --format
is "$status:$err" "2:kabidiff diff: option '--format' requires an argument
Try 'kabidiff diff --help'." "a missing argument is a usage error"

"$KABIDIFF" -q collect --docs "$FIXTURES/abi" -o "$TMP/q.json" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "0:" "-q: the warnings of collect are not printed"
"$KABIDIFF" --quiet show "$TMP/nothing.json" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "2:kabidiff: $TMP/nothing.json: No such file or directory" \
   "--quiet: errors are"

done_testing
