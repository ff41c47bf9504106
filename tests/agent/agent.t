#!/bin/sh
# kabi-agent --root on a generated tree: names with spaces, newlines and bytes
# that are not UTF-8, links (a loop among them), a 1 MiB file, FIFOs whose
# read blocks, an unreadable file; the stream decoded by an independent
# reader (stream.py) and its checks against truncation and corruption; the
# static build; valgrind.  The PID 1 side needs QEMU: collectors/sysfs tests it.
. "$(dirname "$0")/../lib.sh"

PYTHON=${PYTHON:-python3}
STREAM="$PYTHON $TOP/tests/agent/stream.py"
AGENT=$TOP/build/kabi-agent
STATIC=$TOP/build/kabi-agent-static
WARN="-std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wformat=2 \
-Wno-unused-parameter -Wno-missing-field-initializers -Wmissing-prototypes \
-Wstrict-prototypes -Wshadow -Wvla -Wdeclaration-after-statement \
-Wwrite-strings"

command -v "$PYTHON" >/dev/null || skip_all "no $PYTHON to decode the stream"

# build_agent OUT [GCC FLAGS...]: what the Makefile's rule does, into $TMP
build_agent() {
	out=$1
	shift
	# shellcheck disable=SC2086 # $WARN is a list of flags
	gcc $WARN "$@" -o "$out" "$TOP"/guest-agent/*.c >"$TMP/cc.err" 2>&1
	is "$?:$(cat "$TMP/cc.err")" "0:" "${out##*/} builds with no warning ($*)"
}

if [ ! -x "$AGENT" ]; then
	echo "# no $AGENT: building one into \$TMP"
	AGENT=$TMP/kabi-agent
	build_agent "$AGENT"
fi
if [ ! -x "$STATIC" ]; then
	STATIC=$TMP/kabi-agent-static
	if [ -e "$(gcc -print-file-name=libc.a)" ]; then
		build_agent "$STATIC" -static
	else
		echo "# no static libc (libc6-dev has it): no static build"
		STATIC=
	fi
fi

# The tree.  Modes are set explicitly, so the umask does not matter.
TREE=$TMP/tree
"$PYTHON" - "$TREE" <<'EOF' || exit 1
import os, socket, sys
root = os.fsencode(sys.argv[1])
def j(*p): return os.path.join(root, *p)
def f(name, data, mode=0o644):
    with open(j(name), "wb") as fh:
        fh.write(data)
    os.chmod(j(name), mode)
def d(name, mode=0o755):
    os.mkdir(j(name))
    os.chmod(j(name), mode)
d(b"")
f(b"plain", b"hello\n")
f(b"ro", b"42\n", 0o444)
f(b"wo", b"secret\n", 0o200)
f(b"nul", b"a\0b\n")
f(b"empty", b"")
f(b"exact", b"x" * 4096)
f(b"big", b"0123456789abcdef" * 65536)
d(b"with space")
f(b"with space/a b", b"x y\n")
f(b"new\nline", b"nl\n")
f(b"caf\xe9", b"latin-1\n")
d(b"\xff\xfe", 0o700)
f(b"\xff\xfe/inner", b"in\n", 0o600)
d(b"sticky", 0o1777)
d(b"links")
for name, target in [(b"up", b"../plain"), (b"dangling", b"nowhere"),
                     (b"loop-a", b"loop-b"), (b"loop-b", b"loop-a"),
                     (b"self", b"self"), (b"abs", b"/etc/passwd"),
                     (b"dirlink", b"..")]:
    os.symlink(target, j(b"links", name))
for name in (b"fifo-idle", b"fifo-nowriter"):
    os.mkfifo(j(name))
    os.chmod(j(name), 0o644)
s = socket.socket(socket.AF_UNIX)
s.bind(j(b"sock"))
s.close()
os.chmod(j(b"sock"), 0o600)
EOF

# fifo-idle has a writer that never writes: a reader's open() succeeds and
# its read() blocks.  fifo-nowriter has none: a reader's open() blocks.
exec 3<>"$TREE/fifo-idle"

