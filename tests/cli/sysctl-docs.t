#!/bin/sh
# The sysctl documents on a small tree (tests/fixtures/sysctl-docs, cut from
# 6.1's admin-guide/sysctl/kernel.rst and networking/ip-sysctl.rst): docs
# validate reads them with the tree and alone, their entries go into the
# docs part with their source, and a diff of two /proc/sys trees judges
# the sysctls by them (a removal or a lost write bit is a break at level
# sysctl, naming the document and line; an obsolete one's removal a note;
# an undocumented one's a warn); a policy line sets the level's verdicts.
. "$(dirname "$0")/../lib.sh"

DOCS=$FIXTURES/sysctl-docs
AGENT=$TOP/build/kabi-agent
[ -x "$AGENT" ] || not_built "$AGENT"

run_kabidiff docs validate "$DOCS"
is "$status:$out" '0:Documentation/admin-guide/sysctl/kernel.rst:50: warning: "/proc/sys/kernel/acct" is also documented at line 7
3 files, 12 entries: 1 warnings, 0 malformed entries' \
   "docs validate: the ABI file and the two sysctl documents (not index.rst, not scaling.rst)"
run_kabidiff docs validate "$DOCS/Documentation/admin-guide/sysctl/kernel.rst"
is "$status:$out" '0:Documentation/admin-guide/sysctl/kernel.rst:50: warning: "/proc/sys/kernel/acct" is also documented at line 7
1 files, 8 entries: 1 warnings, 0 malformed entries' \
   "docs validate FILE: a sysctl document alone, as a patch touches it"
run_kabidiff docs validate "$DOCS/Documentation/networking/scaling.rst"
has "$status:$err" "2:kabidiff: $DOCS/Documentation/networking/scaling.rst: neither in a level directory" \
    "docs validate FILE: a networking document without sysctl in its name is no sysctl document"

# the tree is input: no link on the way to the documents is followed (a
# link to a directory outside it, a link to a document of another tree)
mkdir -p "$TMP/links/Documentation/ABI/stable" "$TMP/elsewhere/sysctl" &&
cp "$DOCS/Documentation/ABI/stable/sysfs-kernel-kabi" "$TMP/links/Documentation/ABI/stable/" &&
cp "$DOCS/Documentation/admin-guide/sysctl/kernel.rst" "$TMP/elsewhere/sysctl/" &&
ln -s "$TMP/elsewhere" "$TMP/links/Documentation/admin-guide" &&
mkdir "$TMP/links/Documentation/networking" &&
ln -s "$DOCS/Documentation/networking/ip-sysctl.rst" "$TMP/links/Documentation/networking/ip-sysctl.rst" ||
	missing_input "could not make the tree of links"
run_kabidiff docs validate "$TMP/links"
is "$status:$err:$out" "0::$TMP/links/Documentation/admin-guide: a symbolic link, skipped
$TMP/links/Documentation/networking/ip-sysctl.rst: a symbolic link, skipped
1 files, 1 entries: 2 warnings, 0 malformed entries" \
   "docs validate: a linked directory or document on the way is skipped with a warning, not read"

run_kabidiff collect --docs "$DOCS" -o "$TMP/docs.json"
is "$status:$err" "0:kabidiff: warning: $DOCS: 1 warnings about the ABI documentation; see 'kabidiff docs validate'" \
   "collect --docs: the docs part, and the count of docs validate's warnings"
run_checker "the sysctl entries of the docs part" python3 - "$TMP/docs.json" <<'PY'
import json, sys
docs = json.load(open(sys.argv[1]))["docs"]
got = sorted((d.get("source", "abi"), d["level"], d["file"], d["line"], " ".join(d["what"]))
             for d in docs)
want = sorted([
    ("abi", "stable", "stable/sysfs-kernel-kabi", 1, "/sys/kernel/kabi"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 7, "/proc/sys/kernel/acct"),
    ("sysctl", "obsolete", "admin-guide/sysctl/kernel.rst", 18, "/proc/sys/kernel/auto_msgmni"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 25, "/proc/sys/kernel/nmi_watchdog"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 32,
     "/proc/sys/kernel/osrelease /proc/sys/kernel/ostype /proc/sys/kernel/version"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 40, "/proc/sys/kernel/random"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 45, "/proc/sys/kernel/random/boot_id"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 47, "/proc/sys/kernel/random/uuid"),
    ("sysctl", "sysctl", "admin-guide/sysctl/kernel.rst", 50, "/proc/sys/kernel/acct"),
    ("sysctl", "sysctl", "networking/ip-sysctl.rst", 10, "/proc/sys/net/ipv4/.../ip_forward"),
    ("sysctl", "sysctl", "networking/ip-sysctl.rst", 16, "/proc/sys/net/ipv4/.../mtu_expires"),
    ("sysctl", "sysctl", "networking/ip-sysctl.rst", 22, "/proc/sys/net/ipv4/.../forwarding"),
])
ok = got == want
print(("ok" if ok else "not ok") + " - each sysctl with its source, level, document and line")
if not ok:
    for line in ["got:"] + [repr(g) for g in got] + ["want:"] + [repr(w) for w in want]:
        print("#   " + line)
