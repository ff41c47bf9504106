#!/bin/sh
# kabidiff collect -o FILE on what FILE may be: a device or a FIFO is
# written in place, a symlink stays one, a file keeps its mode, a long name
# works, a full device is an error, and a signal during the write leaves no
# temporary file.  Everything on private files in $TMP, with both builds.
. "$(dirname "$0")/../lib.sh"

DOCS="$FIXTURES/abi"
"$KABIDIFF" collect --docs "$DOCS" >"$TMP/ref.json" 2>/dev/null ||
	skip_all "collect --docs ${DOCS#"$TOP"/} fails: nothing to compare with"

# no_temp DIR: no temporary file of ours left in DIR
no_temp() {
	left=$(ls -A "$1" | grep '^\.' | tr '\n' ' ')
	[ -z "$left" ]
}

# note LINE...: evidence for the test just failed, as comments
note() {
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/#   /'
	done
}

# same FILE: FILE holds the reference snapshot
same() {
	cmp -s "$TMP/ref.json" "$1"
}

# asan_clean: the last run's stderr has no sanitizer report
asan_clean() {
	! grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$TMP/err"
}

can_strace=
strace -qq -o /dev/null true 2>/dev/null && can_strace=1

for bin in "$KABIDIFF" "$TOP/build/asan/kabidiff"; do
	KABIDIFF=$bin
	case $bin in
	*/asan/*)	tag="asan: " ;;
	*)		tag= ;;
	esac
	D="$TMP/d"
	rm -rf "$D"
	mkdir "$D"

	# a character device stays one (a private /dev/null: c 1 3)
	if mknod "$D/null" c 1 3 2>"$TMP/mknod.err"; then
		run_kabidiff collect --docs "$DOCS" -o "$D/null"
		[ "$status" -eq 0 ] && [ -c "$D/null" ] && no_temp "$D" && asan_clean
		is "$?" 0 "${tag}-o a character device: exit 0, still a character device, no temporary file"
		[ -c "$D/null" ] || note "the device became: $(ls -l "$D/null")" "$err"
		rm -f "$D/null"
	else
		pass "${tag}-o a character device # SKIP mknod failed: $(cat "$TMP/mknod.err")"
	fi

	# a FIFO is written through, to the reader at its other end
	if mkfifo "$D/fifo" 2>/dev/null; then
		cat "$D/fifo" >"$TMP/from-fifo" &
		reader=$!
		run_kabidiff collect --docs "$DOCS" -o "$D/fifo"
		# a FIFO replaced by a file has no writer: its reader waits on
		[ -p "$D/fifo" ] || kill "$reader" 2>/dev/null
		wait "$reader"
		[ "$status" -eq 0 ] && [ -p "$D/fifo" ] && same "$TMP/from-fifo" &&
			no_temp "$D" && asan_clean
		is "$?" 0 "${tag}-o a FIFO: exit 0, still a FIFO, its reader got the snapshot"
		rm -f "$D/fifo"
	else
		pass "${tag}-o a FIFO # SKIP mkfifo failed"
	fi

	# a symlink stays a symlink, its target gets the snapshot
	echo old >"$D/target.json"
	ln -s target.json "$D/link.json"
	run_kabidiff collect --docs "$DOCS" -o "$D/link.json"
	[ "$status" -eq 0 ] && [ -L "$D/link.json" ] &&
		[ "$(readlink "$D/link.json")" = target.json ] &&
		same "$D/target.json" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a symlink: the link stays, its target gets the snapshot"

	# a dangling symlink: its target is created, the link stays
	ln -s new-target.json "$D/dangling.json"
	run_kabidiff collect --docs "$DOCS" -o "$D/dangling.json"
	[ "$status" -eq 0 ] && [ -L "$D/dangling.json" ] &&
		same "$D/new-target.json" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a dangling symlink: its target is created, the link stays"

	# an existing file keeps its mode
	echo old >"$D/private.json"
	chmod 0600 "$D/private.json"
	run_kabidiff collect --docs "$DOCS" -o "$D/private.json"
	is "$status:$(stat -c %a "$D/private.json"):$(same "$D/private.json" && echo same)" \
	   "0:600:same" "${tag}-o an existing 0600 file: it stays 0600"

	# a new file gets 0666 less the umask
	(umask 027 && "$KABIDIFF" collect --docs "$DOCS" -o "$D/new.json" 2>/dev/null)
	is "$?:$(stat -c %a "$D/new.json")" "0:640" "${tag}-o a new file under umask 027: 0640"

	# a 250-byte name: ".NAME.XXXXXX" would not fit in NAME_MAX
	long=$(printf '%0250d' 0 | tr 0 n)
	run_kabidiff collect --docs "$DOCS" -o "$D/$long"
	[ "$status" -eq 0 ] && same "$D/$long" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a 250-byte file name works"
	[ "$status" -eq 0 ] || note "$err"

	# a full device: ENOSPC, with the path, exit 2.  A private copy of
	# /dev/full (c 1 7) where we may make one: a kabidiff that renames over
	# its output must not take the system's /dev/full with it.  Without
	# mknod we are not root and cannot replace /dev/full, so use it.
	full=
	if mknod "$D/full" c 1 7 2>/dev/null; then
		full=$D/full
	elif [ "$(id -u)" -ne 0 ] && [ -c /dev/full ]; then
		full=/dev/full
	fi
	if [ -n "$full" ]; then
		run_kabidiff collect --docs "$DOCS" -o "$full"
		printf '%s\n' "$err" | grep -q "$full: write failed: No space left on device"
		is "$status:$?:$([ -c "$full" ] && echo device)" "2:0:device" \
		   "${tag}-o a full device: exit 2, ENOSPC reported with the path, still a device"
		rm -f "$D/full"
	else
		pass "${tag}-o a full device # SKIP no mknod and no /dev/full"
	fi

	# a signal while the temporary file exists (strace sends it at the
	# fsync() of the temporary file): it is removed, and we die of it
	for signum in TERM:15 INT:2 HUP:1; do
		sig=${signum%:*}
		if [ -z "$can_strace" ]; then
			pass "${tag}SIG$sig during the write # SKIP strace cannot trace here"
			continue
		fi
		strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:signal=$sig \
			"$KABIDIFF" collect --docs "$DOCS" -o "$D/sig.json" \
			>/dev/null 2>"$TMP/err"
		status=$?
		expected=$((128 + ${signum#*:}))
		[ ! -e "$D/sig.json" ] && no_temp "$D"
		is "$status:$?" "$expected:0" \
		   "${tag}SIG$sig during the write: killed by it, no temporary file, no output"
		no_temp "$D" || note "left behind: $left"
	done
done

done_testing
