#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The removal dates that obsolete doc entries announce are judged against
# NEW's build date or --as-of, never against the clock: the same two
# snapshots get the same report and exit status on any day.  --as-of
# decides on both sides of the date, a bad one is a usage error, and NEW
# without a build date is said once and judged as if the date had passed.
. "$(dirname "$0")/../lib.sh"

# OLD has /sys/kabi/gone, obsolete and to be removed in January 2026; NEW,
# built on BUILD_DATE (none if empty), has it no more.
pair() {
	kernel=
	[ -z "$1" ] || kernel="\"build_date\": \"$1\""
	cat >"$TMP/old.json" <<EOF
{"format": "kabidiff-snapshot", "version": 5, "kernel": {},
 "sysfs": [{"path": "/sys", "kind": "dir", "mode": "0755"},
	   {"path": "/sys/kabi", "kind": "dir", "mode": "0755"},
	   {"path": "/sys/kabi/gone", "kind": "file", "mode": "0444",
	    "value": {"shape": "uint"}}],
 "docs": [{"level": "obsolete", "file": "obsolete/sysfs-kabi", "line": 1,
	   "what": ["/sys/kabi/gone"],
	   "description": "Replaced by /sys/kabi/new; it will be removed in January 2026."}]}
EOF
	cat >"$TMP/new.json" <<EOF
{"format": "kabidiff-snapshot", "version": 5, "kernel": {$kernel},
 "sysfs": [{"path": "/sys", "kind": "dir", "mode": "0755"},
	   {"path": "/sys/kabi", "kind": "dir", "mode": "0755"}],
 "docs": []}
EOF
}

# "STATUS VERDICT removal_ahead" of the one finding of diff ARGS... OLD NEW
judge() {
	"$BIN" diff --format json --parts sysfs "$@" "$TMP/old.json" \
		"$TMP/new.json" >"$TMP/out" 2>"$TMP/err"
	status=$?
	verdicts=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
print(" ".join("%s %s" % (x["verdict"], x["removal_ahead"]) for x in f))' \
		"$TMP/out" 2>/dev/null)
	echo "$status $verdicts"
}

UNDATED="kabidiff: warning: $TMP/new.json records no build date: the removal dates that obsolete entries announce are judged as passed (1 removed interface); give the date to judge against with --as-of YYYY-MM-DD"

for BIN in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$BIN" && continue
	tag=
	[ "$BIN" = "$KABIDIFF" ] || tag="asan: "

	pair 2025-12-31
	is "$(judge)" "0 warn True" "${tag}built in December 2025: removed before January 2026, a warn"
	is "$(judge --strict)" "1 break True" "${tag}--strict: a break"
	pair 2026-01-01
	is "$(judge)" "0 note False" "${tag}built in January 2026: on time, a note"
	is "$(cat "$TMP/err")" "" "${tag}nothing said when NEW has a build date"

	# --as-of wins over the build date, both ways
	is "$(judge --as-of 2025-12-31)" "0 warn True" "${tag}--as-of 2025-12-31 over a build date of 2026-01-01: a warn"
	pair 2025-06-01
	is "$(judge --as-of 2026-01-01)" "0 note False" "${tag}--as-of 2026-01-01 over a build date of 2025-06-01: a note"
	is "$(judge --as-of=2026-01-31)" "0 note False" "${tag}--as-of=2026-01-31: still January"

	pair ""
	is "$(judge --as-of 2025-12-31)" "0 warn True" "${tag}no build date, --as-of 2025-12-31: a warn"
	is "$(cat "$TMP/err")" "" "${tag}no build date, --as-of: nothing said"
	is "$(judge)" "0 note False" "${tag}no build date, no --as-of: judged as passed, a note"
	"$BIN" diff --parts sysfs "$TMP/old.json" "$TMP/new.json" >/dev/null \
		2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "0:$UNDATED" \
	   "${tag}no build date, no --as-of: said once, on stderr"

	for bad in 2026-02-29 2026-1-01 2026-01-01T00:00 tomorrow ""; do
		"$BIN" diff --as-of "$bad" "$TMP/old.json" "$TMP/new.json" \
			>"$TMP/out" 2>"$TMP/err"
		is "$?:$(cat "$TMP/out"):$(head -1 "$TMP/err")" \
		   "2::kabidiff: --as-of is a date YYYY-MM-DD that exists, not '$bad'" \
		   "${tag}--as-of '$bad' is a usage error"
	done
	"$BIN" docs diff --as-of soon "$TMP" "$TMP" >/dev/null 2>"$TMP/err"
	is "$?:$(head -1 "$TMP/err")" \
	   "2:kabidiff: --as-of is a date YYYY-MM-DD that exists, not 'soon'" \
	   "${tag}docs diff takes --as-of too"
done

# The clock has no say: the obsolete pair of tests/fixtures/diff, whose
# syscalls may go in June 2099, judged as the calendar reaches 2100.
D=$FIXTURES/diff
if ! command -v faketime >/dev/null 2>&1; then
	echo "# faketime is not installed (Debian package faketime): the clock is not moved"
else
	BIN=$KABIDIFF
	"$BIN" diff --format json "$D/obsolete.old.json" "$D/obsolete.new.json" \
		>"$TMP/now.json" 2>"$TMP/now.err"
	now=$?
	for when in "+365d" "2100-01-01 00:00:00"; do
		faketime -f "$when" "$BIN" diff --format json "$D/obsolete.old.json" \
			"$D/obsolete.new.json" >"$TMP/then.json" 2>"$TMP/then.err"
		is "$?" "$now" "clock at $when: the same exit status"
		cmp -s "$TMP/now.json" "$TMP/then.json" &&
			pass "clock at $when: the same report" ||
			fail "clock at $when: the same report" \
			     "$(diff "$TMP/now.json" "$TMP/then.json" | head -20)"
		is "$(cat "$TMP/then.err")" "$(cat "$TMP/now.err")" \
		   "clock at $when: the same messages"
	done
	faketime -f "2100-01-01 00:00:00" date +%Y >"$TMP/year"
	is "$(cat "$TMP/year")" 2100 "faketime moves the clock of the programs it runs"
fi

done_testing
