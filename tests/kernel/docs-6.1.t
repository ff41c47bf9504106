#!/bin/sh
# Documentation/ABI of Debian's linux-source-6.1: every file parses, the
# entries are what the files say, and every What: that the kernel's own
# scripts/get_abi.pl knows is ours too, differences explained.
. "$(dirname "$0")/../lib.sh"

TREE=$("$TOP/tests/kernel-tree.sh") || {
	missing_input "could not unpack linux-source-6.1 (tests/kernel-tree.sh)"
}

# the counts and defects below were read in linux-source-6.1 6.1.192-3
VERSION=$(tree_version "$TREE")
reviewed linux-source-6.1 "$VERSION" 6.1.192-3 && exact=yes || exact=

run_kabidiff docs validate "$TREE"
summary=$(printf '%s\n' "$out" | tail -n 1)
if [ -n "$exact" ]; then
	# with its 17 sysctl documents, 608 entries and their 2 warnings
	is "$status:$summary" "1:582 files, 4668 entries: 41 warnings, 4 malformed entries" \
	   "docs validate: every file parses; 4 entries malformed (exit 1)"
	# the four malformed entries, each for its real defect
	is "$(printf '%s\n' "$out" | grep -c 'unparsable What: pattern .* for \(MMIO\|PCI\)": whitespace')" 3 \
	   "three malformed ones are pvpanic's 'capability for MMIO' What: lines"
	printf '%s\n' "$out" | grep -q '^Documentation/ABI/testing/sysfs-bus-vfio-mdev:89: error: unparsable What: pattern "/sys/.../<device>/<UUID>/": no fixed name after the first component'
	is "$?" 0 "the fourth is vfio-mdev's catch-all /sys/.../<device>/<UUID>/"
	case "$out" in
	*"testing/sysfs-kernel-mm-damon:1: warning: what: should be spelled What:"*)
		pass "a lower-case what: is read, with a warning" ;;
	*)	fail "a lower-case what: is read, with a warning" ;;
	esac
else
	case "$status:$summary" in
	[01]:[1-9]*" files, "[1-9]*" entries"*)
		pass "docs validate: every file parses ($summary)" ;;
	*)	fail "docs validate: every file parses" "exit $status: $summary" ;;
	esac
fi

"$KABIDIFF" collect --docs "$TREE" -o "$TMP/docs.json" 2>"$TMP/err"
status=$?
if [ -n "$exact" ]; then
	is "$status:$(cat "$TMP/err")" "0:kabidiff: warning: $TREE: 41 warnings about the ABI documentation; see 'kabidiff docs validate'" \
	   "collect --docs writes the docs part, with one warning line"
else
	is "$status:$(grep -cv ' warnings about the ABI documentation; see ' "$TMP/err")" "0:0" \
	   "collect --docs writes the docs part, with at most one warning line"
fi

# Entries field by field, read back from the snapshot
python3 - "$TMP/docs.json" >"$TMP/fields" <<'PY'
import json, sys
# Documentation/ABI's: the sysctl documents' are checked below
docs = [d for d in json.load(open(sys.argv[1]))["docs"] if "source" not in d]
print(len(docs), sum(len(d["what"]) for d in docs))
by_place = {(d["file"], d["line"]): d for d in docs}
for place in (("stable/sysfs-class-backlight", 1), ("stable/sysfs-module", 3),
              ("testing/sysfs-kernel-mm-damon", 1),
              ("testing/sysfs-devices-system-cpu", 12)):
    print(json.dumps(by_place[place], sort_keys=True))
PY
if [ -z "$exact" ]; then
	is "$(sed -n '$=' "$TMP/fields")" 5 "the four entries are there (counts $(head -n 1 "$TMP/fields"))"
