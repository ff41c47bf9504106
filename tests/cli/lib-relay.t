#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/lib.sh itself, on small scripts of its own: run_checker fails when
# its checker raises, exits non-zero, prints no test line or a line that is
# not TAP, and passes a sound checker through; a script that ends before
# done_testing fails; not_built skips, missing_input fails one script and
# not the run; every tests/*/*.t ends through done_testing.
. "$(dirname "$0")/../lib.sh"

LIB=$TOP/tests/lib.sh
mkdir "$TMP/t"

# inner NAME <SCRIPT: SCRIPT as $TMP/t/NAME.t sourcing lib.sh, run; its TAP
# in $tap, its stderr in $TMP/NAME.err, its exit status in $inner_status
inner() {
	{ printf '#!/bin/sh\n. "%s"\n' "$LIB"; cat; } >"$TMP/t/$1.t"
	sh "$TMP/t/$1.t" >"$TMP/$1.tap" 2>"$TMP/$1.err"
	inner_status=$?
	tap=$(cat "$TMP/$1.tap")
}

# the case of the issue: a checker prints a check, then raises
inner raises <<'EOF'
run_checker "a checker that raises" python3 - <<'PY'
print("ok - the first check")
raise RuntimeError("the second check never runs")
print("ok - the second check")
PY
done_testing
EOF
is "$inner_status:$(grep -v '^#' "$TMP/raises.tap")" "1:ok 1 - the first check
not ok 2 - a checker that raises exited with status 1
1..2" "a checker that raises: its check, then a failing test naming it and its status; exit 1"
grep -qx '#   RuntimeError: the second check never runs' "$TMP/raises.tap"
is "$?" 0 "and the evidence is the traceback"
prove "$TMP/t/raises.t" >"$TMP/prove.out" 2>&1
is "$?:$(tail -n 1 "$TMP/prove.out")" "1:Result: FAIL" "prove fails that script"

# the same checker without the exception passes: the helper is not a fail
# of everything, and a checker's stderr still reaches ours
inner sound <<'EOF'
run_checker "a sound checker" python3 - <<'PY'
import sys
print("ok - the first check")
print("# evidence")
print("warning: on stderr", file=sys.stderr)
print("ok - the second check")
PY
done_testing
EOF
is "$inner_status:$tap:$(cat "$TMP/sound.err")" "0:ok 1 - the first check
# evidence
ok 2 - the second check
1..2:warning: on stderr" "a sound checker: its two checks and its comment, stderr passed on, exit 0"
prove "$TMP/t/sound.t" >"$TMP/prove.out" 2>&1
is "$?:$(tail -n 1 "$TMP/prove.out")" "0:Result: PASS" "prove passes that script"

# checkers that fail otherwise
inner statuses <<'EOF'
run_checker "not ok, exit 0" python3 -c 'print("not ok - a check that fails")'
run_checker "exit 3" python3 -c 'import sys; print("ok - a check"); sys.exit(3)'
run_checker "no such checker" /nonexistent/kabidiff-checker
run_checker "a silent checker" true
done_testing
EOF
is "$inner_status:$(grep -v '^#' "$TMP/statuses.tap")" "1:not ok 1 - a check that fails
ok 2 - a check
not ok 3 - exit 3 exited with status 3
not ok 4 - no such checker exited with status 127
not ok 5 - a silent checker printed no test line
1..5" "a failing check, exit 3, a checker that is not there, one that prints nothing: each fails"
grep -q '^#   .*/nonexistent/kabidiff-checker: not found$' "$TMP/statuses.tap"
is "$?" 0 "and the shell's message is the evidence for the missing one"

# lines that are not "ok - ", "not ok - " or "# ": never TAP as they are
inner stray <<'EOF'
run_checker "a stray checker" python3 - <<'PY'
import sys
print("ok 7 - a numbered check")
print("1..9")
print("")
sys.stdout.write("ok - the last line, without its newline")
PY
done_testing
EOF
is "$inner_status:$tap" "1:#   a stray checker: ok 7 - a numbered check
#   a stray checker: 1..9
ok 1 - the last line, without its newline
not ok 2 - a stray checker printed 2 lines that are neither a test line nor a comment
1..2" "stray lines become comments and one failing test; a last line without newline counts"

# a script that ends early fails, whatever its status
inner early <<'EOF'
pass "one"
exit 0
pass "two"
done_testing
EOF
is "$inner_status:$tap" "1:ok 1 - one
not ok 2 - early.t ended with status 0 before done_testing: the tests after that point did not run
1..2" "exit 0 before done_testing: a failing test, the plan, exit 1"
inner early3 <<'EOF'
pass "one"
exit 3
EOF
is "$inner_status:$(tail -n 1 "$TMP/early3.tap")" "3:1..2" \
   "exit 3 before done_testing: the plan counts the failing test, exit 3"
inner skip <<'EOF'
skip_all "nothing to run here"
EOF
is "$inner_status:$tap" "0:1..0 # SKIP nothing to run here" "skip_all still ends a script cleanly"

# a program that is not built: its checks are skipped, said once
inner not-built <<'EOF'
for bin in "$TMP/nowhere" "$TMP/nowhere"; do
	not_built "$bin" && continue
	fail "not_built let an absent program through"
done
pass "after the loop"
done_testing
EOF
case $tap in
"ok 1 # skip "*"/nowhere is not built, so its checks do not run (make "*"/nowhere, or make check)
ok 2 - after the loop
1..2")	pass "not_built: one skip for a missing program, however often asked; the script goes on" ;;
*)	fail "not_built: one skip for a missing program, however often asked; the script goes on" "$tap" ;;
esac
prove "$TMP/t/not-built.t" >"$TMP/prove.out" 2>&1
is "$?:$(tail -n 1 "$TMP/prove.out")" "0:Result: PASS" "prove passes a script whose ASan checks are skipped"

# an input that could not be had: a failing test that names it, the end
# of that script only
inner missing <<'EOF'
pass "before"
missing_input "could not fetch Debian's 9.9.9 kernel"
pass "never"
EOF
is "$inner_status:$tap" "1:ok 1 - before
not ok 2 - could not fetch Debian's 9.9.9 kernel: the checks of missing.t did not run
1..2" "missing_input: a failing test that names the input, the plan, exit 1"
prove "$TMP/t/missing.t" "$TMP/t/sound.t" >"$TMP/prove.out" 2>&1
is "$?:$(grep -c 'Bail' "$TMP/prove.out"):$(grep -c 'sound.t .* ok$' "$TMP/prove.out"):$(tail -n 1 "$TMP/prove.out")" \
   "1:0:1:Result: FAIL" "prove runs the scripts after it, and fails the run at the end"

# every test script sources lib.sh and ends through done_testing
bad=
for t in "$TOP"/tests/*/*.t; do
	grep -qxF '. "$(dirname "$0")/../lib.sh"' "$t" &&
		[ "$(grep -v '^[[:space:]]*$' "$t" | tail -n 1)" = done_testing ] ||
		bad="$bad ${t#"$TOP"/}"
done
is "${bad# }" "" "every tests/*/*.t sources lib.sh and ends with done_testing"

# prove reads the unit tests' TAP: one that prints cmocka's own format has
# "no plan" and fails the run however its tests went
bad=
for t in "$TOP"/tests/unit/test-*.c; do
	grep -q 'cmocka_set_message_output(CM_OUTPUT_TAP);' "$t" ||
		bad="$bad ${t#"$TOP"/}"
done
is "${bad# }" "" "every unit test prints TAP"

done_testing
