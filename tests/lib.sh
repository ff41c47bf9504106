# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for the shell tests, sourced by tests/*/*.t (git's t/test-lib.sh
# in miniature).  Each test prints "ok N - name" or "not ok N - name" with the
# evidence as "# " lines; done_testing prints the plan and sets the status.
# A script must end through done_testing or skip_all: one that exits any
# other way gets a failing test and a plan from the EXIT trap, so it cannot
# pass with the tests it did not reach.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
KABIDIFF=${KABIDIFF:-$TOP/build/kabidiff}
# the ASan+UBSan build, which "make check" builds and plain "make" does not
ASAN_KABIDIFF=$TOP/build/asan/kabidiff
ASAN_AGENT=$TOP/build/asan/kabi-agent
FIXTURES=$TOP/tests/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kabidiff-test.XXXXXX")

tap_count=0
tap_failed=0
tap_done=

# the EXIT trap: remove $TMP; if neither done_testing nor skip_all ended the
# script, say so as a failing test, print the plan and exit non-zero
tap_exit() {
	tap_status=$?
	rm -rf "$TMP"
	[ -n "$tap_done" ] && return
	fail "${0##*/} ended with status $tap_status before done_testing: the tests after that point did not run"
	echo "1..$tap_count"
	[ "$tap_status" -ne 0 ] || tap_status=1
	exit "$tap_status"
}
trap tap_exit EXIT

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
		if [ -n "$line" ]; then
			printf '%s\n' "$line" | sed 's/^/#   /'
		fi
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

# has TEXT PART NAME: TEXT holds PART (literal, may span lines); lacks: not
has() {
	case "$1" in
	*"$2"*) pass "$3" ;;
	*) fail "$3" "expected to hold: $2" "got: $1" ;;
	esac
}

lacks() {
	case "$1" in
	*"$2"*) fail "$3" "expected not to hold: $2" "got: $1" ;;
	*) pass "$3" ;;
	esac
}

# relay NAME <FILE: read the "ok - TEST" / "not ok - TEST" / "# ..." lines
# that the checker NAME wrote and count them as this script's tests (not
# from a pipe: the counts must stay in this shell).  Any other line is shown
# as a comment and makes one failing test: a stray line must not reach the
# TAP stream as it is ("ok 3", "1..2", "Bail out!") nor be lost.  The last
# line counts even without its newline.
relay() {
	relay_stray=0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in
		"ok - "*)	pass "${line#ok - }" ;;
		"not ok - "*)	fail "${line#not ok - }" ;;
		"#"*)		printf '%s\n' "$line" ;;
		"")		;;
		*)		relay_stray=$((relay_stray + 1))
				printf '#   %s: %s\n' "$1" "$line" ;;
		esac
	done
	[ "$relay_stray" -eq 0 ] ||
		fail "$1 printed $relay_stray lines that are neither a test line nor a comment"
}

# run_checker NAME CMD [ARGS...]: run the checker CMD (a Python script, or
# "python3 - ARGS <<'PY'": CMD reads this function's stdin), relay the test
# lines it prints, and add a failing test when it exits non-zero (an
# exception: Python exits 1 and the checks after it never print) or prints
# no test line at all, with the end of its stderr as the evidence.  When it
# passes, its stderr goes to ours.
run_checker() {
	checker_name=$1
	shift
	"$@" >"$TMP/checker.out" 2>"$TMP/checker.err"
	checker_status=$?
	checker_tests=$tap_count
	relay "$checker_name" <"$TMP/checker.out"
	checker_tests=$((tap_count - checker_tests))
	if [ "$checker_status" -ne 0 ]; then
		fail "$checker_name exited with status $checker_status" \
		     "$(tail -n 20 "$TMP/checker.err")"
	elif [ "$checker_tests" -eq 0 ]; then
		fail "$checker_name printed no test line" \
		     "$(tail -n 20 "$TMP/checker.err")"
	else
		cat "$TMP/checker.err" >&2
	fi
}

# skip_all REASON: nothing here can run on this machine
skip_all() {
	tap_done=1
	echo "1..0 # SKIP $1"
	exit 0
}

