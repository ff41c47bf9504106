#!/bin/sh
# debian:SERIES and a flavour without its architecture: kabidiff chooses
# the newest release of the archive they name (by dpkg's order, so -10 is
# newer than -3), says which, and asks apt-get for exactly its packages;
# a name the archive lacks is one line that names the flavours it has.
# apt-cache answers from a list of package names in $TMP/archive, and
# apt-get only notes what it was asked for: nothing is fetched.
. "$(dirname "$0")/../lib.sh"

command -v dpkg >/dev/null || skip_all "no dpkg, which orders Debian versions"

cat >"$TMP/archive" <<'EOF'
linux-image-9.9.0-1-amd64-unsigned
linux-image-9.9.0-1-amd64-dbg
linux-image-9.9.0-3-amd64-unsigned
linux-image-9.9.0-3-amd64-dbg
linux-image-9.9.0-10-amd64-unsigned
linux-image-9.9.0-10-amd64-dbg
linux-image-9.9.0-2-amd64-unsigned
linux-image-9.9.0-2-amd64-dbg
linux-image-9.9.0-2-cloud-amd64-unsigned
linux-image-9.9.0-2-cloud-amd64-dbg
linux-image-9.9-amd64-dbg
linux-image-9.10.0-20-amd64-unsigned
linux-image-9.10.0-20-amd64-dbg
linux-image-amd64
linux-source-9.9
EOF

mkdir "$TMP/bin"
cat >"$TMP/bin/apt-cache" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/apt-cache.log"
case \$1 in
pkgnames)	grep "^\$2" "$TMP/archive" || true ;;
show)		for p; do :; done
		grep -qx "\$p" "$TMP/archive" || exit 100
		printf 'Package: %s\nVersion: 9.9.7-1\n\n' "\$p" ;;
*)		exit 100 ;;
esac
EOF
cat >"$TMP/bin/apt-get" <<EOF
#!/bin/sh
for p; do case \$p in linux-*=*) echo "\$p" ;; esac; done >"$TMP/apt-get.log"
echo "apt-get: no network here" >&2
exit 100
EOF
chmod +x "$TMP/bin/apt-cache" "$TMP/bin/apt-get"

# resolve SPEC: kabidiff diff SPEC against a snapshot, in a new cache,
# with the fakes; what apt-get was asked for is in $asked
resolve() {
	rm -f "$TMP/apt-cache.log" "$TMP/apt-get.log"
	PATH="$TMP/bin:$PATH" KABIDIFF_CACHE="$TMP/c" KABIDIFF_VERBOSE=1 \
		run_kabidiff diff "$1" "$FIXTURES/diff/docs.old.json"
	asked=$(cat "$TMP/apt-get.log" 2>/dev/null | tr '\n' ' ')
	chose=$(printf '%s\n' "$err" | grep 'newest release')
	refused=$(printf '%s\n' "$err" | grep -v '^kabidiff: downloading\|^kabidiff: apt-get\|^apt-get:')
}

for bin in "$KABIDIFF" "$ASAN_KABIDIFF"; do

	not_built "$bin" && continue
	KABIDIFF=$bin
	case $bin in
	*/asan/*)	tag="asan: " ;;
	*)		tag= ;;
	esac
	rm -rf "$TMP/c"

	resolve debian:9.9
	is "$chose|$asked" \
	   "kabidiff: debian:9.9: 9.9.0-10-amd64, the newest release of the archive it names (linux-image-9.9.0-10-amd64-unsigned 9.9.7-1)|linux-image-9.9.0-10-amd64-unsigned=9.9.7-1 linux-image-9.9.0-10-amd64-dbg=9.9.7-1 linux-source-9.9=9.9.7-1 " \
	   "${tag}debian:9.9: its newest ABI, 9.9.0-10 by dpkg's order, said and fetched"
	is "$status:$(grep -c pkgnames "$TMP/apt-cache.log")" "2:1" \
	   "${tag}debian:9.9: the archive's kernels asked for once; exit 2, as apt-get fails"

	resolve debian:9.9
	is "$chose|$asked|$(grep -c . "$TMP/apt-cache.log" 2>/dev/null || echo 0)" \
	   "kabidiff: debian:9.9: 9.9.0-10-amd64, the newest release of the archive it names (linux-image-9.9.0-10-amd64-unsigned 9.9.7-1)|linux-image-9.9.0-10-amd64-unsigned=9.9.7-1 linux-image-9.9.0-10-amd64-dbg=9.9.7-1 linux-source-9.9=9.9.7-1 |0" \
	   "${tag}debian:9.9 again: the choice from the cache's memo, apt-cache not asked, still said"

	resolve debian:9.9-cloud
	is "$chose|$asked" \
	   "kabidiff: debian:9.9-cloud: 9.9.0-2-cloud-amd64, the newest release of the archive it names (linux-image-9.9.0-2-cloud-amd64-unsigned 9.9.7-1)|linux-image-9.9.0-2-cloud-amd64-unsigned=9.9.7-1 linux-image-9.9.0-2-cloud-amd64-dbg=9.9.7-1 linux-source-9.9=9.9.7-1 " \
	   "${tag}debian:9.9-cloud: the cloud-amd64 flavour"

	resolve debian:9.9.0-2-cloud
	is "$chose|$asked" \
	   "kabidiff: debian:9.9.0-2-cloud: 9.9.0-2-cloud-amd64, the newest release of the archive it names (linux-image-9.9.0-2-cloud-amd64-unsigned 9.9.7-1)|linux-image-9.9.0-2-cloud-amd64-unsigned=9.9.7-1 linux-image-9.9.0-2-cloud-amd64-dbg=9.9.7-1 linux-source-9.9=9.9.7-1 " \
	   "${tag}debian:9.9.0-2-cloud: the flavour given without its architecture"

	resolve debian:9.9.0-3
	is "$chose|$asked|$(grep -c pkgnames "$TMP/apt-cache.log")" \
	   "|linux-image-9.9.0-3-amd64-unsigned=9.9.7-1 linux-image-9.9.0-3-amd64-dbg=9.9.7-1 linux-source-9.9=9.9.7-1 |0" \
	   "${tag}debian:9.9.0-3: named exactly, no choice made nor said"

	resolve debian:9.9.0-1-cloud
	is "$status:$refused|$asked" \
	   "2:kabidiff: debian:9.9.0-1-cloud: the archive has no 9.9.0-1 kernel of flavour cloud; its flavours are amd64|" \
	   "${tag}debian:9.9.0-1-cloud: one line naming the flavours 9.9.0-1 has, nothing fetched"

	resolve debian:9.9-rt-arm64
	is "$status:$refused|$asked" \
	   "2:kabidiff: debian:9.9-rt-arm64: the archive has no 9.9 kernel of flavour rt-arm64; its flavours are amd64, cloud-amd64|" \
	   "${tag}debian:9.9-rt-arm64: one line naming the flavours 9.9 has"

	resolve debian:9.8
	is "$status:$refused|$asked" \
	   "2:kabidiff: debian:9.8: the archive has no 9.8 kernel: run apt-get update, or name another|" \
	   "${tag}debian:9.8: a series the archive lacks, one line"

	resolve debian:9
	is "$status:$refused|$asked" \
	   "2:kabidiff: debian:9: not a Debian kernel: debian:ABI[-FLAVOUR] or debian:SERIES[-FLAVOUR] names one, as debian:6.1.0-57, debian:6.12.118+deb12-cloud-amd64 or debian:6.12|" \
	   "${tag}debian:9: not a series, one line"
done

done_testing
