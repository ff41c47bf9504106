#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The sides of a diff that are collected, each in a process of its own: a
# signal that kills kabidiff ends them first (and the QEMU or apt-get
# download each is waiting for), and no kabidiff-side.* file stays in
# TMPDIR.  Everything in $TMP, with both builds; QEMU, apt-cache and
# apt-get are fakes in PATH, the fake QEMU and apt-get a sleep that waits
# until it is killed, so that a side is still being collected when the
# signal comes; its boot files, in a kabidiff-boot.* directory, go too.
# The same input twice is collected once.
. "$(dirname "$0")/../lib.sh"

command -v pgrep >/dev/null || skip_all "no pgrep"
env --default-signal=TERM true 2>/dev/null || skip_all "env has no --default-signal"

# the agent beside build/kabidiff, whichever binary runs (build/asan/ has none)
KABIDIFF_AGENT=${KABIDIFF_AGENT:-$TOP/build/kabi-agent-static}
export KABIDIFF_AGENT

# two build directories that boot: mini.elf, the docs tree, and an image
# with the x86 boot header, which the fake QEMU never reads
for b in B C; do
	mkdir -p "$TMP/$b/arch/x86/boot"
	cp "$FIXTURES/vmlinux/mini.elf" "$TMP/$b/vmlinux"
	ln -s "$FIXTURES/abi" "$TMP/$b/source"
	{ head -c 514 /dev/zero; printf 'HdrS'; } >"$TMP/$b/arch/x86/boot/bzImage"
done

# and two that do not boot, collected at once; P-link is P
for b in P Q; do
	mkdir "$TMP/$b"
	cp "$FIXTURES/vmlinux/mini.elf" "$TMP/$b/vmlinux"
	ln -s "$FIXTURES/abi" "$TMP/$b/source"
done
ln -s P "$TMP/P-link"

# every package has version 6.1.99-1; QEMU and apt-get download say they
# started (a file in $TMP/started) and sleep, as a program of their own
# whose command line names $TMP
mkdir "$TMP/bin"
printf '#!/bin/sh\necho "Package: $3$2"\necho "Version: 6.1.99-1"\n' >"$TMP/bin/apt-cache"
for tool in apt-get qemu-system-x86_64; do
	printf '#!/bin/sh\n: >"%s/started/$$"\nexec "%s/bin/child-sleep" 600\n' "$TMP" "$TMP" \
		>"$TMP/bin/$tool"
done
cp "$(command -v sleep)" "$TMP/bin/child-sleep"
chmod +x "$TMP/bin/apt-cache" "$TMP/bin/apt-get" "$TMP/bin/qemu-system-x86_64"

# ours: the processes whose command line names $TMP (kabidiff is run
# through a link in $TMP, its forked collectors have its command line)
ours() {
	pgrep -f "$TMP/" | tr '\n' ' '
}

