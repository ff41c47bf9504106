#!/bin/sh
# KABIDIFF_TEST_HIDE_ABIS's pieces, with no archive: tests/moved-archive/'s
# apt-cache and apt-get in front of fakes that answer from a list of
# names in $TMP/archive, as if they were apt's own; pkgnames leaves out
# the names a hidden ABI is in, show and depends fail for them as for
# unknown names, policy prints nothing, show of a hidden name beside a
# known one shows the known one, apt-get download of one fails and of
# another runs.  tests/moved-archive.sh --cache makes a cache of links to
# the real one's entries, but for kabidiff's choices (debian/6.1) and what
# a hidden ABI names.
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/archive" <<'EOF'
linux-image-9.9.0-1-amd64-unsigned
linux-image-9.9.0-2-amd64-unsigned
linux-image-9.9.0-2-amd64-dbg
linux-headers-9.9.0-2-common
linux-image-9.9.0-20-amd64-unsigned
linux-image-9.10.3+deb9-amd64-unsigned
linux-source-9.9
EOF
mkdir "$TMP/bin"
cat >"$TMP/bin/apt-cache" <<EOF
#!/bin/sh
while case \$1 in -o) shift 2 ;; -*) shift ;; *) false ;; esac; do :; done
case \$1 in
pkgnames)	grep "^\$2" "$TMP/archive" || true ;;
show | depends)	shift
		found=
		for p; do
			grep -qx "\$p" "$TMP/archive" && found=1 && echo "Package: \$p"
		done
		[ -n "\$found" ] || { echo "E: No packages found" >&2; exit 100; } ;;
policy)		shift; for p; do echo "\$p:"; done ;;
esac
EOF
cat >"$TMP/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*"
EOF
chmod +x "$TMP/bin/apt-cache" "$TMP/bin/apt-get"

# moved ABIS CMD...: CMD with the wrappers before the fakes, ABIS hidden
moved() {
	abis=$1
	shift
	PATH="$TOP/tests/moved-archive:$TMP/bin:$PATH" KABIDIFF_TEST_HIDE_ABIS=$abis \
		"$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

moved "9.9.0-2" apt-cache pkgnames linux-image-9.9.
is "$status:$out" "0:linux-image-9.9.0-1-amd64-unsigned
linux-image-9.9.0-20-amd64-unsigned" \
   "pkgnames: 9.9.0-2's images are gone, 9.9.0-20's stay"
moved "9.9.0-2 9.10.3+deb9" apt-cache pkgnames linux-
is "$status:$out" "0:linux-image-9.9.0-1-amd64-unsigned
linux-image-9.9.0-20-amd64-unsigned
linux-source-9.9" \
   "pkgnames: two ABIs hidden, a +deb one too, and the headers of one"
moved "9.9.0-2" apt-cache show --no-all-versions linux-image-9.9.0-2-amd64-unsigned
is "$status:$out:$err" "100::E: No packages found" \
   "show of a hidden package: exit 100, as apt-cache's for an unknown one"
moved "9.9.0-2" apt-cache depends linux-image-9.9.0-2-amd64-dbg=9.9.7-1
is "$status:$out:$err" "100::E: No packages found" \
   "depends of a hidden NAME=VERSION: exit 100"
moved "9.9.0-2" apt-cache policy linux-image-9.9.0-2-amd64-unsigned
is "$status:$out:$err" "0::" "policy of a hidden package: nothing, exit 0"
moved "9.9.0-2" apt-cache -o Debug::X=1 show linux-image-9.9.0-2-amd64-unsigned \
	linux-image-9.9.0-20-amd64-unsigned
is "$status:$out:$err" "0:Package: linux-image-9.9.0-20-amd64-unsigned:" \
   "show of a hidden and a known package: the known one, the option's value kept"
moved "9.9.0-2" apt-get download -q linux-source-9.9 linux-image-9.9.0-2-amd64-dbg=9.9.7-1
is "$status:$out:$err" "100::E: Unable to locate package linux-image-9.9.0-2-amd64-dbg" \
   "apt-get download of a hidden package: exit 100, naming it"
moved "9.9.0-2" apt-get download -q linux-image-9.9.0-20-amd64-unsigned
is "$status:$out" "0:apt-get download -q linux-image-9.9.0-20-amd64-unsigned" \
   "apt-get download of another: the real apt-get's"

# The cache: a real one with a choice, a hidden ABI's and another's files
real=$TMP/real
mkdir -p "$real/debian" "$real/packages/linux-image-9.9.0-2-amd64-unsigned_9.9.7-1_amd64" \
	"$real/packages/linux-image-9.9.0-20-amd64-unsigned_9.9.7-1_amd64" \
	"$real/snapshots" "$real/linux-source-9.9"
echo 9.9.0-20-amd64 >"$real/debian/9.9"
: >"$real/debian/vmlinux-9.9.0-2-amd64"
: >"$real/debian/vmlinux-9.9.0-20-amd64"
: >"$real/snapshots/0123.json"
KABIDIFF_CACHE=$real moved "9.9.0-2" "$TOP/tests/moved-archive.sh" --cache
is "$status:$out:$err" "0:$real/moved-archive/9.9.0-2:" "--cache prints the cache for 9.9.0-2"
is "$(cd "$out" 2>/dev/null && find . -type l | sort | tr '\n' ' ')" \
   "./debian/vmlinux-9.9.0-20-amd64 ./linux-source-9.9 ./packages/linux-image-9.9.0-20-amd64-unsigned_9.9.7-1_amd64 ./snapshots/0123.json " \
   "links to the real entries, none to the choice debian/9.9 or to 9.9.0-2's"
is "$(find "$out" -maxdepth 1 -type d -name '[a-z]*' | sort | sed "s|$out/||" | tr '\n' ' ')" \
   "bisect debian downloads packages snapshots " \
   "kabidiff's own folders are folders, not links"
KABIDIFF_CACHE=$out moved "9.9.0-2" "$TOP/tests/moved-archive.sh" --cache
is "$status:$out:$err" "0:$real/moved-archive/9.9.0-2:" \
   "from inside that cache, the same cache, not one inside it"
KABIDIFF_CACHE=$real moved "9.9" "$TOP/tests/moved-archive.sh" --cache
is "$status:$err" "2:moved-archive.sh: KABIDIFF_TEST_HIDE_ABIS: '9.9' is not an ABI such as 6.1.0-57 or 6.12.118+deb12" \
   "a series is not an ABI to hide: exit 2"

# and through tests/moved-archive.sh, a command sees both
KABIDIFF_CACHE=$real moved "9.9.0-2" "$TOP/tests/moved-archive.sh" \
	sh -c 'echo "$KABIDIFF_CACHE"; apt-cache pkgnames linux-image-9.9.0-2'
is "$status:$out" "0:$real/moved-archive/9.9.0-2
linux-image-9.9.0-20-amd64-unsigned" \
   "a command run through it: the cache, and of the prefix's names not 9.9.0-2's"

done_testing