# skip REASON: one test that does not run here, and why
skip() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count # skip $1"
}

# not_built BIN: true when the program BIN is not built, after a skip that
# says so, once a program: for the loops over the builds,
#	for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do
#		not_built "$bin" && continue
not_built() {
	[ -x "$1" ] && return 1
	case "$not_built_said" in
	*"|$1|"*)	;;
	*)		skip "${1#"$TOP"/} is not built, so its checks do not run (make ${1#"$TOP"/}, or make check)"
			not_built_said="$not_built_said|$1|" ;;
	esac
	return 0
}

# tree_version TREE: the version of the linux-source package that
# tests/kernel-tree.sh unpacked TREE from (its marker file says it: "SIZE
# MTIME VERSION" of an installed tarball, "apt-get download
# PACKAGE=VERSION" of a downloaded one)
tree_version() {
	sed 's/.* //; s/^.*=//' "$1/.kabidiff-unpacked"
}

# reviewed INPUT VERSION REVIEWED: whether this run's INPUT (a package) is
# at the VERSION its exact expectations (counts, lists read by hand) were
# reviewed on; otherwise says which version it runs on, and the script
# checks only what holds on any version.
reviewed() {
	[ "$2" = "$3" ] && return 0
	echo "# $1 is $2 here, not $3, the version the exact expectations were reviewed on: they are not checked"
	return 1
}

# series_abis SERIES: the ABIs of Debian's SERIES (6.1, 6.12) the archive
# has, one a line, oldest first: the last is the one "kabidiff
# debian:SERIES" chooses (tests/cache-lib.sh's series_abi, which runs
# apt-get update if apt knows none); nothing, and why on stderr, if it has
# none.  A test names a series, not an ABI the archive will drop.
series_abis() {
	(. "$TOP/tests/cache-lib.sh" && series_abi "$1" >/dev/null && debian_abis "$1")
}

# missing_input REASON: an input this script needs could not be had (a
# download, an unpacked tree, a built kernel): one failing test that says
# so, and the script ends there; the other scripts still run.
missing_input() {
	fail "$1: the checks of ${0##*/} did not run"
	tap_done=1
	echo "1..$tap_count"
	exit 1
}

# run_kabidiff ARGS...: run it, keep stdout, stderr and status for the checks
run_kabidiff() {
	"$KABIDIFF" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

# $out without the lines of details under a report's first line ("  old:
# ...", "  new: ...", "  rules: ..."; in Markdown "- old: ..."): header.t
# tests them, other tests look at what follows.
drop_details() {
	printf '%s\n' "$out" | sed '/^  \(old\|new\|rules\): /d; /^- \(old\|new\|rules\): /d'
}

# $out with the files under $TOP named from $TOP, as in the checked-in
# reports (their headers name the snapshots given).
relative_out() {
	printf '%s\n' "$out" | sed "s|$TOP/||g"
}

done_testing() {
	tap_done=1
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
	exit
}

# KABIDIFF_TEST_HIDE_ABIS="6.1.0-57 ...": Debian's archive answers, to the
# tests and to the kabidiff they run, as if those ABIs were gone, through
# tests/moved-archive/ first in PATH and a cache of their own
# (tests/moved-archive.sh).
if [ -n "${KABIDIFF_TEST_HIDE_ABIS-}" ]; then
	KABIDIFF_CACHE=$("$TOP/tests/moved-archive.sh" --cache) ||
		missing_input "could not set up the cache for KABIDIFF_TEST_HIDE_ABIS=$KABIDIFF_TEST_HIDE_ABIS (tests/moved-archive.sh)"
	case :$PATH: in
	*:"$TOP/tests/moved-archive":*) ;;
	*) PATH=$TOP/tests/moved-archive:$PATH ;;
	esac
	export PATH KABIDIFF_CACHE KABIDIFF_TEST_HIDE_ABIS
	echo "# Debian's archive as if it no longer had $KABIDIFF_TEST_HIDE_ABIS (KABIDIFF_TEST_HIDE_ABIS); the cache is $KABIDIFF_CACHE"
fi
