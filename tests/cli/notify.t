#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Whom to tell: findings grouped by the doc entry that judged them, its
# Contact: and Users: once; linux-api@ for syscalls, types and the vDSO;
# with --maintainers, the lists owning a declaring file or a doc file;
# --notify prints just that.  docs/policy.md, "Whom to notify".
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
PYTHON=${PYTHON:-/usr/bin/python3}

# the stable pair, where kabi_gone and struct kabi_gone have declaring files
python3 -c '
import json, sys
for side in ("old", "new"):
    s = json.load(open("%s/stable.%s.json" % (sys.argv[1], side)))
    s["version"] = 4
    for c in s["syscalls"]:
        if c["name"] == "kabi_gone":
            c["file"] = "fs/kabi.c"
    for name, t in s["types"].items():
        if name == "struct kabi_gone":
            t["file"] = "include/uapi/linux/kabi.h"
    json.dump(s, open("%s/%s.json" % (sys.argv[2], side), "w"))' "$D" "$TMP"
OLD=$TMP/old.json NEW=$TMP/new.json
cat >"$TMP/MAINTAINERS" <<'M'
KABI FS
M:	Fay Fs <fay@example.org>
L:	kabi-fs@lists.example.org
S:	Maintained
F:	fs/kabi.c

KABI UAPI
L:	kabi-uapi@lists.example.org
S:	Maintained
F:	include/uapi/linux/kabi.h

KABI DOCS
L:	kabi-docs@lists.example.org
S:	Maintained
F:	Documentation/ABI/stable/sysfs-kabi

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
M

# text: an entry's Contact: and Users: once above its findings
run_kabidiff diff --color=never --verdict note "$OLD" "$NEW"
is "$status" 1 "text: exit 1"
is "$(printf '%s\n' "$out" | grep -c '^  doc:  ')" 5 \
   "text: a doc line per verdict, level and entry (break: 2 entries, warn: 1, note: 2)"
is "$(printf '%s\n' "$out" | grep -c '^  contact: ')" 5 "text: the contact once per entry, not per finding (31)"
is "$(printf '%s\n' "$out" | grep -c '^    [a-z]')" 31 "text: the 31 findings under them"
is "$(printf '%s\n' "$out" | grep -A3 '^  doc:     Documentation/ABI/stable/syscalls#1' | grep '^  notify:' | sort -u)" \
   "  notify:  kabidiff developers <kabidiff@example.org>, linux-api@vger.kernel.org" \
   "text: syscalls and types also go to linux-api@"
is "$(printf '%s\n' "$out" | grep -A3 '^  doc:     Documentation/ABI/stable/sysfs-kabi#1' | grep -c '^  notify:')" 0 \
   "text: sysfs findings: the contact alone, no notify line"

# --notify: the findings that count, by recipient
run_kabidiff diff --notify "$OLD" "$NEW"
is "$status:$(printf '%s\n' "$out" | sed -n 2p)" \
   "1:To: kabidiff developers <kabidiff@example.org>, linux-api@vger.kernel.org" \
   "--notify: exit 1, a To: line of every recipient"
is "$(printf '%s\n' "$out" | awk '/^[^ ]/ { who = $0 } /^  (break|warn|note) / { n[who]++ } END { for (w in n) print n[w], w }' | sort -n)" \
   "14 linux-api@vger.kernel.org
21 kabidiff developers <kabidiff@example.org>" \
   "--notify: break and warn only (20 + 1 of the contact; linux-api@ the 14 syscall and type breaks)"
is "$(printf '%s\n' "$out" | grep -A1 '^linux-api@' | tail -1)" \
   "  why: the kernel's API list: syscall, type and vDSO changes" "--notify: each recipient says why"
run_kabidiff diff --notify --verdict note "$OLD" "$NEW"
is "$(printf '%s\n' "$out" | grep -c '^  note ')" 17 "--notify --verdict note: the notes too (10 of the contact, 7 of linux-api@)"

# --maintainers: the lists owning the declaring files and the doc file;
# THE REST (linux-kernel@) is no one in particular
run_kabidiff diff --notify --maintainers "$TMP/MAINTAINERS" "$OLD" "$NEW"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
   "To: kabidiff developers <kabidiff@example.org>, linux-api@vger.kernel.org, kabi-fs@lists.example.org, kabi-uapi@lists.example.org, kabi-docs@lists.example.org" \
   "--maintainers: the subsystems' lists join, linux-kernel@ does not"
is "$(printf '%s\n' "$out" | grep -A2 '^kabi-fs@')" "kabi-fs@lists.example.org
  why: MAINTAINERS: fs/kabi.c
  break  syscall-removed  x86_64/kabi_gone" "--maintainers: the syscall to its file's list"
is "$(printf '%s\n' "$out" | grep -A1 '^kabi-docs@')" "kabi-docs@lists.example.org
  why: MAINTAINERS: Documentation/ABI/stable/sysfs-kabi" "--maintainers: sysfs findings to the doc file's list"