else
is "$(cat "$TMP/fields")" '4060 5357
{"contact": "Richard Purdie <rpurdie@rpsys.net>", "date": "April 2005", "description": "Control BACKLIGHT power, values are FB_BLANK_* from fb.h\n\n - FB_BLANK_UNBLANK (0)   : power on.\n - FB_BLANK_POWERDOWN (4) : power off", "file": "stable/sysfs-class-backlight", "kernel_version": "2.6.12", "level": "stable", "line": 1, "users": "HAL", "what": ["/sys/class/backlight/<backlight>/bl_power"]}
{"description": "The name of the module that is in the kernel.  This\nmodule name will always show up if the module is loaded as a\ndynamic module.  If it is built directly into the kernel, it\nwill only show up if it has a version or at least one\nparameter.\n\nNote: The conditions of creation in the built-in case are not\nby design and may be removed in the future.", "file": "stable/sysfs-module", "level": "stable", "line": 3, "what": ["/sys/module/<MODULENAME>"]}
{"contact": "SeongJae Park <sj@kernel.org>", "date": "Mar 2022", "description": "Interface for Data Access MONitoring (DAMON).  Contains files\nfor controlling DAMON.  For more details on DAMON itself,\nplease refer to Documentation/admin-guide/mm/damon/index.rst.", "file": "testing/sysfs-kernel-mm-damon", "level": "testing", "line": 1, "what": ["/sys/kernel/mm/damon/"]}
{"contact": "Linux kernel mailing list <linux-kernel@vger.kernel.org>", "date": "December 2008", "description": "CPU topology files that describe kernel limits related to\nhotplug. Briefly:\n\nkernel_max: the maximum cpu index allowed by the kernel\nconfiguration.\n\noffline: cpus that are not online because they have been\nHOTPLUGGED off or exceed the limit of cpus allowed by the\nkernel configuration (kernel_max above).\n\nonline: cpus that are online and being scheduled.\n\npossible: cpus that have been allocated resources and can be\nbrought online if they are present.\n\npresent: cpus that have been identified as being present in\nthe system.\n\nSee Documentation/admin-guide/cputopology.rst for more information.", "file": "testing/sysfs-devices-system-cpu", "level": "testing", "line": 12, "what": ["/sys/devices/system/cpu/kernel_max", "/sys/devices/system/cpu/offline", "/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible", "/sys/devices/system/cpu/present"]}' \
   "4060 entries, 5357 What: patterns; four entries field by field"
fi

# Every What: get_abi.pl reports, from its search output's headers
(cd "$TREE" && perl scripts/get_abi.pl search . 2>/dev/null) >"$TMP/search"
run_checker "the comparison with get_abi.pl search" python3 - "$TMP/search" "$TMP/docs.json" \
	"${exact:+5200}" <<'PY'
import collections, json, re, sys
prefixes = ("Kernel version:\t\t", "Date:\t\t\t", "Contact:\t\t", "Users:\t\t\t",
            "Defined on file(s):\t")
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
theirs = []
for i in range(len(lines) - 3):
    if (lines[i] and lines[i + 1] == "-" * len(lines[i].encode()) and
            not lines[i + 2] and lines[i + 3].startswith(prefixes)):
        theirs += lines[i].split(", ")
unescape = lambda s: re.sub(r"\\(\\|x[0-9a-f]{2})",
                            lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1)[1:], 16)), s)
docs = [d for d in json.load(open(sys.argv[2]))["docs"] if "source" not in d]
ours = [unescape(w) for d in docs for w in d["what"]]
first = {unescape(d["what"][0]) for d in docs}
missing = collections.Counter(theirs) - collections.Counter(ours)
extra = collections.Counter(ours) - collections.Counter(theirs)
# 6.1.192-3's get_abi.pl finds 5200; any version's, thousands (an empty or
# cut search output must not pass)
want = int(sys.argv[3]) if sys.argv[3] else None
print(("ok" if (len(theirs) == want if want else len(theirs) > 4000) else "not ok") +
      f" - get_abi.pl reports {len(theirs)} What: patterns, we read {len(ours)}")
# get_abi.pl strips one final [,.;] (l.150): ".../..." loses a dot
unexplained = [w for w in missing if w + "." not in extra]
print(("ok" if not unexplained else "not ok") +
      f" - each of get_abi.pl's is ours but {len(missing)} it cut short: "
      + ", ".join(sorted(missing)))
for w in unexplained:
    print(f"#   not ours: {w}")
# ours alone: lines continuing a What: (get_abi.pl drops them, l.253), the
# '...' get_abi.pl cut, and a pattern two files document (get_abi.pl merges
# the two into one, l.190)
rest = [w for w in extra
        if w[:-1] not in missing and w in first and w not in theirs]
print(("ok" if not rest else "not ok") +
      f" - {sum(extra.values())} more of ours: continuation What: lines"
      " get_abi.pl drops, the '...' it cuts, patterns two files document")
for w in rest:
    print(f"#   unexplained: {w}")
PY

done_testing
