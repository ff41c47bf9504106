#!/bin/sh
# The sysctl documents of Debian's linux-source-6.1 and -6.12: they parse,
# with their warnings listed, and the names read from the headings of the
# documents whose entries are "=" headings (admin-guide/sysctl/kernel.rst,
# vm.rst, user.rst, abi.rst) are those the kernel's own
# scripts/check-sysctl-docs reads from them, but for the ':' it leaves on
# "max_map_count:" (its trimpunct() does not trim one; no sysctl name has one).
. "$(dirname "$0")/../lib.sh"

command -v gawk >/dev/null ||
	skip_all "gawk is not installed, which scripts/check-sysctl-docs needs ('make deps' installs it)"

for series in 6.1 6.12; do
	TREE=$("$TOP/tests/kernel-tree.sh" "$series") ||
		missing_input "could not unpack linux-source-$series (tests/kernel-tree.sh)"
	VERSION=$(tree_version "$TREE")
	# the warnings below were read in these trees
	case $series in
	6.1)	reviewed linux-source-6.1 "$VERSION" 6.1.192-3 && exact=yes || exact=
		want='Documentation/admin-guide/sysctl/fs.rst:314: warning: "/proc/sys/fs/aio-nr" is also documented at line 53
Documentation/admin-guide/sysctl/fs.rst:314: warning: "/proc/sys/fs/aio-max-nr" is also documented at line 53' ;;
	*)	reviewed linux-source-6.12 "$VERSION" 6.12.118-1~deb12u1 && exact=yes || exact=
		want= ;;
	esac
	run_kabidiff docs validate "$TREE"
	warnings=$(printf '%s\n' "$out" | grep '^Documentation/\(admin-guide/sysctl\|networking\)/')
	if [ -n "$exact" ]; then
		# 6.1's fs.rst has "aio-nr & aio-max-nr" twice, the second
		# time in the section on /proc/sys/fs itself
		is "$warnings" "$want" "$series: the sysctl documents' warnings"
	else
		pass "$series: the sysctl documents parse (warnings: $(printf '%s' "$warnings" | grep -c .))"
	fi
	"$KABIDIFF" collect --docs "$TREE" -o "$TMP/docs.json" 2>/dev/null ||
		fail "$series: collect --docs"
	run_checker "$series: our names and check-sysctl-docs'" python3 - "$TREE" "$TMP/docs.json" "$series" <<'PY'
import json, subprocess, sys
tree, snap, series = sys.argv[1:]
docs = json.load(open(snap))["docs"]
for name in ("kernel", "vm", "user", "abi"):
    rel = f"admin-guide/sysctl/{name}.rst"
    out = subprocess.run(["gawk", "-f", f"{tree}/scripts/check-sysctl-docs",
                          f"-vtable={name}", f"{tree}/Documentation/{rel}", "/dev/null"],
                         capture_output=True, text=True, check=True).stdout
    theirs = {l.split()[-1].rstrip(":") for l in out.splitlines()
              if l.startswith("No implementation for ")}
    text = open(f"{tree}/Documentation/{rel}", encoding="utf-8").read().split("\n")
    # the entries of headings, not of "* ``name``" and "``/proc/sys/...``" lines
    ours = {w.rsplit("/", 1)[1] for d in docs if d.get("file") == rel
            and not text[d["line"] - 1].startswith(("* ``", "``")) for w in d["what"]}
    ok = theirs == ours and len(theirs) > 0
    print(("ok" if ok else "not ok") +
          f" - {series} {rel}: {len(ours)} names from its headings, check-sysctl-docs reads {len(theirs)}")
    for w in sorted(theirs - ours):
        print(f"#   theirs only: {w}")
    for w in sorted(ours - theirs):
        print(f"#   ours only: {w}")
PY
done

done_testing
