#!/bin/sh
# kernel-patches/: the series applies with git am onto the pinned Debian
# linux-source-6.1 and gives exactly the commits of the fixture repository
# (kernel-patches/prepare-repo.sh), every patch is clean under the tree's
# own scripts/checkpatch.pl --strict, and the ABI documentation of the
# patched tree is valid for get_abi.pl and for kabidiff docs validate.
. "$(dirname "$0")/../lib.sh"

K=$TOP/kernel-patches
package=$(awk '$1 == "package" { print $2 }' "$K/BASE")
pinned=$(awk '$1 == "version" { print $2 }' "$K/BASE")
have=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null) || have=
if [ -n "$have" ] && [ "$have" != "$pinned" ]; then
	skip_all "$package $have is installed, the series is for $pinned"
fi

REPO=$("$K/prepare-repo.sh") || {
	missing_input "kernel-patches/prepare-repo.sh failed"
}

# A worktree of the fixture repository, checked out at kabi-base, to git
# am the series into; removed again at the end.
WT=$TMP/linux
trap 'git -C "$REPO" worktree remove --force "$WT" 2>/dev/null
      git -C "$REPO" worktree prune; rm -rf "$TMP"' EXIT
git -C "$REPO" worktree add -q --detach "$WT" kabi-base || {
	missing_input "could not check out kabi-base of $REPO"
}

# apply PART TAG: git am PART's patches; the commits must be TAG's
apply() {
	if git -C "$WT" am -q --committer-date-is-author-date "$K/$1"/*.patch \
		>"$TMP/am" 2>&1; then
		is "$(git -C "$WT" rev-parse HEAD)" "$(git -C "$REPO" rev-parse "$2")" \
		   "git am $1/*.patch applies and gives $2"
	else
		fail "git am $1/*.patch applies and gives $2" "$(cat "$TMP/am")"
		git -C "$WT" am --abort >/dev/null 2>&1
	fi
}
apply old kabi-old
apply break kabi-new
is "$(git -C "$WT" rev-list --count kabi-base..HEAD)" \
   "$(ls "$K"/old/*.patch "$K"/break/*.patch | wc -l)" \
   "one commit per patch file"

# checkpatch runs in the tree at kabi-old: its OBSOLETE check greps
# get_maintainer.pl's answer for "obsolete", and for a file under
# Documentation/ABI/obsolete/ that the tree lacks, that answer is the
# error message naming the file (6.1's checkpatch.pl, line 1111).  At
# kabi-old, every file the series touches under obsolete/ exists.
# /usr/bin first, so that spdxcheck.py finds Debian's python3-ply.
if /usr/bin/python3 -c 'import git, ply' 2>/dev/null; then
	pass "checkpatch.pl can check SPDX tags (python3-git, python3-ply)"
else
	fail "checkpatch.pl can check SPDX tags (python3-git, python3-ply)" \
	     "scripts/spdxcheck.py needs Debian's python3-git and python3-ply"
fi
git -C "$WT" checkout -q --detach kabi-old
for patch in "$K"/old/*.patch "$K"/break/*.patch; do
	name=${patch#"$K/"}
	(cd "$WT" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
		--terse --no-summary "$patch") >"$TMP/checkpatch" 2>"$TMP/checkpatch.err"
	is "$?:$(cat "$TMP/checkpatch")" "0:" "checkpatch.pl --strict $name"
done

# get_abi.pl validate says nothing about the patched tree, as about the
# pristine one
for tag in kabi-base kabi-new; do
	git -C "$WT" checkout -q --detach "$tag"
	(cd "$WT" && perl scripts/get_abi.pl validate) >"$TMP/getabi-$tag" 2>&1
	is "$?:$(cat "$TMP/getabi-$tag")" "0:" "get_abi.pl validate at $tag"
	"$KABIDIFF" docs validate "$WT" >"$TMP/validate-$tag" 2>&1
	echo "$?" >"$TMP/status-$tag"
done

# kabidiff docs validate: the same warnings as for the pristine tree (none
# about the series' files), and its summary with the series' 8 files and 9
# entries more; the pristine tree's own counts are docs-6.1.t's business
is "$(sed '$d' "$TMP/validate-kabi-new")" "$(sed '$d' "$TMP/validate-kabi-base")" \
   "docs validate: no warning about the series' files"
expected=$(tail -n 1 "$TMP/validate-kabi-base" |
	awk '{ $1 += 8; $3 += 9; print }')
is "$(cat "$TMP/status-kabi-new"):$(tail -n 1 "$TMP/validate-kabi-new")" \
   "$(cat "$TMP/status-kabi-base"):$expected" \
   "docs validate: 8 more files and 9 more entries than the pristine tree"

# The documentation the series adds, level by level
(cd "$WT/Documentation/ABI" && grep -H '^What:' \
	*/sysfs-kernel-kabi_selftest */sysfs-module-kabi_selftest \
	unstable/debugfs-scheduler private/dev-snd | sed 's/:What:[[:space:]]*/ /') \
	>"$TMP/whats"
is "$(cat "$TMP/whats")" "private/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/private_args_size
removed/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/obsolete_hexvalue
stable/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/stable_value
testing/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/testing_locked
testing/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/testing_version
unstable/sysfs-kernel-kabi_selftest /sys/kernel/kabi_selftest/unstable_call_count
testing/sysfs-module-kabi_selftest /sys/module/kabi_selftest/parameters/initial_value
unstable/debugfs-scheduler /sys/kernel/debug/sched/
private/dev-snd /dev/snd/controlC<card>
private/dev-snd /dev/snd/pcmC<card>D<device>{p,c}
private/dev-snd /dev/snd/hwC<card>D<device>
private/dev-snd /dev/snd/midiC<card>D<device>
private/dev-snd /dev/snd/seq
private/dev-snd /dev/snd/timer" \
   "the What: lines the series documents at kabi-new"

done_testing
