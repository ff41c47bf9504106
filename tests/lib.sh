# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for the shell tests, sourced by tests/*/*.t (git's t/test-lib.sh
# in miniature).  Each test prints "ok N - name" or "not ok N - name" with the
# evidence as "# " lines; done_testing prints the plan and sets the status.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
KABIDIFF=${KABIDIFF:-$TOP/build/kabidiff}
FIXTURES=$TOP/tests/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kabidiff-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

tap_count=0
tap_failed=0

pass() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $1"
}

fail() {
	tap_count=$((tap_count + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_count - $1"
	shift
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/#   /'
	done
}

# is ACTUAL EXPECTED NAME
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "expected: $2" "got:      $1"
	fi
}

# relay <FILE: read "ok - NAME" / "not ok - NAME" / "# ..." lines that a
# helper program wrote and count them as this script's tests (not from a
# pipe: the counts must stay in this shell)
relay() {
	while IFS= read -r line; do
		case "$line" in
		"ok - "*)	pass "${line#ok - }" ;;
		"not ok - "*)	fail "${line#not ok - }" ;;
		*)		printf '%s\n' "$line" ;;
		esac
	done
}

# skip_all REASON: nothing here can run on this machine
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# run_kabidiff ARGS...: run it, keep stdout, stderr and status for the checks
run_kabidiff() {
	"$KABIDIFF" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

done_testing() {
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
	exit
}