# signal_collection ACTIONS SIGS OLD NEW [ARGS...]: diff OLD and NEW with
# the signal actions ACTIONS (env's --default-signal or --ignore-signal:
# the test may run under nohup) until both collectors wait for their
# child, then send SIGS (one after the other).  $started is how many
# children started, $sent whether kabidiff was there to get SIGS, $status the exit status, $left the processes of ours
# still there, $sides the kabidiff-side.* files in TMPDIR, $files every
# file in TMPDIR and in $TMP/o.
signal_collection() {
	actions=$1 sigs=$2
	shift 2
	rm -rf "$TMP/started" "$TMP/c" "$TMP/o" "$TMP/tmp"
	mkdir "$TMP/started" "$TMP/o" "$TMP/tmp"
	PATH="$TMP/bin:$PATH" TMPDIR="$TMP/tmp" KABIDIFF_CACHE="$TMP/c" \
		timeout --foreground -s KILL 300 env $actions "$TMP/kabidiff" \
		diff "$@" >/dev/null 2>"$TMP/err" &
	runner=$!
	tries=0
	while [ "$(ls "$TMP/started" | wc -l)" -lt 2 ] && kill -0 "$runner" 2>/dev/null &&
	      [ "$tries" -lt 3000 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	started=$(ls "$TMP/started" | wc -l)
	[ "$started" -eq 2 ] || sed 's/^/#   /' "$TMP/err"
	# kabidiff, the one child of timeout; $sent says that it got SIGS
	pid=$(pgrep -P "$runner")
	sent=yes
	for sig in $sigs; do
		kill -"$sig" "$pid" || sent="no: pid '$pid'"
	done
	wait "$runner" 2>/dev/null
	status=$?
	leftovers
}

leftovers() {
	left=$(ours)
	sides=$(cd "$TMP/tmp" && ls -A | grep '^kabidiff-side\.' | tr '\n' ' ')
	files=$(ls -A "$TMP/tmp" "$TMP/o" 2>/dev/null | grep -v '^$\|:$' | tr '\n' ' ')
}

# what an old kabidiff leaves running is ended here, by its pids
end_leftovers() {
	left=$(ours)
	[ -z "$left" ] || kill $left 2>/dev/null
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	case $bin in
	*/asan/*)	tag="asan: " ;;
	*)		tag= ;;
	esac
	rm -f "$TMP/kabidiff"
	ln -s "$bin" "$TMP/kabidiff"

	# collected, then the diff fails: the collected snapshots go all
	# the same
	rm -rf "$TMP/tmp" && mkdir "$TMP/tmp"
	TMPDIR="$TMP/tmp" KABIDIFF_CACHE="$TMP/c" timeout 300 "$TMP/kabidiff" \
		diff --policy "$TMP/nowhere" "$TMP/P" "$TMP/Q" >/dev/null 2>"$TMP/err"
	status=$?
	leftovers
	is "$status:$(tail -1 "$TMP/err"):$files" "2:kabidiff: $TMP/nowhere: No such file or directory:" \
	   "${tag}a diff that fails after collecting leaves no kabidiff-side.* in TMPDIR"

	# the same build directory twice, by its name or through a link: it
	# is collected once (its docs' one warning line, not two) and
	# compared with itself, run after run
	for other in "$TMP/P" "$TMP/P-link"; do
		rm -rf "$TMP/tmp" && mkdir "$TMP/tmp"
		runs=
		for run in 1 2 3 4; do
			TMPDIR="$TMP/tmp" KABIDIFF_CACHE="$TMP/c" timeout 300 "$TMP/kabidiff" \
				diff "$TMP/P" "$other" >/dev/null 2>"$TMP/err"
			status=$?
			leftovers
			runs="$runs $status:$(grep -c 'warnings about the ABI documentation' "$TMP/err"):$files"
			[ "$status" -eq 0 ] || sed 's/^/#   /' "$TMP/err"
		done
		is "$runs" " 0:1: 0:1: 0:1: 0:1:" \
		   "${tag}diff P ${other#"$TMP"/}, four times: collected once, exit 0, nothing left in TMPDIR"
	done

	# build directories: the collectors wait for QEMU, their boot's
	# files in a kabidiff-boot.* directory of TMPDIR
	for signum in TERM:15 INT:2 HUP:1; do
		sig=${signum%:*}
		signal_collection --default-signal=HUP,INT,TERM "$sig" "$TMP/B" "$TMP/C"
		is "$started:$sent:$status:$left:$files" "2:yes:$((128 + ${signum#*:}))::" \
		   "${tag}SIG$sig while two build directories boot: killed by it, the collectors and QEMU too, TMPDIR left empty"
		end_leftovers
	done

	# debian: sides: the collectors wait for apt-get download
	signal_collection --default-signal=HUP,INT,TERM TERM debian:6.1.0-97 debian:6.1.0-96
	is "$started:$sent:$status:$left:$files" "2:yes:143::" \
	   "${tag}SIGTERM while two debian: sides download: the collectors and apt-get end too, TMPDIR left empty"
	end_leftovers

	# with -o out.txt, the writer's temporary file goes too
	signal_collection --default-signal=HUP,INT,TERM TERM debian:6.1.0-97 debian:6.1.0-96 \
		-o "$TMP/o/out.txt"
	is "$started:$sent:$status:$left:$files" "2:yes:143::" \
	   "${tag}SIGTERM while two sides are collected for -o: no out.txt nor its temporary file, no process left"
	end_leftovers

	# an ignored SIGINT stays ignored: the SIGTERM after it is what kills
	signal_collection "--default-signal=HUP,TERM --ignore-signal=INT" "INT TERM" \
		"$TMP/B" "$TMP/C"
	is "$started:$sent:$status:$left:$files" "2:yes:143::" \
	   "${tag}SIGINT ignored when started so: the collection goes on, SIGTERM ends it all"
	end_leftovers

	# SIGKILL runs no handler: the collectors learn of it from the kernel
	# (PR_SET_PDEATHSIG) and end their apt-get, a while after; the files
	# kabidiff made stay, as nothing of it runs to remove them
	signal_collection --default-signal=HUP,INT,TERM KILL debian:6.1.0-97 debian:6.1.0-96
	tries=0
	while [ -n "$(ours)" ] && [ "$tries" -lt 1200 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	leftovers
	is "$started:$sent:$status:$left" "2:yes:137:" \
	   "${tag}SIGKILL while two sides are collected: the collectors and apt-get end too"
	end_leftovers
done

done_testing
