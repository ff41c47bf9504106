#!/bin/sh
# kabidiff bisect on the fixture repository of kernel-patches/ (the
# pinned linux-source-6.1, then the levels, the fixture and each break
# patch as one commit): it names the commit that removes the stable
# attribute as the first bad one, 'git bisect run kabidiff check' on the
# same range agrees, and the repository's working tree, index, HEAD and
# refs are as they were, after a complete run and after one interrupted
# with SIGINT while it checks out (sent once it says so and has written a
# file of the tree).  'docs diff --git' on the same range finds the
# obsolete entry retired the documented way.
. "$(dirname "$0")/../lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed ('make deps' installs qemu-system-x86)"
REPO=$("$TOP/kernel-patches/prepare-repo.sh") || {
	missing_input "could not make the fixture repository (kernel-patches/prepare-repo.sh)"
}
CONFIG=$TOP/kernel-patches/kabi.config

# The first bad commit is break/0001, "lib/kabi_selftest: remove the
# stable_value attribute", the first commit after kabi-old: kabi-old is good
# (--good), and that commit removes /sys/kernel/kabi_selftest/stable_value
# while its entry stays in Documentation/ABI/stable/, a break; no later
# patch brings the attribute back, so every commit after it is bad too.
# prepare-repo.sh makes the same ids on every machine: with the series as
# it is, that commit is 6117fe4d99ff.
FIRST_BAD=$(git -C "$REPO" rev-list --reverse kabi-old..kabi-new | head -n 1)
SUBJECT="lib/kabi_selftest: remove the stable_value attribute"
is "$(git -C "$REPO" log -1 --format=%s "$FIRST_BAD" 2>&1)" "$SUBJECT" \
   "the first commit after kabi-old is break/0001, which removes stable_value"
case "$FIRST_BAD" in
[0-9a-f]*) ;;
*)	missing_input "no commit between kabi-old and kabi-new in $REPO" ;;
esac

# What must not change: HEAD, refs, the index (bytes and time), the working
# tree, and nothing new written under .git.  GIT_OPTIONAL_LOCKS=0 keeps
# 'git status' itself from refreshing the index.
fingerprint() {
	git -C "$REPO" rev-parse HEAD
	git -C "$REPO" symbolic-ref -q HEAD
	git -C "$REPO" for-each-ref
	sha256sum <"$REPO/.git/index"
	stat -c '%Y %s' "$REPO/.git/index"
	GIT_OPTIONAL_LOCKS=0 git -C "$REPO" status --porcelain
	ls -a "$REPO/.git"
	find "$REPO/.git" -newer "$TMP/marker" -print
}
touch "$TMP/marker"
# not a wait for anything: a file system that keeps whole seconds gives a
# write in the marker's second an older time than the marker's, and
# find -newer would miss it
sleep 1
fingerprint >"$TMP/before"

# checking_out: bisect has said it checks out the first revision, and has
# written a file of its tree (the good revision's, into a cache of its
# own, where no tree was: all of it is written, for seconds), so that the
# signal comes while it writes, not before nor in the build
checking_out() {
	grep -q ': checking out, building (log: ' "$TMP/int.err" &&
		[ -n "$(find "$TMP/cache/bisect" -path '*/src/*' -print 2>/dev/null | head -n 1)" ]
}

# interrupted while checking out: the signal goes once it is, polled for a
# minute at most, 0.1 s at a time
mkdir "$TMP/cache"
KABIDIFF_CACHE=$TMP/cache KABIDIFF_VERBOSE=1 "$KABIDIFF" bisect --repo "$REPO" \
	--good kabi-old --bad kabi-new --config "$CONFIG" >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
tries=0
until checking_out || [ "$tries" -ge 600 ] || ! kill -0 "$pid" 2>/dev/null; do
	sleep 0.1
	tries=$((tries + 1))
