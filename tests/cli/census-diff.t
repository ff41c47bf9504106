#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabidiff diff of the census part: full.json against copies edited by
# python, each edit one case of the census diff (abidiff/diff/census.c).
. "$(dirname "$0")/../lib.sh"

OLD=$FIXTURES/snapshots/full.json

# edit OLD's census with the python statements $2 (a = the attributes,
# c = the census) into $TMP/$1.json
edited() {
	python3 - "$OLD" "$TMP/$1.json" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["census"]
a = c["attributes"]
exec(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"), indent=1)
PY
}

edited same ''
run_kabidiff diff --color=never "$OLD" "$TMP/same.json"
is "$status" 0 "the same census: exit 0"
is "$out" "" "the same census: no change to report"

# flags joins testing/sysfs-class-net by its path: a break at testing
edited flags 'c["attributes"] = [x for x in a if x["name"] != "flags"]'
run_kabidiff diff --color=never "$OLD" "$TMP/flags.json"
is "$status" 1 "an attribute of a documented path removed: exit 1"
has "$out" "compared: sysfs, syscalls, vdso, types, docs, census" "the census part is compared"
has "$out" "== break ==
-- testing --
  doc:     Documentation/ABI/testing/sysfs-class-net#10" "judged by the entry its path joins"
has "$out" "attribute-removed  /sys/class/net/<iface>/flags" "the removal, by its path"

# a write bit lost is a change; one that is_visible decides is not
edited modes '
for x in a:
    if x["name"] in ("state", "temp1_max"): x["mode"] = "0444"'
run_kabidiff diff --color=never "$OLD" "$TMP/modes.json"
has "$out" "attribute-mode-lost  /sys/power/state
      0644 -> 0444" "a lost write bit"
lacks "$out" "temp1_max" "no mode change where is_visible decides the mode"

# a driver's attribute that vmlinux now makes is not removed
edited moved '
for x in a:
    if x["module"] == "k10temp" and x["name"] == "temp1_max": x["module"] = "vmlinux"'
run_kabidiff diff --color=never "$OLD" "$TMP/moved.json"
lacks "$out" "attribute-removed" "an attribute moved into vmlinux is not removed"

# a module gone is one change, not one per attribute
edited gone '
c["modules"].remove("k10temp")
c["attributes"] = [x for x in a if x["module"] != "k10temp"]'
run_kabidiff diff --color=never "$OLD" "$TMP/gone.json"
is "$(printf '%s\n' "$out" | grep -c 'module-removed  k10temp')" 1 "a module gone: one module-removed"
lacks "$out" "attribute-removed" "and no attribute-removed for its attributes"

# a module built into vmlinux now: its attributes are there, nothing is gone
edited builtin '
c["modules"].remove("k10temp")
for x in a:
    if x["module"] == "k10temp": x["module"] = "vmlinux"'
run_kabidiff diff --color=never "$OLD" "$TMP/builtin.json"
is "$status:$out" "0:" "a module built in now: no change"

# undocumented removals of one module are one warn, named together
edited frob '
c["modules"].append("frobdrv")
for n in ("frob_rate", "frob_level"):
    a.append(dict(module="frobdrv", file="drivers/misc/frob.c", name=n,
                  symbol="dev_attr_" + n, kind="device", mode="0644",
                  type="struct device_attribute",
                  mode_at_run_time=False, grouped=False))'
edited nofrob '
c["modules"].append("frobdrv")'
run_kabidiff diff --color=never "$TMP/frob.json" "$TMP/nofrob.json"
is "$status" 0 "undocumented attributes removed: no break"
has "$out" "== warn ==" "but a warn"
has "$out" "attribute-removed  frobdrv: *
      2 attributes -> (absent)
      2 instances: frob_level, frob_rate" "one warn for the module's attributes, named"

# parameters are their paths: a file of the same name is another
# attribute, and vmlinux's parameters of one name are many
params='
c["modules"].append("frobdrv")
def param(module, folder, name, mode):
    a.append(dict(module=module, file="drivers/misc/%s.c" % folder, name=name,
                  symbol="__param_" + name, kind="param", type="struct kernel_param",
                  mode=mode, mode_at_run_time=False, grouped=False,
                  path="/sys/module/%s/parameters/%s" % (folder, name)))
a.append(dict(module="frobdrv", file="drivers/misc/frob.c", name="direct",
              symbol="direct_attribute", kind="kobj", type="struct kobj_attribute",
              mode="0644", mode_at_run_time=False, grouped=False))
param("vmlinux", "zswap", "enabled", "0644")
param("vmlinux", "frobcore", "enabled", "0600")'
edited params "$params"
edited param-direct "$params
param(\"frobdrv\", \"frobdrv\", \"direct\", \"0444\")"
run_kabidiff diff --color=never "$TMP/params.json" "$TMP/param-direct.json"
is "$status:$out" "0:" "a parameter added beside a file of its name: no mode lost"
edited param-ro "$params
a[-1][\"mode\"] = \"0400\""
run_kabidiff diff --color=never "$TMP/params.json" "$TMP/param-ro.json"
has "$out" "attribute-mode-lost  /sys/module/frobcore/parameters/enabled
      0600 -> 0400" "a parameter's lost write bit, by its path"
lacks "$out" "zswap" "and not the other parameter of its name"
edited param-gone "$params
del a[-1]"
run_kabidiff diff --color=never "$TMP/params.json" "$TMP/param-gone.json"
has "$out" "attribute-removed  /sys/module/frobcore/parameters/*
      1 attribute -> (absent)
      1 instances: enabled" "undocumented parameters removed: named by their folder"

done_testing
