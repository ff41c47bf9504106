#!/bin/sh
# Documentation/ABI from git: collect --docs-git, undocumented --docs-git,
# docs diff --git and docs diff DIR1 DIR2 on a small repository made here
# from tests/fixtures/abi; the kernel.git provenance of collect --docs; bad
# inputs; and that the repository's work tree, index and HEAD stay as they
# were.
. "$(dirname "$0")/../lib.sh"

command -v git >/dev/null || skip_all "git is not installed"

R=$TMP/repo
# git's own environment must not point elsewhere (a test run from a hook)
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
git init -q "$R" && git -C "$R" config user.name kabidiff &&
	git -C "$R" config user.email kabidiff@example.org ||
	missing_input "git init failed"
commit() {
	git -C "$R" add -A && git -C "$R" commit -q -m "$1" && git -C "$R" tag "$2"
}
# nodocs: no Documentation/ABI; v1: the fixture tree, with a subdirectory;
# v2: obsolete/ -> removed/; v3: testing/ -> removed/ (too early); HEAD:
# one more file, so that v1..v3 are not what is checked out
echo kernel >"$R/README" && commit "no docs yet" nodocs
cp -R "$FIXTURES/abi/Documentation" "$R/" && mkdir "$R/Documentation/ABI/testing/sub" &&
	printf 'What:\t\t/sys/kernel/sub/x\nDescription:\tAn x.\n' >"$R/Documentation/ABI/testing/sub/sysfs-x" &&
	commit "the fixture docs" v1
mkdir "$R/Documentation/ABI/removed" &&
	git -C "$R" mv Documentation/ABI/obsolete/sysfs-devices-power Documentation/ABI/removed/ &&
	commit "retire wakeup" v2
git -C "$R" mv Documentation/ABI/testing/sysfs-kernel Documentation/ABI/removed/ &&
	commit "remove sysfs-kernel early" v3
echo more >"$R/README" && git -C "$R" commit -q -a -m "after v3"
HEAD_BEFORE=$(git -C "$R" rev-parse HEAD)
V2=$(git -C "$R" rev-parse v2)

# (a) the same snapshot as a checkout of that revision, but for kernel.git
mkdir "$TMP/v2" && git -C "$R" archive v2 | tar -x -C "$TMP/v2"
run_kabidiff collect --docs-git "$R@v2" -o "$TMP/git.json"
is "$status:$err" "0:kabidiff: warning: $R@v2: 2 warnings about the ABI documentation; see 'kabidiff docs validate'" \
   "collect --docs-git REPO@v2 writes a snapshot"
"$KABIDIFF" collect --docs "$TMP/v2" -o "$TMP/dir.json" 2>/dev/null
grep -v '"git":' "$TMP/git.json" >"$TMP/git.nogit"
if cmp -s "$TMP/git.nogit" "$TMP/dir.json" && [ "$(grep -c '"level"' "$TMP/dir.json")" -eq 7 ]; then
	pass "its docs are byte-identical to collect --docs of a checkout of v2"
else
	fail "its docs are byte-identical to collect --docs of a checkout of v2" \
	     "$(diff "$TMP/git.nogit" "$TMP/dir.json")"
fi
is "$(grep '"git":' "$TMP/git.json")" "    \"git\": \"$V2\"," \
   "kernel.git is the commit v2 names"
run_kabidiff collect --docs-git "$R/.git@v2~1"
is "$status:$(printf '%s\n' "$out" | grep -c '"level": "obsolete"')" "0:1" \
   "the .git directory and v2~1 do too"
git clone -q --bare "$R" "$TMP/bare.git"
run_kabidiff collect --docs-git "$TMP/bare.git@$V2"
is "$status:$(printf '%s\n' "$out" | grep -v '"git":')" "0:$(cat "$TMP/dir.json")" \
   "a bare repository and a commit id give the same"
is "$(git -C "$R" status --porcelain):$(git -C "$R" rev-parse HEAD):$(git -C "$R" symbolic-ref HEAD)" \
   ":$HEAD_BEFORE:refs/heads/$(git -C "$R" symbolic-ref --short HEAD)" \
   "the work tree, index and HEAD are untouched"

python3 "$TOP/tests/sysfs-materialise.py" "$FIXTURES/sysfs/small.list" "$TMP/sys" ||
	missing_input "could not materialise small.list"
run_kabidiff undocumented --level --docs-git "$R@v2" --sysfs-dir "$TMP/sys"
git_out=$status:$out
run_kabidiff undocumented --level --docs "$TMP/v2" --sysfs-dir "$TMP/sys"
is "$git_out" "0:$out" "undocumented --docs-git says what undocumented --docs says"
is "$(printf '%s\n' "$out" | grep -c removed/sysfs-devices-power)" 1 "of v2's levels"

# (b) obsolete/ -> removed/ is a retirement: a note, exit 0
run_kabidiff docs diff --verdict note --git "$R" v1 v2
is "$status:$out" "0:kabidiff: $R@v1 -> $R@v2; compared: docs
  old:   git $(git -C "$R" rev-parse v1), from $R@v1
  new:   git $(git -C "$R" rev-parse v2), from $R@v2
  rules: policy default, waivers none
== note ==
-- obsolete --
  doc:     Documentation/ABI/obsolete/sysfs-devices-power#1
  contact: linux-pm@vger.kernel.org
    doc-retired  /sys/devices/.../power/wakeup
      obsolete/sysfs-devices-power#1 -> removed/sysfs-devices-power#1