# The walk in the guest's order, every node, by default reading only files.
cat >"$TMP/expected" <<'EOF'
dir 0755 /sys
file 0644 /sys/big truncated 4096 0123456789abcdef0123456789abcdef...
file 0644 /sys/caf\xe9 data 8 latin-1\x0a
file 0644 /sys/empty data 0
file 0644 /sys/exact data 4096 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...
other 0644 /sys/fifo-idle
other 0644 /sys/fifo-nowriter
dir 0755 /sys/links
link 0777 /sys/links/abs -> /etc/passwd
link 0777 /sys/links/dangling -> nowhere
link 0777 /sys/links/dirlink -> ..
link 0777 /sys/links/loop-a -> loop-b
link 0777 /sys/links/loop-b -> loop-a
link 0777 /sys/links/self -> self
link 0777 /sys/links/up -> ../plain
file 0644 /sys/new\x0aline data 3 nl\x0a
file 0644 /sys/nul data 4 a\x00b\x0a
file 0644 /sys/plain data 6 hello\x0a
file 0444 /sys/ro data 3 42\x0a
other 0600 /sys/sock
dir 1777 /sys/sticky
dir 0755 /sys/with\x20space
file 0644 /sys/with\x20space/a\x20b data 4 x\x20y\x0a
file 0200 /sys/wo data 7 secret\x0a
dir 0700 /sys/\xff\xfe
file 0600 /sys/\xff\xfe/inner data 3 in\x0a
EOF
if [ "$(id -u)" -ne 0 ]; then
	# only root reads a file of mode 0200
	sed -i 's|^file 0200 /sys/wo .*|file 0200 /sys/wo open-error EACCES|' \
		"$TMP/expected"
fi

# run_agent OUT ARGS...: run it, keep stream, stderr, status and time in ms
run_agent() {
	out=$1
	shift
	start=$(date +%s%N)
	"$AGENT" "$@" >"$out" 2>"$TMP/err" 3<&-
	status=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	err=$(cat "$TMP/err")
}

# nodes DUMP: the node lines of a dump, without header and trailer
nodes() {
	sed '1d;$d' "$1"
}

# tree_state: every node's name, type, mode, size, content and change time
tree_state() {
	find "$TREE" -printf '%p %y %m %s %C@ %T@\n' | sort
	find "$TREE" -type f -exec cat {} + | cksum
}
tree_state >"$TMP/before"

run_agent "$TMP/s1" --root "$TREE"
is "$status:$err" "0:" "--root exits 0 and says nothing"
tree_state | cmp -s "$TMP/before" - &&
	pass "the walk changes nothing in the tree" ||
	fail "the walk changes nothing in the tree"
$STREAM dump "$TMP/s1" >"$TMP/d1" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "0:" "the stream verifies"
nodes "$TMP/d1" >"$TMP/got"
if cmp -s "$TMP/expected" "$TMP/got"; then
	pass "every node, in walk order, with kind, mode, target and value"
else
	fail "every node, in walk order, with kind, mode, target and value" \
	     "$(diff -u "$TMP/expected" "$TMP/got")"
fi
is "$(tail -n 1 "$TMP/d1" | cut -d' ' -f2)" "nodes=$(wc -l <"$TMP/expected")" \
   "the trailer counts the nodes"
is "$(head -n 1 "$TMP/d1" | cut -d' ' -f1-5)" \
   "header version=2 flags=host cap=4096 timeout_ms=1000" \
   "the header: version, host flag, cap, default timeout"
is "$(head -n 1 "$TMP/d1" | sed 's/.* release=\([^ ]*\) .*/\1/')" \
   "$(uname -r)" "the header carries the kernel release"
is "$(grep -c '^link ' "$TMP/d1"):$(grep -c '^[a-z]* [0-7]* /sys/links/[^ ]*/' "$TMP/d1")" \
   "7:0" "links are recorded, never followed (not even into a directory)"

run_agent "$TMP/s1-again" --root "$TREE"
cmp -s "$TMP/s1" "$TMP/s1-again" &&
	pass "two walks of the same tree give the same bytes" ||
	fail "two walks of the same tree give the same bytes"

# --prefix names the tree
run_agent "$TMP/s-prefix" --root "$TREE/with space" --prefix /proc/sys/x
$STREAM dump "$TMP/s-prefix" | nodes /dev/stdin >"$TMP/got"
is "$status:$(cat "$TMP/got")" "0:dir 0755 /proc/sys/x
file 0644 /proc/sys/x/a\x20b data 4 x\x20y\x0a" "--prefix names the root"