PY

# mkproc DIR PATH:MODE...: a /proc/sys tree of files with those modes
mkproc() {
	dir=$1
	shift
	for spec in "$@"; do
		mkdir -p "$dir/$(dirname "${spec%:*}")" &&
		echo 1 >"$dir/${spec%:*}" &&
		chmod "${spec##*:}" "$dir/${spec%:*}" || return 1
	done
}
# snap NAME: the snapshot of tree $TMP/NAME as /proc/sys, with the docs
snap() {
	"$AGENT" --root "$TMP/$1" --prefix /proc/sys >"$TMP/$1.stream" &&
	"$KABIDIFF" collect --sysfs-stream "$TMP/$1.stream" --docs "$DOCS" \
		-o "$TMP/$1.json" 2>/dev/null
}
kept="kernel/acct:644 kernel/random/uuid:444 net/ipv4/ip_forward:644 net/ipv4/conf/eth0/forwarding:644"
mkproc "$TMP/old" $kept kernel/auto_msgmni:644 kernel/nmi_watchdog:644 \
	kernel/sched_child_runs_first:644 kernel/random/boot_id:444 \
	net/ipv4/route/mtu_expires:644 &&
mkproc "$TMP/new" $kept kernel/nmi_watchdog:444 &&
snap old && snap new ||
	missing_input "could not make the /proc/sys trees and their snapshots"

run_kabidiff diff --color=never --verdict warn "$TMP/old.json" "$TMP/new.json"
is "$status:$(relative_out | sed '1,/^  rules:/d')" "1:== break ==
-- sysctl --
  doc:     Documentation/admin-guide/sysctl/kernel.rst#25, #45
    mode-lost  /proc/sys/kernel/nmi_watchdog
      0644 -> 0444
      entry:   #25
    node-removed  /proc/sys/kernel/random/boot_id
      file 0444 uint -> (absent)
      entry:   #45
  doc:     Documentation/networking/ip-sysctl.rst#16
    node-removed  /proc/sys/net/ipv4/route/mtu_expires
      file 0644 uint -> (absent)
== warn ==
-- undocumented --
    node-removed  /proc/sys/kernel/sched_child_runs_first
      file 0644 uint -> (absent)
    node-removed  /proc/sys/net/ipv4/route
      dir 0755 -> (absent)

3 break, 2 warn, 1 note, 0 waived
shown: 5 of 6 findings (verdict warn or worse)" \
   "diff: sysctl removals and a lost write bit break at level sysctl, by document and line"
run_kabidiff diff --format json "$TMP/old.json" "$TMP/new.json"
run_checker "the JSON report's sysctl findings" python3 - <<PY
import json
report = json.loads('''$out''')
got = sorted((f["kind"], f["level"], f["verdict"], f["subject"],
              f["doc"] and (f["doc"]["source"], f["doc"]["file"], f["doc"]["line"]))
             for f in report["findings"] if f["subject"].startswith("/proc/sys/"))
want = sorted([
    ("mode-lost", "sysctl", "break", "/proc/sys/kernel/nmi_watchdog",
     ("sysctl", "admin-guide/sysctl/kernel.rst", 25)),
    ("node-removed", "sysctl", "break", "/proc/sys/kernel/random/boot_id",
     ("sysctl", "admin-guide/sysctl/kernel.rst", 45)),
    ("node-removed", "sysctl", "break", "/proc/sys/net/ipv4/route/mtu_expires",
     ("sysctl", "networking/ip-sysctl.rst", 16)),
    ("node-removed", "obsolete", "note", "/proc/sys/kernel/auto_msgmni",
     ("sysctl", "admin-guide/sysctl/kernel.rst", 18)),
    ("node-removed", "undocumented", "warn", "/proc/sys/kernel/sched_child_runs_first", None),
    ("node-removed", "undocumented", "warn", "/proc/sys/net/ipv4/route", None),
])
ok = got == want
print(("ok" if ok else "not ok") + " - JSON: each /proc/sys finding with its level, verdict and document")
if not ok:
    for line in ["got:"] + [repr(g) for g in got] + ["want:"] + [repr(w) for w in want]:
        print("#   " + line)
PY

printf 'removed sysctl warn\nincompatible sysctl note\n' >"$TMP/policy"
run_kabidiff diff --policy "$TMP/policy" "$TMP/old.json" "$TMP/new.json"
is "$status:$(printf '%s\n' "$out" | tail -n 1)" "0:0 break, 4 warn, 2 note, 0 waived" \
   "a policy file sets the verdicts of level sysctl"

done_testing
