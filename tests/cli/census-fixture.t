#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabidiff diff of the census of the fixture kernel (tests/fixtures/census):
# snapshots collected from its checked-in vmlinux and modules with its
# Documentation/ABI, OLD with modules/old, each NEW with one module's
# version over them; each version one case of abidiff/diff/census.c.
. "$(dirname "$0")/../lib.sh"

CENSUS=$FIXTURES/census

# snapshot VERSION: collect vmlinux, modules/old and modules/VERSION over
# them, with the docs, into $TMP/VERSION.json
snapshot() {
	mkdir "$TMP/$1"
	cp "$CENSUS/vmlinux" "$CENSUS"/modules/old/*.ko "$TMP/$1/"
	[ "$1" = old ] || cp "$CENSUS/modules/$1"/*.ko "$TMP/$1/"
	run_kabidiff collect --census "$TMP/$1" --docs "$CENSUS" -o "$TMP/$1.json"
	is "$status" 0 "collect --census --docs of version $1"
}

# judge VERSION: kabidiff diff of OLD and VERSION, into $out and $status
judge() {
	snapshot "$1"
	run_kabidiff diff --color=never "$TMP/old.json" "$TMP/$1.json"
}

snapshot old

# (a) a driver's attribute removed: the census alone sees it (the driver
# binds no device of a guest); it joins its entry in stable by its name
judge removed
is "$status" 1 "an attribute removed: exit 1"
has "$out" "compared: docs, census" "the census part is compared"
has "$out" "== break ==
-- stable --
  doc:     Documentation/ABI/stable/sysfs-driver-fix-drv#1
  contact: Fixture Maintainer <fixture@example.org>
    attribute-removed  fix_drv: calibrate
      device 0644 (drivers/misc/fix-drv.c dev_attr_calibrate) -> (absent)" \
	"a break at the level of the entry it joins"
has "$out" "1 break, 0 warn, 0 note, 0 waived" "and nothing else"

# (b) an attribute loses its write bit
judge readonly
is "$status" 1 "a write bit lost: exit 1"
has "$out" "== break ==
-- testing --
  doc:     Documentation/ABI/testing/sysfs-driver-fix-drv#1
  contact: Fixture Maintainer <fixture@example.org>
    attribute-mode-lost  fix_drv: threshold
      0644 -> 0444" "a break at testing, old and new modes"
has "$out" "1 break, 0 warn, 0 note, 0 waived" "one change"

# (c) the mode of an attribute of an is_visible group is decided at run
# time: its default changing is no change
judge visible
is "$status" 0 "a mode is_visible decides changed: exit 0"
is "$out" "" "a mode is_visible decides changed: no change to report"

# (d) SENSOR_DEVICE_ATTR tables converted to a hwmon_chip_info of the same
# names: no attribute removed, and no mode compared with the core's
judge info
is "$status" 0 "converted to hwmon_device_register_with_info(): exit 0"
is "$out" "" "converted to hwmon_device_register_with_info(): no change"

# (e) the same conversion without channel temp2: its one attribute removed
judge dropped
is "$status" 1 "converted without a channel: exit 1"
has "$out" "== break ==
-- testing --
  doc:     Documentation/ABI/testing/sysfs-class-hwmon#4
    attribute-removed  fixtemp: temp2_input
      sensor 0444 (drivers/hwmon/fixtemp.c sda_temp_input[1]) -> (absent)" \
	"the channel's attribute removed, joined to the hwmon entry"
is "$(printf '%s\n' "$out" | grep -c 'attribute-removed')" 1 \
	"that attribute only"
has "$out" "1 break, 0 warn, 0 note, 0 waived" "one change"

done_testing
