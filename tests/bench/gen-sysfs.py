#!/usr/bin/env python3
"""Write a synthetic sysfs of about NODES nodes in the list format of
tests/sysfs-record.py, for tests/sysfs-materialise.py to build.

Usage: gen-sysfs.py NODES > LIST

The tree has the shape of a real one: devices under /sys/devices with the
attributes real devices have (some documented in Documentation/ABI, some
not), power/ subdirectories, and /sys/class and /sys/bus links to every
device, so matching meets aliases as it does on a real machine.  The same
NODES always gives the same tree.
"""
import sys

CLASSES = ["net", "block", "tty", "input", "hwmon", "leds", "rtc", "thermal"]
ATTRS = ["uevent", "dev", "modalias", "name", "type", "flags", "address",
         "mtu", "size", "ro", "removable", "vendor", "device", "subsystem_id",
         "undocumented_knob", "another_private_thing"]


def main():
    want = int(sys.argv[1])
    out = [("d", "0555", "/sys", None), ("d", "0755", "/sys/devices", None),
           ("d", "0755", "/sys/devices/platform", None),
           ("d", "0755", "/sys/class", None), ("d", "0755", "/sys/bus", None),
           ("d", "0755", "/sys/bus/platform", None),
           ("d", "0755", "/sys/bus/platform/devices", None)]
    out += [("d", "0755", "/sys/class/" + c, None) for c in CLASSES]
    dev = 0
    while len(out) < want:
        cls = CLASSES[dev % len(CLASSES)]
        name = "%s%d" % (cls, dev)
        real = "/sys/devices/platform/dev%d/%s/%s" % (dev, cls, name)
        out += [("d", "0755", "/sys/devices/platform/dev%d" % dev, None),
                ("d", "0755", "/sys/devices/platform/dev%d/%s" % (dev, cls), None),
                ("d", "0755", real, None), ("d", "0755", real + "/power", None),
                ("f", "0644", real + "/power/wakeup", None),
                ("f", "0644", real + "/power/control", None),
                ("l", "0777", "/sys/class/%s/%s" % (cls, name),
                 "../../devices/platform/dev%d/%s/%s" % (dev, cls, name)),
                ("l", "0777", "/sys/bus/platform/devices/dev%d" % dev,
                 "../../../devices/platform/dev%d" % dev),
                ("l", "0777", real + "/subsystem", "../../../../../class/" + cls)]
        out += [("f", "0444", "%s/%s" % (real, a), None) for a in ATTRS]
        dev += 1
    out.sort(key=lambda n: n[2].encode())
    for kind, mode, path, target in out:
        print("\t".join([kind, mode, path] + ([target] if target else [])))


if __name__ == "__main__":
    main()
