#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make the fixture kernel repository and print its path (alone, on stdout):
#
#   repo=$(kernel-patches/prepare-repo.sh) || exit 2
#
# The repository is $KABIDIFF_CACHE/kabi-linux (default ~/.cache/kabidiff).
# Its history is the pristine Debian source (tag kabi-base), the patches of
# old/ (tag kabi-old) and those of break/ (tag kabi-new), one commit per
# patch, on the branch "kabi", which is left checked out at kabi-new.  The
# commit ids depend only on the package and the patches: the base commit is
# dated by the tarball and each patch's commit by its own Date:.
#
# The base commit is made once per package version, from the tree that
# tests/kernel-tree.sh unpacks (read, never written); that takes about a
# minute.  When the patches change, the series is applied again on top of
# kabi-base: local changes in the repository are thrown away.  Nothing is
# done when the repository already holds this series.

set -eu

. "$(dirname "$0")/common.sh"

IDENT_NAME="kabidiff fixture builder"
IDENT_EMAIL="kabidiff@example.org"

# series_key: the identity of the base and every patch, names and contents
series_key() {
	(
		cd "$HERE"
		cat BASE
		for patch in old/*.patch break/*.patch; do
			[ -f "$patch" ] || continue
			printf '%s\n' "$patch"
			cat "$patch"
		done
	) | sha256sum | cut -c1-16
}

git_repo() {
	git -C "$REPO" "$@"
}

# make_base: a new repository whose one commit is the pristine package
make_base() {
	tree=$("$TOP/tests/kernel-tree.sh") || die "could not unpack $TARBALL"
	tmp=$(mktemp -d "$CACHE/.kabi-linux.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT

	say "committing the pristine $PACKAGE $VERSION tree (about a minute)"
	start=$(date +%s)
	git init -q "$tmp"
	git -C "$tmp" config user.name "$IDENT_NAME"
	git -C "$tmp" config user.email "$IDENT_EMAIL"
	git -C "$tmp" config gc.auto 0
	# The tree's own .gitignore ends with Debian's "/*": every file is
	# ignored, so it is added with -f.  The index is a scratch file: the
	# unpacked tree is only read.
	GIT_INDEX_FILE=$tmp/.git/base-index GIT_WORK_TREE=$tree \
		git -C "$tmp" add -f -A -- . ':!/.kabidiff-unpacked'
	base_tree=$(GIT_INDEX_FILE=$tmp/.git/base-index git -C "$tmp" write-tree)
	rm -f "$tmp/.git/base-index"
	date="@$(stat -c %Y "$TARBALL") +0000"
	base=$(printf '%s\n\n%s\n' "$PACKAGE $VERSION" \
		"The unmodified Debian $PACKAGE package, $TARBALL." |
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		git -C "$tmp" commit-tree "$base_tree")
	git -C "$tmp" tag kabi-base "$base"
	git -C "$tmp" checkout -q -B kabi kabi-base
	git -C "$tmp" config kabidiff.base "$PACKAGE $VERSION"

	if [ -e "$REPO" ]; then
		mv "$REPO" "$tmp/stale"
	fi
	mv "$tmp" "$REPO"
	trap - EXIT
	rm -rf "$REPO/stale"
	say "base commit $(git_repo rev-parse --short kabi-base) in $(elapsed "$start")"
}

need_deps
check_base
lock_cache

key=$(series_key)
if [ -d "$REPO/.git" ] &&
   [ "$(git_repo config kabidiff.series || true)" = "$key" ] &&
   git_repo rev-parse -q --verify kabi-new >/dev/null; then
	# a build that stopped half-way leaves a tag checked out
	if [ "$(git_repo symbolic-ref -q HEAD || true)" != refs/heads/kabi ]; then
		git_repo checkout -q -f kabi
	fi
	printf '%s\n' "$REPO"
	exit 0
fi

if [ ! -d "$REPO/.git" ] ||
   [ "$(git_repo config kabidiff.base || true)" != "$PACKAGE $VERSION" ]; then
	make_base
fi

say "applying the series to $REPO"
start=$(date +%s)
git_repo config --unset kabidiff.series || true
git_repo am --abort >/dev/null 2>&1 || true
git_repo checkout -q -f -B kabi kabi-base
git_repo clean -q -f -d -x

for part in old:kabi-old break:kabi-new; do
	dir=${part%%:*}
	tag=${part#*:}
	for patch in "$HERE/$dir"/*.patch; do
		[ -f "$patch" ] || die "no patches in $HERE/$dir"
		if ! git_repo am -q --committer-date-is-author-date "$patch" >"$CACHE/kabi-am.log" 2>&1; then
			sed 's/^/  /' "$CACHE/kabi-am.log" >&2
			git_repo am --abort >/dev/null 2>&1 || true
			die "${patch#"$TOP/"} does not apply to kabi-base plus the patches before it"
		fi
	done
	git_repo tag -f "$tag" >/dev/null
done
rm -f "$CACHE/kabi-am.log"
git_repo config kabidiff.series "$key"
say "kabi-old $(git_repo rev-parse --short kabi-old), kabi-new $(git_repo rev-parse --short kabi-new) in $(elapsed "$start")"

printf '%s\n' "$REPO"
