#!/bin/sh
# Trees beyond the limits of the walk (guest-agent/walk.h), on private
# directories under $TMP: a chain of 5,000 directories, past the 128 levels a
# walk enters (it overflowed the stack); paths longer than the 4095 bytes a
# walk names (they were dropped without a word); a tree with more levels
# than the descriptors left to walk it (most of it was dropped, exit 0).
# Each is exit 2, one line naming the node and the limit, no snapshot and no
# crash, for collect --sysfs-dir, undocumented --sysfs-dir and kabi-agent
# --root, each with its plain and its ASan+UBSan build.  A tree at each
# limit still walks whole.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || skip_all "no python3 to make the trees"

AGENT=$TOP/build/kabi-agent
STREAM="python3 $TOP/tests/agent/stream.py"

# chain DIR N NAME [FILE]: DIR and a chain of N directories NAME below it,
# each with an empty FILE when given.  Made one level at a time from an open
# descriptor (mkdir with dir_fd): the full path passes PATH_MAX.
chain() {
	python3 - "$@" <<'PY'
import os, sys
top, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.mkdir(top)
fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
for _ in range(n):
    if len(sys.argv) > 4:
        os.close(os.open(sys.argv[4], os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))
    os.mkdir(name, dir_fd=fd)
    sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = sub
PY
}

# repeat STRING N: STRING N times
repeat() {
	python3 -c 'import sys; sys.stdout.write(sys.argv[1] * int(sys.argv[2]))' "$1" "$2"
}

limit=
L=$(repeat l 255)
chain "$TMP/deep" 5000 d && chain "$TMP/deep128" 128 d &&
	chain "$TMP/long" 20 "$L" && chain "$TMP/long16" 16 "$L" &&
	chain "$TMP/fds" 20 m f ||
	missing_input "could not make the trees"

# the message for each tree, after "kabidiff: " or "kabi-agent: ": the first
# node past the limit, cut to 4092 bytes and "..." when longer than a path
DEEP="$TMP/deep$(repeat /d 129): deeper than 128 levels below the root, the most a walk goes"
LONG="$TMP/long/$(repeat "$L/" 17 | cut -c 1-4092)...: longer than 4095 bytes below the root, the most a walk names"
# and with 12 descriptors, somewhere down the chain (where depends on what
# the program holds open itself)
FDS="$TMP/fds/m*: out of file descriptors (the walk keeps one open per level)"

# run ARGS...: run $bin, with at most $limit descriptors if set and no
# snapshot left from a run before; keep its status, stderr and stdout (in
# $TMP/out: the agent's is binary)
run() {
	rm -f "$TMP/snap.json"
	if [ -n "$limit" ]; then
		# shellcheck disable=SC3045 # dash's ulimit has -n, as bash's
		(ulimit -n "$limit" && exec "$bin" "$@")
	else
		"$bin" "$@"
	fi >"$TMP/out" 2>"$TMP/err"
	status=$?
	err=$(cat "$TMP/err")
}

# no_sanitizer: the last run printed no sanitizer report
no_sanitizer() {
	is "$(grep -c 'runtime error\|AddressSanitizer\|LeakSanitizer' "$TMP/err")" 0 \
	   "${tag}no sanitizer report"
}

# refused NAME MESSAGE: the last run was exit 2 with the one line MESSAGE (a
# pattern), printed nothing and wrote no snapshot
refused() {
	got="$status:$(wc -l <"$TMP/err"):$(cat "$TMP/out"):$(ls "$TMP/snap.json" 2>/dev/null):$err"
	# shellcheck disable=SC2254 # MESSAGE is a pattern
	case "$got" in
	"2:1:::"$2)	pass "$tag$1" ;;
	*)		fail "$tag$1" "expected: 2:1:::$2" "got:      $got" ;;
	esac
	no_sanitizer
}

