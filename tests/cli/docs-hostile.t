#!/bin/sh
# Hostile Documentation/ABI trees, on private directories under $TMP: a FIFO
# (which must not block the walk), symbolic links to "." and ".." (which must
# not be followed: no exponential walk, no file read twice or at the wrong
# level), a UTF-8 byte order mark (which must not hide the first entry), a
# file over the 16 MiB cap (an error naming it), and a symbolic link in a git
# tree (skipped as on disk).  Each with the plain and the ASan binary, each
# run under timeout(1) so that a hang is a failure, not a stuck test run.
. "$(dirname "$0")/../lib.sh"

command -v timeout >/dev/null || skip_all "timeout(1) is not installed"
command -v mkfifo >/dev/null || skip_all "mkfifo(1) is not installed"

ABI=$FIXTURES/abi/Documentation/ABI

# tree NAME: a fresh copy of the fixture's stable/ and testing/ at $TMP/NAME
tree() {
	rm -rf "${TMP:?}/$1"
	mkdir -p "$TMP/$1/Documentation/ABI" &&
		cp -R "$ABI/stable" "$ABI/testing" "$TMP/$1/Documentation/ABI/"
}

# run BIN ARGS...: run_kabidiff with BIN, killed after 20 s (status 124)
run() {
	run_bin=$1
	shift
	timeout 20 "$run_bin" "$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

# no_sanitizer TAG: the last run printed no sanitizer report
no_sanitizer() {
	is "$(grep -c 'runtime error\|AddressSanitizer\|LeakSanitizer' "$TMP/err")" 0 \
	   "${1}no sanitizer report"
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	tag=
	[ "$bin" = "$KABIDIFF" ] || tag="asan: "
	if [ ! -x "$bin" ]; then
		fail "$tag$bin is built"
		continue
	fi
	D=$TMP/t/Documentation/ABI

	# a FIFO among the files, and one as a whole level: neither is opened
	tree t && mkfifo "$D/stable/sysfs-fifo" "$D/obsolete"
	run "$bin" docs validate "$TMP/t"
	is "$status:$(printf '%s\n' "$out" | grep -v '^Documentation/ABI/testing/sysfs-kernel:')" \
	   "1:$D/stable/sysfs-fifo: not a regular file or a directory, skipped
$D/obsolete: not a regular file or a directory, skipped
2 files, 5 entries: 4 warnings, 1 malformed entries" \
	   "${tag}a FIFO in the tree does not block: skipped with a warning"
	no_sanitizer "$tag"

	# links to "." (two: 2^depth walks if followed) and to ".."
	tree t && ln -s . "$D/stable/self" && ln -s . "$D/stable/again" &&
		ln -s .. "$D/stable/up" && ln -s ../testing/sysfs-kernel "$D/stable/sysfs-kernel"
	run "$bin" docs validate "$TMP/t"
	is "$status:$(printf '%s\n' "$out" | grep -v '^Documentation/ABI/testing/sysfs-kernel:')" \
	   "1:$D/stable/again: a symbolic link, skipped
$D/stable/self: a symbolic link, skipped
$D/stable/sysfs-kernel: a symbolic link, skipped
$D/stable/up: a symbolic link, skipped
2 files, 5 entries: 6 warnings, 1 malformed entries" \
	   "${tag}symbolic links to ., .. and a file: skipped, nothing read twice"
	no_sanitizer "$tag"
	run "$bin" docs search --json 'oopses' "$TMP/t"
	is "$status:$(printf '%s\n' "$out" | grep -c '"level"'):$(printf '%s\n' "$out" | grep '"level"')" \
	   '0:1:    "level": "testing",' \
	   "${tag}testing/ is not read again as stable/ through a link to .."

	# a byte order mark before the first What:
	tree t && printf '\357\273\277What:\t\t/sys/kernel/bom_first\nDescription:\tThe first.\n\nWhat:\t\t/sys/kernel/bom_second\nDescription:\tThe second.\n' \
		>"$D/stable/sysfs-bom"
	run "$bin" docs search 'bom_' "$TMP/t"
	is "$status:$out" "0:/sys/kernel/bom_first
  level    stable
  file     Documentation/ABI/stable/sysfs-bom#1

/sys/kernel/bom_second
  level    stable
  file     Documentation/ABI/stable/sysfs-bom#4" \
	   "${tag}a byte order mark does not hide the first entry, still line 1"
	run "$bin" docs validate "$TMP/t"
	is "$status:$(printf '%s\n' "$out" | grep -c bom)" "1:0" \
	   "${tag}and is not a warning"
	no_sanitizer "$tag"

	# one byte over the cap is an error naming the file, exit 2
	tree t && truncate -s $((16 * 1024 * 1024 + 1)) "$D/stable/sysfs-huge"
	run "$bin" docs validate "$TMP/t"
	is "$status:$err" "2:kabidiff: $D/stable/sysfs-huge: larger than 16 MiB, the most a documentation file may hold" \
	   "${tag}a file over the 16 MiB cap is an error naming it"
	no_sanitizer "$tag"
done

command -v git >/dev/null || { done_testing; exit; }
R=$TMP/repo
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
git init -q "$R" && git -C "$R" config user.name kabidiff &&
	git -C "$R" config user.email kabidiff@example.org &&
	mkdir -p "$R/Documentation/ABI" && cp -R "$ABI/stable" "$ABI/testing" "$R/Documentation/ABI/" &&
	ln -s . "$R/Documentation/ABI/stable/self" &&
	ln -s ../testing/sysfs-kernel "$R/Documentation/ABI/stable/sysfs-kernel" &&
	ln -s testing "$R/Documentation/ABI/obsolete" &&
	git -C "$R" add -A && git -C "$R" commit -q -m links && git -C "$R" tag links &&
	truncate -s $((16 * 1024 * 1024 + 1)) "$R/Documentation/ABI/testing/sysfs-huge" &&
	git -C "$R" add -A && git -C "$R" commit -q -m huge && git -C "$R" tag huge ||
	missing_input "could not make the git repository"
for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$bin" && continue
	tag=
	[ "$bin" = "$KABIDIFF" ] || tag="asan: "
	[ -x "$bin" ] || continue
	run "$bin" collect --docs-git "$R@links" -o "$TMP/git.json"
	is "$status:$err" \
	   "0:kabidiff: warning: $R@links: 5 warnings about the ABI documentation; see 'kabidiff docs validate'" \
	   "${tag}git: symbolic links (mode 120000) are skipped, each a warning (3, and 2 in testing/)"
	is "$(grep -c '"level"' "$TMP/git.json"):$(grep -c '"level": "stable"' "$TMP/git.json")" "5:2" \
	   "${tag}git: and nothing is read through them"
	no_sanitizer "$tag"
	run "$bin" collect --docs-git "$R@huge" -o "$TMP/git.json"
	is "$status:$err" "2:kabidiff: $R@huge:Documentation/ABI/testing/sysfs-huge: larger than 16 MiB, the most a documentation file may hold" \
	   "${tag}git: a blob over the 16 MiB cap is an error naming it"
done

done_testing
