#!/bin/sh
# -o FILE, for every kind of command (collect, diff, show), on what FILE
# may be: a device or a FIFO is written in place, a symlink stays one, a
# file keeps its mode, a new one gets the umask's, a long name works, a
# full device is an error, a signal during the write leaves no temporary
# file, and an input of the command is never replaced.  Everything on
# private files in $TMP, with both builds.
. "$(dirname "$0")/../lib.sh"

DOCS="$FIXTURES/abi"
OLD="$FIXTURES/diff/docs.old.json"
NEW="$FIXTURES/diff/docs.new.json"

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

# same FILE: FILE holds what the command prints on standard output
same() {
	cmp -s "$TMP/ref" "$1"
}

# asan_clean: the last run's stderr has no sanitizer report
asan_clean() {
	! grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$TMP/err"
}

# command_args NAME: the arguments of one command of each kind, and the
# status it exits with when it did its job (a diff with breaks: 1)
command_args() {
	case $1 in
	collect)	set -- collect --docs "$DOCS"; ok=0 ;;
	diff)		set -- diff "$OLD" "$NEW"; ok=1 ;;
	show)		set -- show "$OLD"; ok=0 ;;
	esac
	args=$*
}

can_strace=
strace -qq -o /dev/null true 2>/dev/null && can_strace=1

# file_kinds: -o on each kind of file, for "$KABIDIFF" $args
file_kinds() {
	D="$TMP/d"
	rm -rf "$D"
	mkdir "$D"

	# a character device stays one (a private /dev/null: c 1 3)
	if mknod "$D/null" c 1 3 2>"$TMP/mknod.err"; then
		run_kabidiff $args -o "$D/null"
		[ "$status" -eq "$ok" ] && [ -c "$D/null" ] && no_temp "$D" && asan_clean
		is "$?" 0 "${tag}-o a character device: exit $ok, still a character device, no temporary file"
		[ -c "$D/null" ] || note "the device became: $(ls -l "$D/null")" "$err"
		rm -f "$D/null"
	else
		pass "${tag}-o a character device # SKIP mknod failed: $(cat "$TMP/mknod.err")"
	fi

	# a FIFO is written through, to the reader at its other end
	if mkfifo "$D/fifo" 2>/dev/null; then
		cat "$D/fifo" >"$TMP/from-fifo" &
		reader=$!
		run_kabidiff $args -o "$D/fifo"
		# a FIFO replaced by a file has no writer: its reader waits on
		[ -p "$D/fifo" ] || kill "$reader" 2>/dev/null
		wait "$reader"
		[ "$status" -eq "$ok" ] && [ -p "$D/fifo" ] && same "$TMP/from-fifo" &&
			no_temp "$D" && asan_clean
		is "$?" 0 "${tag}-o a FIFO: exit $ok, still a FIFO, its reader got the output"
		rm -f "$D/fifo"
	else
		pass "${tag}-o a FIFO # SKIP mkfifo failed"
	fi

	# a symlink stays a symlink, its target gets the output
	echo old >"$D/target"
	ln -s target "$D/link"
	run_kabidiff $args -o "$D/link"
	[ "$status" -eq "$ok" ] && [ -L "$D/link" ] &&
		[ "$(readlink "$D/link")" = target ] &&
		same "$D/target" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a symlink: the link stays, its target gets the output"

	# a dangling symlink: its target is created, the link stays
	ln -s new-target "$D/dangling"
	run_kabidiff $args -o "$D/dangling"
	[ "$status" -eq "$ok" ] && [ -L "$D/dangling" ] &&
		same "$D/new-target" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a dangling symlink: its target is created, the link stays"

	# an existing file keeps its mode
	echo old >"$D/private"
	chmod 0600 "$D/private"
	run_kabidiff $args -o "$D/private"
	is "$status:$(stat -c %a "$D/private"):$(same "$D/private" && echo same)" \
	   "$ok:600:same" "${tag}-o an existing 0600 file: it stays 0600"

	# a new file gets 0666 less the umask
	(umask 027 && "$KABIDIFF" $args -o "$D/new" 2>/dev/null)
	is "$?:$(stat -c %a "$D/new")" "$ok:640" "${tag}-o a new file under umask 027: 0640"

	# a 250-byte name: ".NAME.XXXXXX" would not fit in NAME_MAX
	long=$(printf '%0250d' 0 | tr 0 n)
	run_kabidiff $args -o "$D/$long"
	[ "$status" -eq "$ok" ] && same "$D/$long" && no_temp "$D" && asan_clean
	is "$?" 0 "${tag}-o a 250-byte file name works"
	[ "$status" -eq "$ok" ] || note "$err"

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
		run_kabidiff $args -o "$full"
		printf '%s\n' "$err" | grep -q "$full: write failed: No space left on device"
		is "$status:$?:$([ -c "$full" ] && echo device)" "2:0:device" \
		   "${tag}-o a full device: exit 2, ENOSPC reported with the path, still a device"
		[ "$status" -eq 2 ] || note "$err"
		rm -f "$D/full"
	else
		pass "${tag}-o a full device # SKIP no mknod and no /dev/full"
	fi
}