# N: lines are Perl's regexes, searched within limits: "a{1,32767}" is one
# like any other (regcomp() took 40 s and 8 GB for it), one that backtracks
# for ever gives up with a warning and is left out, a bad one is reported;
# each a warning naming the line, and the diff goes on (under timeout 60,
# so that a hang fails)
{ cat "$TMP/MAINTAINERS"; cat <<'M'
KABI ANY A
L:	kabi-a@lists.example.org
N:	a{1,32767}

KABI BACKTRACK
L:	kabi-backtrack@lists.example.org
N:	(.*)*\1\d

KABI BAD
L:	kabi-bad@lists.example.org
N:	kabi(
M
} >"$TMP/MAINTAINERS.n"
plain=$KABIDIFF
for KABIDIFF in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$KABIDIFF" && continue
	name=${KABIDIFF#"$TOP"/}
	timeout 60 "$KABIDIFF" diff --notify --maintainers "$TMP/MAINTAINERS.n" "$OLD" "$NEW" \
		>"$TMP/out" 2>"$TMP/err"
	status=$?
	is "$status:$(sed -n 2p "$TMP/out")" \
	   "1:To: kabidiff developers <kabidiff@example.org>, linux-api@vger.kernel.org, kabi-a@lists.example.org, kabi-fs@lists.example.org, kabi-uapi@lists.example.org, kabi-docs@lists.example.org" \
	   "N: a{1,32767} matches as Perl's does, exit 1 ($name)"
	is "$(cat "$TMP/err")" \
	   "kabidiff: warning: $TMP/MAINTAINERS.n:33: N: 'kabi(' is not a regular expression (missing closing parenthesis at offset 5): ignored
kabidiff: warning: $TMP/MAINTAINERS.n:29: N: '(.*)*\\1\\d' gave up on 'Documentation/ABI/stable/syscalls' (match limit exceeded): ignored from here on" \
	   "N: a bad regex and one that backtracks for ever: a warning each, naming the line ($name)"
done
KABIDIFF=$plain

# JSON: each finding's declaring file and recipients
run_kabidiff diff --format json --maintainers "$TMP/MAINTAINERS" "$OLD" "$NEW"
printf '%s\n' "$out" >"$TMP/notify.report.json"
is "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["subject"] in ("x86_64/kabi_gone", "/sys/kabi/gone"):
        print(f["subject"], f["declared_in"], [n["address"] for n in f["notify"]])' "$TMP/notify.report.json")" \
   "x86_64/kabi_gone fs/kabi.c ['kabidiff developers <kabidiff@example.org>', 'linux-api@vger.kernel.org', 'kabi-fs@lists.example.org']
/sys/kabi/gone None ['kabidiff developers <kabidiff@example.org>', 'kabi-docs@lists.example.org']" \
   "JSON: declared_in and notify on each finding"
if $PYTHON -c 'import jsonschema' 2>/dev/null; then
	$PYTHON "$TOP/tests/cli/schema.py" "$TOP/docs/report.schema.json" "$TMP/notify.report.json" >"$TMP/schema"
	is "$?" 0 "JSON: validates against docs/report.schema.json"
else
	pass "# SKIP $PYTHON has no jsonschema module ('make deps' installs python3-jsonschema)"
fi

# Markdown: the entries once with their Contact: and Users:, then whom to tell
run_kabidiff diff --format markdown "$OLD" "$NEW"
is "$(printf '%s\n' "$out" | sed -n '/^### Documentation entries/,$p')" "### Documentation entries

| entry | findings | contact | users |
|---|---:|---|---|
| stable/syscalls#1 | 21 | kabidiff developers \\<kabidiff@example.org\\> | the kabidiff test suite |
| stable/sysfs-kabi#1 | 10 | kabidiff developers \\<kabidiff@example.org\\> | the kabidiff test suite |

### Whom to notify

| recipient | findings | why |
|---|---:|---|
| kabidiff developers \\<kabidiff@example.org\\> | 31 | Contact: of stable/syscalls#1; Contact: of stable/sysfs-kabi#1 |
| linux-api@vger.kernel.org | 21 | the kernel's API list: syscall, type and vDSO changes |" \
   "Markdown: an entries table and a recipients table after the findings"

# what does not go together, and a MAINTAINERS that is not there
run_kabidiff diff --notify --format markdown "$OLD" "$NEW"
is "$status:$out:$err" "2::kabidiff: --notify prints whom to tell as text: not with --stat, --format or --json" \
   "--notify --format markdown: exit 2, said why"
run_kabidiff diff --maintainers "$TMP/nowhere" "$OLD" "$NEW"
is "$status:$err" "2:kabidiff: $TMP/nowhere: No such file or directory" \
   "--maintainers of a missing file: exit 2, the file named"
run_kabidiff diff --notify "$OLD" "$OLD"
is "$status:$out:$err" "0::" "--notify with nothing changed: silent"

done_testing