# Blocking reads: FIFOs are read only with --read-other, which exists to
# test this.  Each read gives up after --read-timeout, the walk goes on.
run_agent "$TMP/s2" --root "$TREE" --read-other --read-timeout 300
is "$status:$err" "0:" "--read-other: exits 0 and says nothing"
$STREAM dump "$TMP/s2" >"$TMP/d2"
diff "$TMP/d1" "$TMP/d2" | grep '^>' >"$TMP/got"
is "$(cat "$TMP/got")" "> header version=2 flags=host cap=4096 timeout_ms=300 $(
	head -n 1 "$TMP/d1" | cut -d' ' -f6-)
> other 0644 /sys/fifo-idle timeout
> other 0644 /sys/fifo-nowriter timeout
> other 0600 /sys/sock open-error ENXIO
> $(tail -n 1 "$TMP/d2")" \
   "a blocked read() and a blocked open() time out, a socket is ENXIO, nothing else changes"
[ "$ms" -ge 600 ] && [ "$ms" -lt 3000 ] &&
	pass "two 300 ms timeouts take 0.6 s, not more ($ms ms)" ||
	fail "two 300 ms timeouts take 0.6 s, not more ($ms ms)"

run_agent "$TMP/s3" --root "$TREE" --read-other
$STREAM dump "$TMP/s3" | grep -c ' timeout$' >"$TMP/got"
is "$status:$(cat "$TMP/got")" "0:2" "the default timeout too"
[ "$ms" -ge 2000 ] && [ "$ms" -lt 4500 ] &&
	pass "the default is 1 s a read, and the walk ends ($ms ms)" ||
	fail "the default is 1 s a read, and the walk ends ($ms ms)"

# An unreadable file and directory: root reads anything, so drop to nobody.
PERM=$TMP/perm
mkdir -m 755 "$PERM" "$PERM/locked"
echo secret >"$PERM/locked/secret"
echo ok >"$PERM/open"
echo no >"$PERM/shut"
chmod 644 "$PERM/open"
chmod 000 "$PERM/shut" "$PERM/locked"
chmod 755 "$TMP"
if [ "$(id -u)" -ne 0 ]; then
	AS_NOBODY=
elif command -v setpriv >/dev/null; then
	AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	AS_NOBODY=none
fi
if [ "$AS_NOBODY" = none ]; then
	echo "# skip: no setpriv to run as nobody, and root reads anything"
else
	$AS_NOBODY "$AGENT" --root "$PERM" >"$TMP/s-perm" 2>"$TMP/err" 3<&-
	is "$?:$(cat "$TMP/err")" "0:" "as nobody: exits 0 and says nothing"
	$STREAM dump "$TMP/s-perm" | nodes /dev/stdin >"$TMP/got"
	is "$(cat "$TMP/got")" "dir 0755 /sys
dir 0000 /sys/locked
file 0644 /sys/open data 3 ok\x0a
file 0000 /sys/shut open-error EACCES" \
	   "as nobody: a file that cannot be opened is EACCES, a directory that cannot be listed is empty"
fi

# The real thing, read-only: files that only a kernel makes.
if [ -e /proc/sys/vm/drop_caches ]; then
	run_agent "$TMP/s-vm" --root /proc/sys/vm --prefix /proc/sys/vm
	$STREAM dump "$TMP/s-vm" | grep drop_caches >"$TMP/got"
	is "$status:$(cat "$TMP/got")" \
	   "0:file 0200 /proc/sys/vm/drop_caches open-error EACCES" \
	   "/proc/sys/vm/drop_caches (write-only, even for root) is an open error"
else
	echo "# skip: no /proc/sys/vm/drop_caches here"
fi
NULLDEV=/sys/devices/virtual/mem/null
if [ -e "$NULLDEV/power/autosuspend_delay_ms" ]; then
	run_agent "$TMP/s-null" --root "$NULLDEV" --prefix "$NULLDEV"
	$STREAM dump "$TMP/s-null" | grep -e '/dev ' -e autosuspend_delay_ms \
		-e '/subsystem ' >"$TMP/got"
	is "$status:$(cat "$TMP/got")" "0:file 0444 $NULLDEV/dev data 4 1:3\x0a