# nodes FILE: how many sysfs nodes the snapshot FILE holds
nodes() {
	grep -c '^      "path": ' "$1"
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	tag=
	[ "$bin" = "$KABIDIFF" ] || tag="asan: "
	if [ ! -x "$bin" ]; then
		fail "$tag$bin is built"
		continue
	fi

	run collect --sysfs-dir "$TMP/deep128" -o "$TMP/snap.json"
	is "$status:$err:$(nodes "$TMP/snap.json")" "0::129" \
	   "${tag}a chain 128 levels deep, the limit: all 129 nodes"
	run collect --sysfs-dir "$TMP/deep" -o "$TMP/snap.json"
	refused "collect: a chain 5,000 levels deep stops at level 129" \
		"kabidiff: $DEEP"
	run undocumented --docs "$FIXTURES/abi" --sysfs-dir "$TMP/deep"
	refused "undocumented: so does it" "kabidiff: $DEEP"

	run collect --sysfs-dir "$TMP/long16" -o "$TMP/snap.json"
	is "$status:$err:$(nodes "$TMP/snap.json"):$(grep -c "/$L\"" "$TMP/snap.json")" \
	   "0::17:16" "${tag}16 names of 255 bytes, 4095 bytes below the root, the limit: all 17 nodes"
	run collect --sysfs-dir "$TMP/long" -o "$TMP/snap.json"
	refused "collect: a path of 4351 bytes stops the walk, named by its first part" \
		"kabidiff: $LONG"
	run undocumented --docs "$FIXTURES/abi" --sysfs-dir "$TMP/long"
	refused "undocumented: so does it" "kabidiff: $LONG"

	run collect --sysfs-dir "$TMP/fds" -o "$TMP/snap.json"
	is "$status:$err:$(nodes "$TMP/snap.json")" "0::41" \
	   "${tag}a chain 20 levels deep with a file on each: all 41 nodes"
	limit=12
	run collect --sysfs-dir "$TMP/fds" -o "$TMP/snap.json"
	refused "collect: with 12 descriptors, out of them is an error, not fewer nodes" \
		"kabidiff: $FDS"
	run undocumented --docs "$FIXTURES/abi" --sysfs-dir "$TMP/fds"
	refused "undocumented: so is it" "kabidiff: $FDS"
	limit=
done

# The agent stops where kabidiff does, with the same words; the nodes before
# the stop are in its stream, the trailer is not, so no reader takes it for a
# whole tree (docs/agent-stream.md: a missing trailer is an agent that
# failed, its reason on the console).

# agent NAME TREE NODES MESSAGE: kabi-agent --root TREE (with at most
# $limit descriptors if set) is exit 2 with MESSAGE (a pattern) and a
# stream of NODES (a pattern) nodes and no trailer
agent() {
	run --root "$2"
	mv "$TMP/out" "$TMP/stream"
	got="$status:$(wc -l <"$TMP/err"):$err"
	# shellcheck disable=SC2254 # MESSAGE is a pattern
	case "$got" in
	"2:1:"$4)	pass "$tag$1" ;;
	*)		fail "$tag$1" "expected: 2:1:$4" "got:      $got" ;;
	esac
	no_sanitizer
	$STREAM verify "$TMP/stream" >/dev/null 2>"$TMP/verify"
	want="$TMP/stream: byte $(wc -c <"$TMP/stream"): no trailer: the stream ends after $3 nodes"
	# shellcheck disable=SC2254 # NODES is a pattern
	case "$(cat "$TMP/verify")" in
	$want)	pass "${tag}its stream has the nodes before the stop, and no trailer" ;;
	*)	fail "${tag}its stream has the nodes before the stop, and no trailer" \
		     "$(cat "$TMP/verify")" ;;
	esac
}

# whole NAME TREE NODES: kabi-agent --root TREE is a whole stream of NODES
whole() {
	run --root "$2"
	is "$status:$err:$($STREAM verify "$TMP/out" | cut -d, -f1)" \
	   "0::ok: $3 nodes" "$tag$1"
}

for bin in "$AGENT" "$ASAN_AGENT"; do

	not_built "$bin" && continue
	tag="agent: "
	[ "$bin" = "$AGENT" ] || tag="asan agent: "
	if [ ! -x "$bin" ]; then
		fail "$tag$bin is built"
		continue
	fi
	whole "a chain 128 levels deep, all of it" "$TMP/deep128" 129
	agent "a chain 5,000 levels deep stops at level 129" "$TMP/deep" 129 \
	      "kabi-agent: $DEEP"
	whole "paths of 4095 bytes, all of them" "$TMP/long16" 17
	agent "a path of 4351 bytes stops the walk" "$TMP/long" 17 \
	      "kabi-agent: $LONG"
	whole "a chain 20 levels deep with a file on each, all of it" "$TMP/fds" 41
	limit=12
	agent "with 12 descriptors, out of them is an error" "$TMP/fds" "[0-9]*" \
	      "kabi-agent: $FDS"
	limit=
done

done_testing
