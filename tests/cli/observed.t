#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The doc entries observed live, by the census, by both and by neither, per
# level (abidiff/match/observed.c), as show and undocumented --level print
# them: full.json and copies of it edited by python.
. "$(dirname "$0")/../lib.sh"

FULL=$FIXTURES/snapshots/full.json
ABI=$FIXTURES/abi

# edit full.json with the python statements $2 (s = the snapshot) into
# $TMP/$1.json
edited() {
	python3 - "$FULL" "$TMP/$1.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
}

# the table show prints, from its title to the total
observed() {
	printf '%s\n' "$out" | sed -n '/^documentation entries observed/,/total$/p'
}

# full.json's tree lacks the directories between /sys/class/net/lo and
# its attributes, so net's entries are the census's only; the private
# entry documents a directory, which is no attribute
run_kabidiff show "$FULL"
is "$status:$(observed)" "0:documentation entries observed by the live tree and the census
 entries  live only  census only     both  neither      %  level
       1          0            0        1        0  100.0  stable
       2          0            2        0        0  100.0  testing
       1          1            0        0        0  100.0  unstable
       1          1            0        0        0  100.0  obsolete
       1          0            0        0        1    0.0  private
       1          1            0        0        0  100.0  removed
       7          3            2        1        1   85.7  total" \
   "show: the entries per level and by whom they are observed"

# an entry for the attribute hwmon names: one more the census observes
edited hwmon 's["docs"].append({"level": "testing", "file": "testing/sysfs-class-hwmon", "line": 1, "what": ["/sys/class/hwmon/hwmonX/tempY_input"]})'
run_kabidiff show "$TMP/hwmon.json"
is "$(observed | sed -n '4p;$p')" "       3          0            3        0        0  100.0  testing
       8          3            3        1        1   87.5  total" \
   "show: an entry only the census observes (k10temp's temp1_input)"

# one left unobserved by both: neither
edited unseen 's["docs"].append({"level": "stable", "file": "stable/sysfs-nothing", "line": 3, "what": ["/sys/kernel/nothing_here"]})'
run_kabidiff show "$TMP/unseen.json"
is "$(observed | sed -n '3p;$p')" "       2          0            0        1        1   50.0  stable
       8          3            2        1        2   75.0  total" \
   "show: an entry neither source observes"

edited nocensus 'del s["census"]'
run_kabidiff show "$TMP/nocensus.json"
is "$(observed | sed -n '1,2p;4p;$p')" "documentation entries observed by the live tree (census not collected)
 entries  live only  census only     both  neither      %  level
       2          0            -        -        2    0.0  testing
       7          4            -        -        3   57.1  total" \
   "show without a census: its columns unknown, not zero"

edited nosysfs 'del s["sysfs"]'
run_kabidiff show "$TMP/nosysfs.json"
is "$(observed | sed -n '1p;3p;$p')" "documentation entries observed by the census (sysfs not collected)
       1          -            1        -        0  100.0  stable
       7          -            3        -        4   42.9  total" \
   "show without sysfs: its columns unknown, not zero"

edited nosource 'del s["sysfs"]; del s["census"]'
run_kabidiff show "$TMP/nosource.json"
is "$(observed)" "documentation entries observed: sysfs and census not collected" \
   "show with docs but neither source says so in one line"

edited nodocs 'del s["docs"]'
run_kabidiff show "$TMP/nodocs.json"
is "$status:$(printf '%s\n' "$out" | grep -c 'entries observed')" "0:0" \
   "show without docs: no entries to observe, no table"

# undocumented --level: the docs of --docs, the census of the snapshot
run_kabidiff undocumented --level --docs "$ABI" "$FULL"
is "$status:$out" "0:testing   /sys/kernel/mm/transparent_hugepage/enabled  Documentation/ABI/testing/sysfs-kernel#1
testing   /sys/kernel/oops_count  Documentation/ABI/testing/sysfs-kernel#6

documentation entries observed by the live tree and the census
 entries  live only  census only     both  neither      %  level
       2          0            1        0        1   50.0  stable
       3          1            0        1        1   66.7  testing
       1          0            0        0        1    0.0  obsolete
       6          1            1        1        3   50.0  total" \
   "undocumented --level: the listing, then the entries observed"

run_kabidiff --json undocumented --level --docs "$ABI" "$FULL"
is "$status:$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["observed"]))')" \
   '0:{"live": true, "census": true, "levels": [{"level": "stable", "entries": 2, "live_only": 0, "census_only": 1, "both": 0, "neither": 1}, {"level": "testing", "entries": 3, "live_only": 1, "census_only": 0, "both": 1, "neither": 1}, {"level": "obsolete", "entries": 1, "live_only": 0, "census_only": 0, "both": 0, "neither": 1}], "total": {"entries": 6, "live_only": 1, "census_only": 1, "both": 1, "neither": 3}}' \
   "undocumented --level --json: observed"

run_kabidiff --json undocumented --level --docs "$ABI" "$TMP/nocensus.json"
is "$status:$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["observed"]["total"]))')" \
   '0:{"entries": 6, "live_only": 2, "census_only": null, "both": null, "neither": 4}' \
   "undocumented --level --json without a census: null, not zero"

run_kabidiff undocumented --docs "$ABI" "$FULL"
lacks "$out" "entries observed" "undocumented without --level: no table of entries"
run_kabidiff --json undocumented --docs "$ABI" "$FULL"
lacks "$out" '"observed"' "undocumented --json without --level: no observed"

done_testing