file 0644 $NULLDEV/power/autosuspend_delay_ms read-error EIO
link 0777 $NULLDEV/subsystem -> ../../../../class/mem" \
	   "sysfs: a value, a read error (EIO) and a link of /dev/null's device"
else
	echo "# skip: no $NULLDEV/power/autosuspend_delay_ms here"
fi

# The static build writes the same stream.
if [ -n "$STATIC" ]; then
	readelf -l "$STATIC" | grep -q INTERP &&
		fail "${STATIC##*/} is static" || pass "${STATIC##*/} is static"
	"$STATIC" --root "$TREE" >"$TMP/s-static" 3<&-
	$STREAM dump "$TMP/s-static" | nodes /dev/stdin >"$TMP/got"
	cmp -s "$TMP/expected" "$TMP/got" &&
		pass "the static build writes the same nodes" ||
		fail "the static build writes the same nodes" \
		     "$(diff -u "$TMP/expected" "$TMP/got")"
fi

# The reader's side: what stream.py refuses, as the host reader must.
size=$(wc -c <"$TMP/s1")
# check_bad NAME FILE MESSAGE: stream.py rejects FILE with MESSAGE
check_bad() {
	$STREAM verify "$2" >"$TMP/out" 2>"$TMP/err"
	is "$?:$(cat "$TMP/out")$(cut -d' ' -f2- "$TMP/err")" "2:$3" "$1"
}
head -c $((size - 1)) "$TMP/s1" >"$TMP/bad"
check_bad "a stream cut short is refused" "$TMP/bad" \
	"byte $((size - 17)): truncated: the frame needs 12 bytes, 11 remain"
head -c $((size - 17)) "$TMP/s1" >"$TMP/bad"
check_bad "a stream without its trailer is refused" "$TMP/bad" \
	"byte $((size - 17)): no trailer: the stream ends after 26 nodes"
