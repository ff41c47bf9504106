#!/bin/sh
# docs/snapshot.schema.json agrees with the loader: every snapshot fixture is
# valid, every bad fixture is invalid but for the checks JSON Schema cannot
# express (unique record keys, documented <= sysfs_nodes, a record of an
# ABI syscall_abis does not list, a census attribute of a module the census
# did not read).
. "$(dirname "$0")/../lib.sh"

# Debian's python3 with python3-jsonschema, not whatever python3 is first
PYTHON=${PYTHON:-/usr/bin/python3}
SCHEMA=$TOP/docs/snapshot.schema.json
VALIDATE="$PYTHON $TOP/tests/cli/schema.py $SCHEMA"

$PYTHON -c 'import jsonschema' 2>/dev/null ||
	skip_all "$PYTHON has no jsonschema module ('make deps' installs python3-jsonschema)"

for f in "$FIXTURES"/snapshots/*.json; do
	if $VALIDATE "$f" >"$TMP/out" 2>&1; then
		pass "schema accepts ${f#"$TOP"/}"
	else
		fail "schema accepts ${f#"$TOP"/}" "$(cat "$TMP/out")"
	fi
done

for f in "$FIXTURES"/bad/*.json; do
	name=${f#"$TOP"/}
	case "$name" in
	*/duplicate-path.json|*/coverage-over.json|*/abi-not-listed.json|\
	*/build-date.json|*/census-duplicate.json|*/census-module-not-read.json)
		$VALIDATE "$f" >"$TMP/out" 2>&1 &&
			pass "schema accepts $name (only the loader can tell)" ||
			fail "schema accepts $name (only the loader can tell)" \
			     "$(cat "$TMP/out")"
		;;
	*)
		$VALIDATE "$f" >"$TMP/out" 2>&1 &&
			fail "schema rejects $name" "$(cat "$TMP/out")" ||
			pass "schema rejects $name"
		;;
	esac
done

done_testing
