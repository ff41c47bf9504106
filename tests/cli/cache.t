#!/bin/sh
# The cache is a trust boundary: kabidiff uses only a folder of its own
# (0700, ours, not a symbolic link), never one under /tmp when HOME is
# unset, and replaces what is planted in it instead of writing through;
# a debian: name that apt does not know is one error, not a second false
# one.  Everything on private folders in $TMP, with both builds;
# apt-cache and apt-get are fakes in PATH, so nothing is fetched.
. "$(dirname "$0")/../lib.sh"

command -v dpkg-deb >/dev/null || skip_all "no dpkg-deb"

# a linux-source package of the fixture docs: the smallest one collect
# --deb takes, so that a run uses the cache and does little else
d=$TMP/src
mkdir -p "$d/DEBIAN" "$d/usr/src" "$TMP/tree/linux-source-9.9"
cp -r "$FIXTURES/abi/Documentation" "$TMP/tree/linux-source-9.9/"
tar -C "$TMP/tree" -cJf "$d/usr/src/linux-source-9.9.tar.xz" linux-source-9.9
printf 'Package: linux-source-9.9\nVersion: 1\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: test\n' \
	>"$d/DEBIAN/control"
DEB=$TMP/linux-source-9.9_1_all.deb
dpkg-deb --root-owner-group -Zxz --build "$d" "$DEB" >/dev/null ||
	skip_all "dpkg-deb could not build the test package"

# fake apt-cache and apt-get: every package has version 6.1.99-1, and
# nothing can be downloaded
mkdir "$TMP/bin"
printf '#!/bin/sh\necho "Package: $3$2"\necho "Version: 6.1.99-1"\n' >"$TMP/bin/apt-cache"
printf '#!/bin/sh\necho "apt-get: no network here" >&2\nexit 100\n' >"$TMP/bin/apt-get"
chmod +x "$TMP/bin/apt-cache" "$TMP/bin/apt-get"

# collect_in ENV...: collect --deb with only the environment given for
# where the cache is
collect_in() {
	env -u HOME -u XDG_CACHE_HOME -u KABIDIFF_CACHE "$@" \
		"$KABIDIFF" collect --no-sysfs --deb "$DEB" -o "$TMP/out.json" \
		>/dev/null 2>"$TMP/err"
	status=$?
	err=$(grep -v 'warnings about the ABI documentation' "$TMP/err")
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	KABIDIFF=$bin
	case $bin in
	*/asan/*)	tag="asan: " ;;
	*)		tag= ;;
	esac
	rm -rf "$TMP/c" "$TMP/xdg" "$TMP/home" "$TMP/elsewhere" "$TMP/out.json"

	collect_in
	is "$status:$err" "2:kabidiff: no cache: set KABIDIFF_CACHE, or HOME or XDG_CACHE_HOME" \
	   "${tag}no HOME, XDG_CACHE_HOME or KABIDIFF_CACHE: no cache, not one under /tmp"

	collect_in XDG_CACHE_HOME="$TMP/xdg"
	is "$status:$(stat -c %a "$TMP/xdg/kabidiff" 2>&1):$(ls "$TMP/xdg/kabidiff/packages" 2>&1)" \
	   "0:700:linux-source-9.9_1_all+2" "${tag}no HOME: the cache in XDG_CACHE_HOME, mode 0700"

	mkdir -p "$TMP/home/.cache/kabidiff"
	chmod 0755 "$TMP/home/.cache/kabidiff"
	collect_in HOME="$TMP/home"
	is "$status:$(stat -c %a "$TMP/home/.cache/kabidiff")" "0:700" \
	   "${tag}a cache others may enter is closed to them"

	mkdir "$TMP/elsewhere"
	ln -s elsewhere "$TMP/c"
	collect_in KABIDIFF_CACHE="$TMP/c"
	is "$status:$err:$(ls -A "$TMP/elsewhere")" \
	   "2:kabidiff: $TMP/c: a symbolic link, not a folder: refusing it as the cache:" \
	   "${tag}a cache reached through a symbolic link is refused, nothing written"
	rm -f "$TMP/c"

	mkdir "$TMP/c"
	if chown nobody "$TMP/c" 2>/dev/null; then
		collect_in KABIDIFF_CACHE="$TMP/c"
		is "$status:$err:$(ls -A "$TMP/c")" \
		   "2:kabidiff: $TMP/c: owned by uid $(id -u nobody), not by us (uid $(id -u)): refusing it as the cache:" \
		   "${tag}a cache owned by another user is refused, nothing written"
	else
		pass "${tag}a cache owned by another user # SKIP not root: cannot give a folder away"
	fi
	rm -rf "$TMP/c"

	# a link planted where the answer of apt-cache is kept
	mkdir -p "$TMP/c/debian"
	echo victim >"$TMP/victim"
	ln -s "$TMP/victim" "$TMP/c/debian/6.1.0-99"
	PATH="$TMP/bin:$PATH" KABIDIFF_CACHE="$TMP/c" run_kabidiff \
		diff debian:6.1.0-99 "$FIXTURES/diff/docs.old.json"
	is "$status:$(cat "$TMP/victim"):$([ -L "$TMP/c/debian/6.1.0-99" ] || echo replaced)" \
	   "2:victim:replaced" \
	   "${tag}a planted link in the cache is replaced, not written through"
	[ "$status" -eq 2 ] || printf '#   %s\n' "$err"

	# the same with -o: the report and the cache entry under way at once
	rm -f "$TMP/c/debian/6.1.0-99"
	PATH="$TMP/bin:$PATH" KABIDIFF_CACHE="$TMP/c" run_kabidiff \
		diff debian:6.1.0-99 "$FIXTURES/diff/docs.old.json" -o "$TMP/report"
	is "$status:$(sed -n 3p "$TMP/c/debian/6.1.0-99" 2>&1):$(ls "$TMP/report" 2>/dev/null)" \
	   "2:6.1.99-1:" \
	   "${tag}diff -o: apt-cache's answer is cached all the same, no report of a failed diff"

	mkdir -p "$TMP/bin-empty"
	printf '#!/bin/sh\nexit 0\n' >"$TMP/bin-empty/apt-cache"
	chmod +x "$TMP/bin-empty/apt-cache"
	PATH="$TMP/bin-empty:$PATH" KABIDIFF_CACHE="$TMP/c" run_kabidiff \
		diff debian:6.1.0-98 "$FIXTURES/diff/docs.old.json"
	is "$status:$err" \
	   "2:kabidiff: apt-cache knows no linux-image-6.1.0-98-amd64-unsigned: run apt-get update, or name another kernel" \
	   "${tag}a debian: name apt-cache does not know: one line, no false 'out of memory'"
done

done_testing