cp "$TMP/s1" "$TMP/bad"
off=$(grep -obUa hello "$TMP/s1" | cut -d: -f1)
printf j | dd of="$TMP/bad" bs=1 seek="$off" conv=notrunc 2>/dev/null
check_bad "a changed byte is refused" "$TMP/bad" "byte $((size - 17)): checksum mismatch: the trailer says $(
	tail -n 1 "$TMP/d1" | sed 's/.*crc=//'), the bytes give $(
	$PYTHON -c 'import sys, zlib
print("%#010x" % zlib.crc32(open(sys.argv[1], "rb").read()[:-4]))' "$TMP/bad")"
{ cat "$TMP/s1"; printf 'N'; } >"$TMP/bad"
check_bad "bytes after the trailer are refused" "$TMP/bad" \
	"byte $size: 1 bytes after the trailer"
tr -d '\r' <"$TMP/s1" >"$TMP/bad"
check_bad "a stream whose CR LF became LF is refused" "$TMP/bad" \
	"no agent stream ($(wc -c <"$TMP/bad" | tr -d ' ') bytes without the agent's magic): did the guest start the agent?"

# every single-byte change and every cut of a small stream
"$AGENT" --root "$TREE/with space" >"$TMP/small" 3<&-
n=$(wc -c <"$TMP/small")
is "$($STREAM flip-all "$TMP/small")" "rejected $n of $n byte flips" \
   "each of the $n bytes of a small stream, changed, is refused"
is "$($STREAM cut-all "$TMP/small")" "rejected $n of $n cuts" \
   "each of the $n shorter streams is refused"

# the example in docs/agent-stream.md is a valid stream, dumped as shown
sed -n '/^```hexdump/,/^```$/p' "$TOP/docs/agent-stream.md" | sed '1d;$d' \
	>"$TMP/example.txt"
$STREAM unhex "$TMP/example.txt" >"$TMP/example"
$STREAM dump "$TMP/example" >"$TMP/got" 2>&1
is "$(cat "$TMP/got")" "$(awk '/dump` prints it as:/ { on = 1; next }
	on && /^```/ { if (++fence == 2) exit; next }
	fence == 1' "$TOP/docs/agent-stream.md")" \
   "the example of docs/agent-stream.md verifies and dumps as documented"

# The command line.
"$AGENT" --help >"$TMP/out" 2>"$TMP/err"
is "$?:$(head -n 1 "$TMP/out"):$(cat "$TMP/err")" \
   "0:usage: kabi-agent --root DIR [--prefix PATH] [--read-timeout MSEC] [--read-other]:" \
   "--help"
# check_usage NAME MESSAGE ARGS...: exit 2, MESSAGE on stderr, no stream
check_usage() {
	name=$1 message=$2
	shift 2
	"$AGENT" "$@" >"$TMP/out" 2>"$TMP/err" 3<&-
	is "$?:$(cat "$TMP/err"):$(wc -c <"$TMP/out")" "2:kabi-agent: $message:0" \
	   "$name"
}
check_usage "no --root" "--root DIR is needed; try --help"
check_usage "an unknown option" "unknown option --frobnicate; try --help" \
	--frobnicate
check_usage "a stray argument" "unexpected argument extra; try --help" \
	--root "$TREE" extra
check_usage "--read-timeout 0" \
	"--read-timeout wants milliseconds from 1 to 600000, not 0; try --help" \
	--root "$TREE" --read-timeout 0
check_usage "a relative --prefix" \
	"--prefix wants an absolute path without a trailing '/', not sys; try --help" \
	--root "$TREE" --prefix sys
# check_failed NAME MESSAGE ARGS...: exit 2, MESSAGE on stderr, and the
# stream as far as the walk went: here the header, no node, no trailer
check_failed() {
	name=$1 message=$2
	shift 2
	"$AGENT" "$@" >"$TMP/out" 2>"$TMP/err" 3<&-
	status=$?
	$STREAM verify "$TMP/out" >/dev/null 2>"$TMP/verify"
	is "$status:$(cat "$TMP/err"):$(cut -d' ' -f2- "$TMP/verify")" \
	   "2:kabi-agent: $message:byte $(wc -c <"$TMP/out"): no trailer: the stream ends after 0 nodes" \
	   "$name"
}
check_failed "a missing root" \
	"cannot read $TMP/nowhere: No such file or directory" --root "$TMP/nowhere"
check_failed "a root that is a file" \
	"cannot read $TREE/plain: Not a directory" --root "$TREE/plain"
check_failed "a newline and an escape in a name are escaped" \
	"cannot read $TMP/a\\x0ab\\x1b[2J: No such file or directory" \
	--root "$TMP/a
b$(printf '\033')[2J"
"$AGENT" --root "$TREE" >/dev/full 2>"$TMP/err" 3<&-
is "$?:$(cat "$TMP/err")" \
   "2:kabi-agent: cannot write the stream: No space left on device" \
   "a full disk is trouble"

# valgrind: the watchdog and both walkers (the first is killed at the first
# FIFO, the next at the second), no leak and no error
if command -v valgrind >/dev/null; then
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		"$AGENT" --root "$TREE" --read-other --read-timeout 1000 \
		>"$TMP/s-vg" 2>"$TMP/err" 3<&-
	is "$?:$(cat "$TMP/err")" "0:" "clean under valgrind, timeouts included"
	$STREAM dump "$TMP/s-vg" | nodes /dev/stdin >"$TMP/got"
	nodes "$TMP/d2" >"$TMP/expected-vg"
	cmp -s "$TMP/expected-vg" "$TMP/got" &&
		pass "and writes the same nodes" ||
		fail "and writes the same nodes" \
		     "$(diff -u "$TMP/expected-vg" "$TMP/got")"
else
	echo "# skip: valgrind is not installed ('make deps' installs it)"
fi

# Every valid stream made here (links, FIFOs, timeouts, odd bytes in names,
# the docs' example) is read by both builds of kabidiff, silently.
for bin in "$TOP/build/kabidiff" "$ASAN_KABIDIFF"; do
	not_built "$bin" && continue
	tag=
	[ "$bin" = "$TOP/build/kabidiff" ] || tag="asan: "
	for s in s1 s2 small example s-perm s-static s-vg; do
		[ -f "$TMP/$s" ] || continue
		"$bin" collect --sysfs-stream "$TMP/$s" -o "$TMP/$s.json" \
			>"$TMP/out" 2>&1 3<&-
		is "$?:$(cat "$TMP/out")" "0:" "${tag}kabidiff reads $s"
	done
done

exec 3>&-
done_testing