# signals: a signal while the temporary file exists (strace sends it at
# the fsync() of the temporary file) removes it, and we die of it; an
# ignored one is kept ignored and the file is written.  env sets the
# signals' actions: the test may have started with them ignored (nohup).
signals() {
	D="$TMP/d"
	for signum in TERM:15 INT:2 HUP:1; do
		sig=${signum%:*}
		if [ -z "$can_strace" ]; then
			pass "${tag}SIG$sig during the write # SKIP strace cannot trace here"
			continue
		fi
		env --default-signal=$sig strace -f -qq -o /dev/null -e trace=fsync \
			-e inject=fsync:signal=$sig "$KABIDIFF" $args -o "$D/sig" \
			>/dev/null 2>"$TMP/err"
		status=$?
		expected=$((128 + ${signum#*:}))
		[ ! -e "$D/sig" ] && no_temp "$D"
		is "$status:$?" "$expected:0" \
		   "${tag}SIG$sig during the write: killed by it, no temporary file, no output"
		no_temp "$D" || note "left behind: $left"
	done
	[ -n "$can_strace" ] || return
	# LeakSanitizer does not work under ptrace: this run exits normally
	ASAN_OPTIONS=detect_leaks=0 env --ignore-signal=INT \
		strace -f -qq -o /dev/null -e trace=fsync \
		-e inject=fsync:signal=INT "$KABIDIFF" $args -o "$D/ign" \
		>/dev/null 2>"$TMP/err"
	status=$?
	[ "$status" -eq "$ok" ] && same "$D/ign" && no_temp "$D"
	is "$?" 0 "${tag}SIGINT ignored when started so: exit $ok, the file written"
	rm -f "$D/ign"
}

# inputs: -o never replaces a file the command reads, and a bad -o is
# refused before the command does its work
inputs() {
	D="$TMP/d"
	cp "$OLD" "$D/a.json"
	ln -sf a.json "$D/link.json"
	for args in "diff $D/a.json $NEW -o $D/a.json" "show $D/a.json -o $D/a.json" \
		    "diff $D/link.json $NEW -o $D/a.json" \
		    "diff $D/a.json $NEW --output=$D/link.json"; do
		run_kabidiff $args
		cmp -s "$OLD" "$D/a.json" && no_temp "$D" &&
			printf '%s\n' "$err" | grep -q "which the command reads"
		is "$status:$?" "2:0" "${tag}$args: exit 2, the input left as it was"
		[ "$status" -eq 2 ] || note "$err"
	done

	run_kabidiff diff "$OLD" "$NEW" -o ''
	is "$status:$out:$err" "2::kabidiff: -o needs a file name, or - for standard output
Try 'kabidiff diff --help'." "${tag}-o '': a usage error, before the diff"

	for dir in "$D/" "$D/none/"; do
		run_kabidiff diff "$OLD" "$NEW" -o "$dir"
		is "$status:$out:$err" "2::kabidiff: $dir: Is a directory" \
		   "${tag}-o ${dir#"$TMP"/}: names a directory, before the diff"
	done
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	KABIDIFF=$bin
	case $bin in
	*/asan/*)	build="asan: " ;;
	*)		build= ;;
	esac
	for cmd in collect diff show; do
		command_args $cmd
		"$KABIDIFF" $args >"$TMP/ref" 2>"$TMP/err"
		if [ $? -ne "$ok" ]; then
			fail "${build}$cmd without -o exits $ok" "$(cat "$TMP/err")"
			continue
		fi
		tag="${build}$cmd: "
		file_kinds
		signals
	done
	tag=$build
	inputs
done

done_testing
