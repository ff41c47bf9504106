#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a Documentation/ABI of N entries whose What: patterns all stay alive
below /sys/devices: gen-abi.py N DIR

Entry I documents /sys/devices/<vI>/.../wakeup: a wildcard first component,
spelt differently by each entry, then "...", then a name that the trees of
gen-sysfs.py hold once per device.  So every pattern matches every directory
below /sys/devices/platform, and a matcher that keeps one state per pattern
pays N at each of them.  The entries go to DIR/testing/sysfs-bench-globstar;
DIR is what --docs takes.  The same N always gives the same files.
"""
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-abi.py N DIR")
    n = int(sys.argv[1])
    level = os.path.join(sys.argv[2], "testing")
    os.makedirs(level, exist_ok=True)
    with open(os.path.join(level, "sysfs-bench-globstar"), "w") as out:
        for i in range(n):
            out.write("What:\t\t/sys/devices/<v%d>/.../wakeup\n"
                      "Date:\t\tJanuary 2025\n"
                      "Contact:\tkabidiff developers\n"
                      "Description:\tEntry %d of the matcher bench.\n\n"
                      % (i, i))


if __name__ == "__main__":
    main()