0 break, 0 warn, 1 note, 0 waived" "docs diff --git v1 v2: doc-retired is a note, exit 0; the header has both commits"
mkdir "$TMP/v1" && git -C "$R" archive v1 | tar -x -C "$TMP/v1"
# the same but for the header, which names the sides as they were given
git_out=$(printf '%s\n' "$out" | tail -n +5)
run_kabidiff docs diff --verdict note "$TMP/v1" "$TMP/v2"
is "$status:$(printf '%s\n' "$out" | head -n 1)" "0:kabidiff: $TMP/v1 -> $TMP/v2; compared: docs" \
   "docs diff DIR1 DIR2: the header names the trees"
is "$(printf '%s\n' "$out" | sed -n 2p)" "  old:   from $TMP/v1" \
   "docs diff DIR1 DIR2: no commit for a tree that is no git work tree"
is "$(printf '%s\n' "$out" | tail -n +5)" "$git_out" "docs diff DIR1 DIR2 on checkouts says the same"

# (c) testing/ -> removed/ without obsolete/: a break, exit 1
run_kabidiff docs diff --git "$R" v2 v3 --format json
is "$status:$(printf '%s\n' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(sorted(set((f["kind"], f["verdict"]) for f in d["findings"])))')" \
   "1:[('doc-removed-early', 'break')]" "docs diff --git v2 v3: doc-removed-early breaks, exit 1"
: >"$TMP/empty.policy"
run_kabidiff docs diff --git "$R" v2 v3 --policy "$TMP/empty.policy" --format markdown --color=never
is "$status" 1 "docs diff takes the options of diff"
printf 'doc-removed-early * moved on purpose\n' >"$TMP/waivers"
run_kabidiff docs diff --waivers "$TMP/waivers" --git "$R" v2 v3
is "$status:$(printf '%s\n' "$out" | tail -n 1)" "0:0 break, 0 warn, 0 note, 3 waived" \
   "docs diff --waivers accepts them"
run_kabidiff docs diff --strict --git "$R" v3 v3
is "$status:$out" "0:" "the same revision twice: nothing, exit 0"

# (d) bad inputs: exit 2, one message naming the problem, nothing on stdout
mkdir "$TMP/plain"
run_kabidiff collect --docs-git "$TMP/plain@v1"
is "$status:$out:$err" "2::kabidiff: $TMP/plain: not a git repository" "not a repository"
run_kabidiff collect --docs-git "$R@no-such-tag"
is "$status:$out:$err" "2::kabidiff: $R: revision 'no-such-tag' not found" "an unknown revision"
run_kabidiff collect --docs-git "$R@nodocs"
is "$status:$out:$err" "2::kabidiff: $R@nodocs: no Documentation/ABI in that tree" \
   "a revision without Documentation/ABI"
run_kabidiff collect --docs-git "$R"
is "$status:$out:$err" "2::kabidiff: --docs-git takes REPO@REV, not '$R'
Try 'kabidiff collect --help'." "REPO without '@'"
run_kabidiff undocumented --docs-git "$R@" --sysfs-dir "$FIXTURES/sysfs"
is "$status:$out:$(printf '%s\n' "$err" | head -n 1)" "2::kabidiff: --docs-git takes REPO@REV, not '$R@'" \
   "undocumented: REPO@ without REV"
run_kabidiff collect --docs "$R" --docs-git "$R@v1"
is "$status:$out" "2:" "--docs and --docs-git together"
run_kabidiff docs diff --git "$R" v1 no-such-tag
is "$status:$out:$err" "2::kabidiff: $R: revision 'no-such-tag' not found" "docs diff: an unknown revision"
run_kabidiff docs diff --git "$TMP/plain" v1 v2
is "$status:$out:$err" "2::kabidiff: $TMP/plain: not a git repository" "docs diff: not a repository"
run_kabidiff docs diff --git "$R" v1
is "$status:$out:$err" "2::kabidiff: docs diff --git REPO needs two revisions, REV1 and REV2
Try 'kabidiff docs --help'." "docs diff: one revision"
run_kabidiff docs diff --git "$R" --format yaml v1 v2
is "$status:$out" "2:" "docs diff: a bad --format"

# (e) provenance: the commit a checked-out tree is at, -dirty when changed
run_kabidiff collect --docs "$R"
is "$(printf '%s\n' "$out" | grep '"git":')" "    \"git\": \"$HEAD_BEFORE\"," \
   "collect --docs on a clean checkout records HEAD"
echo untracked >"$R/new-file"
run_kabidiff collect --docs "$R/Documentation/ABI"
is "$(printf '%s\n' "$out" | grep '"git":')" "    \"git\": \"$HEAD_BEFORE\"," \
   "an untracked file does not make it dirty; Documentation/ABI finds the tree"
echo changed >>"$R/README"
run_kabidiff collect --docs "$R"
is "$status:$(printf '%s\n' "$out" | grep '"git":')" "0:    \"git\": \"$HEAD_BEFORE-dirty\"," \
   "a changed tracked file makes it -dirty"
git -C "$R" checkout -q -- README
run_kabidiff collect --docs "$FIXTURES/abi"
is "$status:$(printf '%s\n' "$out" | grep -c '"git":')" "0:0" \
   "a tree inside another project's work tree records no commit"

# (f) no leak and no memory error
if command -v valgrind >/dev/null; then
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		"$KABIDIFF" collect --docs-git "$R@v2" >"$TMP/out" 2>"$TMP/err"
	is "$?" 0 "collect --docs-git is clean under valgrind"
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		"$KABIDIFF" docs diff --git "$R" v1 no-such-tag >"$TMP/out" 2>"$TMP/err"
	is "$?" 2 "docs diff --git with a bad revision fails cleanly under valgrind"
else
	pass "# SKIP valgrind is not installed"
fi

done_testing
