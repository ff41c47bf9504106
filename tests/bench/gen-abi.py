#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a Documentation/ABI of N entries whose What: patterns all stay alive
below /sys/devices/platform: gen-abi.py N DIR [spelt|compiled]

Entry I documents /sys/devices/FIRST/.../wakeup: a wildcard first component
that takes "platform", then "...", then a name that the trees of
gen-sysfs.py hold once per device.  So every pattern matches every directory
below /sys/devices/platform, and a matcher that keeps one state per pattern
pays N at each of them.  FIRST is "<vI>", spelt differently by each entry
(spelt, the default), or two character classes and a '*', "[a-p][l-z]*",
that compile differently for each entry (compiled, for N up to 31,680).
The entries go to DIR/testing/sysfs-bench-globstar; DIR is what --docs
takes.  The same arguments always give the same files.
"""
import os
import sys


def first(shape, i):
    if shape == "spelt":
        return "<v%d>" % i
    # classes holding 'p' and 'l': 16 * 11 first ones, 12 * 15 second ones
    j = i // 176
    return "[%c-%c][%c-%c]*" % (ord("a") + i % 16, ord("p") + i // 16 % 11,
                                ord("a") + j % 12, ord("l") + j // 12 % 15)


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["spelt"],
                                                            ["compiled"]):
        sys.exit("usage: gen-abi.py N DIR [spelt|compiled]")
    n = int(sys.argv[1])
    shape = sys.argv[3] if len(sys.argv) == 4 else "spelt"
    if shape == "compiled" and n > 176 * 180:
        sys.exit("gen-abi.py: at most 31680 compiled patterns")
    level = os.path.join(sys.argv[2], "testing")
    os.makedirs(level, exist_ok=True)
    with open(os.path.join(level, "sysfs-bench-globstar"), "w") as out:
        for i in range(n):
            out.write("What:\t\t/sys/devices/%s/.../wakeup\n"
                      "Date:\t\tJanuary 2025\n"
                      "Contact:\tkabidiff developers\n"
                      "Description:\tEntry %d of the matcher bench.\n\n"
                      % (first(shape, i), i))


if __name__ == "__main__":
    main()