done
if checking_out; then
	kill -INT "$pid"
	wait "$pid"
	is "$?:$(tail -n 1 "$TMP/int.err")" "130:kabidiff: interrupted; $REPO is as it was" \
	   "SIGINT while checking out stops bisect with 130"
	# a revision stopped on is not a snapshot, good or bad
	is "$(ls "$TMP"/cache/bisect/*/*.json 2>/dev/null)" "" \
	   "no snapshot kept of the revision it was stopped on"
	# (libgit2 asks whether to go on only before it writes the tree: once
	# writing, the checkout ends, and checked-out says so, before bisect
	# stops)
	[ -f "$TMP"/cache/bisect/*/checked-out ] &&
		echo "# the checkout was written to its end before bisect stopped"
else
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	fail "SIGINT while checking out stops bisect with 130" \
	     "bisect (exit $?) never said it was checking out and wrote a file of the tree, in $tries tries:" \
	     "$(tail -n 5 "$TMP/int.err")"
fi
fingerprint >"$TMP/after-int"
cmp -s "$TMP/before" "$TMP/after-int"
is "$?" 0 "after SIGINT the repository's tree, index, HEAD and refs are as they were"
[ -s "$TMP/after-int" ] && ! cmp -s "$TMP/before" "$TMP/after-int" &&
	diff "$TMP/before" "$TMP/after-int" | head -20 | sed 's/^/# /'
rm -rf "$TMP/cache"

start=$(date +%s)
"$KABIDIFF" bisect --repo "$REPO" --good kabi-old --bad kabi-new \
	--config "$CONFIG" >"$TMP/out" 2>"$TMP/err"
status=$?
echo "# kabidiff bisect took $(($(date +%s) - start)) s:"
sed 's/^/#   /' "$TMP/out" | head -12
is "$status" 0 "bisect: exit 0"
steps=$(grep -c '^step ' "$TMP/out")
[ "$steps" -ge 1 ] && [ "$steps" -le 3 ]
is "$?" 0 "bisect: $steps steps for seven commits (at most three)"
# the line is "first bad ID  SUBJECT": 12 digits of the id, the subject cut
# to 50 characters and padded
first=$(grep '^first bad ' "$TMP/out" | sed 's/ *$//')
want="first bad $(printf '%.12s' "$FIRST_BAD")  $(printf '%.50s' "$SUBJECT")"
if [ "$first" = "$want" ]; then
	pass "the first bad commit is the one that removes stable_value ($want)"
else
	fail "the first bad commit is the one that removes stable_value" \
	     "expected: $want" "got:      $first" "$(tail -5 "$TMP/err")"
fi
grep -q '^    node-removed  /sys/kernel/kabi_selftest/stable_value$' "$TMP/out"
is "$?" 0 "and what it changed is that attribute, removed"
fingerprint >"$TMP/after"
cmp -s "$TMP/before" "$TMP/after"
is "$?" 0 "after bisect the repository's tree, index, HEAD and refs are as they were"

# kabi-new~1, "kabi_selftest: add the kabi_selftest_reset() system call",
# only adds to kabi-new~2: it breaks nothing, so there is nothing to bisect.
is "$(git -C "$REPO" log -1 --format=%s kabi-new~1 2>&1)" \
   "kabi_selftest: add the kabi_selftest_reset() system call" \
   "kabi-new~1 is the commit that adds kabi_selftest_reset()"
"$KABIDIFF" bisect --repo "$REPO" --good kabi-new~2 --bad kabi-new~1 \
	--config "$CONFIG" >"$TMP/none.out" 2>"$TMP/none.err"
status=$?
is "$status:$(grep -c '^step ' "$TMP/none.out"):$(tail -n 1 "$TMP/none.err")" \
   "2:0:kabidiff: the bad revision breaks nothing the good one has: nothing to bisect" \
   "bisect with a bad revision that breaks nothing: exit 2, no step taken"

# the documentation alone, straight from the repository's objects
run_kabidiff docs diff --verdict note --git "$REPO" kabi-old kabi-new
is "$status" 0 "docs diff --git kabi-old kabi-new: exit 0, the series moves no entry the wrong way"
printf '%s\n' "$out" | grep -A1 '^    doc-retired  /sys/kernel/kabi_selftest/obsolete_hexvalue$' |
	grep -q 'obsolete/sysfs-kernel-kabi_selftest#1 -> removed/sysfs-kernel-kabi_selftest#1'
is "$?" 0 "docs diff --git: obsolete_hexvalue's entry moved obsolete/ -> removed/, a note"

# git bisect run with kabidiff check, in a clone, on the same range
# the newest: the state directories of other snapshot formats may be there
BASELINE=$(ls -t "${KABIDIFF_CACHE:-$HOME/.cache/kabidiff}"/bisect/*/"$(git -C "$REPO" rev-parse kabi-old)".json | head -n 1)
git clone -q --shared --no-checkout "$REPO" "$TMP/clone"
cd "$TMP/clone" || exit 1
git checkout -q kabi-new
make -s O="$TMP/build" tinyconfig >/dev/null &&
scripts/kconfig/merge_config.sh -m -O "$TMP/build" "$TMP/build/.config" "$CONFIG" >/dev/null
git bisect start kabi-new kabi-old >/dev/null
start=$(date +%s)
git bisect run sh -c '
	make -s O="$1" olddefconfig >/dev/null &&
	make -s O="$1" -j"$(nproc)" vmlinux bzImage >/dev/null 2>&1 || exit 125
	"$2" check --baseline "$3" "$1" >/dev/null 2>&1' \
	sh "$TMP/build" "$KABIDIFF" "$BASELINE" >"$TMP/run.out" 2>&1
echo "# git bisect run took $(($(date +%s) - start)) s"
theirs=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$TMP/run.out")
is "$theirs" "$FIRST_BAD" "git bisect run kabidiff check agrees"
[ -n "$theirs" ] || tail -20 "$TMP/run.out" | sed 's/^/# /'
git bisect reset >/dev/null 2>&1
cd "$TOP" || exit 1

done_testing
