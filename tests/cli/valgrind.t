#!/bin/sh
# kabidiff under valgrind: no leak and no memory error, on the largest
# fixture and on an error path.
. "$(dirname "$0")/../lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind is not installed ('make deps' installs it)"

LARGEST=$(ls -S "$FIXTURES"/snapshots/*.json | head -n 1)

# memcheck ARGS...: run kabidiff under valgrind, 0 when valgrind is content
memcheck() {
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		"$KABIDIFF" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
}

memcheck show "$LARGEST"
is "$status" 0 "show ${LARGEST#"$TOP"/} is clean under valgrind"
[ "$status" -eq 0 ] || cat "$TMP/err" | sed 's/^/# /'

memcheck show --json "$LARGEST"
is "$status" 0 "show --json ${LARGEST#"$TOP"/} is clean under valgrind"
cmp -s "$TMP/out" "$LARGEST" && pass "and reproduces it" ||
	fail "and reproduces it"

memcheck collect --vmlinux "$FIXTURES/vmlinux/mini.elf" --docs "$FIXTURES/abi"
is "$status" 0 "collect --vmlinux mini.elf --docs is clean under valgrind"
[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/err"

D=$FIXTURES/diff
for format in text json markdown ktap junit sarif; do
	memcheck diff --format "$format" --waivers "$D/waivers.txt" \
		--policy "$D/policy.txt" "$D/testing.old.json" "$D/testing.new.json"
	is "$status" 0 "diff --format $format with waivers and a policy is clean under valgrind"
	[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/err"
done
for format in text json markdown; do
	memcheck diff --format "$format" --stat --verdict warn --only sysfs,types \
		--waivers "$D/waivers.txt" "$D/testing.old.json" "$D/testing.new.json"
	is "$status" 0 "diff --format $format --stat --verdict --only is clean under valgrind"
	[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/err"
done
memcheck diff "$D/move.old.json" "$D/move.new.json"
is "$status" 0 "diff of a move is clean under valgrind"
memcheck diff "$D/stable.old.json" "$D/stable.new.json"
is "$status" 1 "diff with breaks is clean under valgrind"
printf 'node-removed /sys/x\n' >"$TMP/bad-waivers"
memcheck diff --waivers "$TMP/bad-waivers" "$D/stable.old.json" "$D/stable.new.json"
is "$status" 2 "diff with a bad waiver file fails cleanly under valgrind"

for bad in duplicate-path nr-negative truncated; do
	memcheck show "$FIXTURES/bad/$bad.json"
	is "$status" 2 "show on bad/$bad.json fails cleanly under valgrind"
done

done_testing
