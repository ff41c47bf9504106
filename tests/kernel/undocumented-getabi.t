#!/bin/sh
# kabidiff undocumented against the kernel's own get_abi.pl undefined, both
# on one fixed sysfs tree (tests/fixtures/sysfs/host.list.gz, materialised
# as empty files and links), so the answer does not depend on this machine.
# get_abi.pl 6.1 reads only /sys: it sees the tree there through a bind
# mount in a private mount namespace.  Every difference must be explained
# by a known behaviour of get_abi.pl (tests/kernel/getabi-compare.py).
. "$(dirname "$0")/../lib.sh"

LIST=$FIXTURES/sysfs/host.list.gz

[ "$(id -u)" -eq 0 ] || skip_all "needs root for a private mount namespace (unshare -m)"
unshare -m true 2>/dev/null || skip_all "unshare -m does not work here"
TREE=$("$TOP/tests/kernel-tree.sh") || {
	missing_input "could not unpack linux-source-6.1 (tests/kernel-tree.sh)"
}

python3 "$TOP/tests/sysfs-materialise.py" "$LIST" "$TMP/sys" ||
	missing_input "could not materialise $LIST"

# getabi SCRIPT: run a get_abi.pl with $TMP/sys as /sys
getabi() {
	(cd "$TREE" && unshare -m sh -c 'mount --bind "$1" /sys && shift && exec perl "$@"' \
		sh "$TMP/sys" "$@" undefined)
}

getabi scripts/get_abi.pl >"$TMP/getabi.out" 2>"$TMP/getabi.err"
sed -n 's/^\(.*\) not found\.$/\1/p' "$TMP/getabi.out" | sort >"$TMP/getabi"
# get_abi.pl can stop early with status 0 and no output (its graph code)
if [ ! -s "$TMP/getabi" ] || grep -q '^Error' "$TMP/getabi.err"; then
	missing_input "get_abi.pl undefined failed: $(head -c 300 "$TMP/getabi.err")"
fi
pass "get_abi.pl undefined: $(wc -l <"$TMP/getabi") paths not found"

# The regexes get_abi.pl made of each What:, from a copy that prints them
perl -pe 's/^(\s+)(my \$leave = get_leave\(\$what\);)/$1$2 print "CONV\\t\$what\\n" if \$ENV{KABI_CONV};/;
	  s/^(\s+)# Take links into account/$1exit 0 if \$ENV{KABI_CONV};\n$1# Take links into account/' \
	"$TREE/scripts/get_abi.pl" >"$TMP/get_abi_regexes.pl"
KABI_CONV=1 getabi "$TMP/get_abi_regexes.pl" >"$TMP/regexes" 2>/dev/null
# 5075 in linux-source-6.1 6.1.192-3; any version has thousands
regexes=$(grep -c '^CONV' "$TMP/regexes")
if reviewed linux-source-6.1 "$(tree_version "$TREE")" 6.1.192-3; then
	is "$regexes" 5075 "get_abi.pl's regexes for the 5075 /sys What: lines"
else
	is "$((regexes > 4000))" 1 "get_abi.pl's regexes for the /sys What: lines ($regexes)"
fi

run_kabidiff undocumented --docs "$TREE" --sysfs-dir "$TMP/sys"
is "$status" 0 "kabidiff undocumented on the same tree"
printf '%s\n' "$out" | sed '/^$/,$d' | sort >"$TMP/ours"
"$KABIDIFF" undocumented --level --docs "$TREE" --sysfs-dir "$TMP/sys" >"$TMP/levels"

# the tree as a snapshot gives the same answer as the tree on disk
"$KABIDIFF" collect --sysfs-dir "$TMP/sys" -o "$TMP/tree.json"
"$KABIDIFF" undocumented --docs "$TREE" "$TMP/tree.json" >"$TMP/from-snapshot"
printf '%s\n' "$out" | cmp -s - "$TMP/from-snapshot" &&
	pass "undocumented on a snapshot of the tree says the same" ||
	fail "undocumented on a snapshot of the tree says the same"

run_checker getabi-compare.py python3 "$TOP/tests/kernel/getabi-compare.py" "$LIST" \
	"$TMP/getabi" "$TMP/ours" "$TMP/levels" "$TMP/regexes"

done_testing
