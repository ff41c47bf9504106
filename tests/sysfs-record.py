#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Record the shape of a sysfs tree: sysfs-record.py ROOT PREFIX > LIST

Walks ROOT (e.g. /sys) without following symlinks and without reading any
file (only readdir, lstat and readlink), and writes one line per node, ROOT
itself first, sorted by the path's bytes:

    KIND <TAB> MODE <TAB> PATH [<TAB> TARGET]

KIND is d (directory), f (regular file), l (symlink) or o (anything else).
MODE is the four octal digits of the permission bits (st_mode & 07777).
PATH is PREFIX for ROOT and PREFIX/REL for a node at REL below ROOT; PREFIX
is absolute without a trailing slash (/sys).  TARGET, for links only, is
what readlink returns.

Names are bytes.  PATH and TARGET are written as UTF-8 where the bytes are
valid UTF-8; a backslash is written as two backslashes, and each control
byte (0x00-0x1f, 0x7f: so tab and newline too) and each byte that is not
part of a valid UTF-8 sequence as a backslash, x and two lower-case hex
digits.  The list is therefore one line per node and splits on tabs.  This
is the snapshot's rule for strings (docs/snapshot-format.md), plus the
control bytes.

The walk stays on ROOT's filesystem, like find -xdev: a directory on which
another filesystem is mounted (debugfs on /sys/kernel/debug, tracefs on
/sys/kernel/tracing, cgroup on /sys/fs/cgroup, bpf, pstore, securityfs,
configfs...) is recorded, as the sysfs directory it is, but not entered.
Those filesystems are not sysfs, not what Documentation/ABI describes for
sysfs, and they are large or unreadable.  The mode recorded for such a
directory is the mounted root's, which is what lstat can see.

A directory that cannot be listed or a node that vanishes during the walk
(sysfs is live) is reported on stderr; the list is still written and the
exit status is 1.  Bad usage exits with 2.
"""

import errno
import os
import stat
import sys

ESCAPES = {c: "\\x%02x" % c for c in list(range(0x20)) + [0x7F]}
ESCAPES[ord("\\")] = "\\\\"


def escape(name):
    """The bytes NAME as one line of text, by the rule in the docstring."""
    out = []
    for ch in name.decode("utf-8", "surrogateescape"):
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not valid UTF-8
            out.append("\\x%02x" % (code - 0xDC00))
        else:
            out.append(ESCAPES.get(code, ch))
    return "".join(out)


def kind_of(mode):
    if stat.S_ISDIR(mode):
        return "d"
    if stat.S_ISREG(mode):
        return "f"
    if stat.S_ISLNK(mode):
        return "l"
    return "o"


def walk(root, prefix, problems):
    """Yield (path, kind, mode, target) for ROOT and every node under it.

    Errors on the way are appended to PROBLEMS and the walk goes on."""
    st = os.stat(root)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", root)
    device = st.st_dev
    yield prefix, "d", stat.S_IMODE(st.st_mode), None
    stack = [(root, prefix)]
    while stack:
        where, name = stack.pop()
        try:
            entries = list(os.scandir(where))
        except OSError as e:
            problems.append(e)
            continue
        for entry in entries:
            path = name + b"/" + entry.name
            try:
                st = entry.stat(follow_symlinks=False)
                kind = kind_of(st.st_mode)
                target = os.readlink(entry.path) if kind == "l" else None
            except OSError as e:
                problems.append(e)
                continue
            yield path, kind, stat.S_IMODE(st.st_mode), target
            if kind == "d" and st.st_dev == device:
                stack.append((entry.path, path))


def main(argv):
    if len(argv) != 3 or not argv[2].startswith("/") or argv[2].endswith("/"):
        print(
            "usage: sysfs-record.py ROOT PREFIX > LIST\n"
            "  PREFIX is absolute, without a trailing slash: /sys",
            file=sys.stderr,
        )
        return 2
    root, prefix = os.fsencode(argv[1]), os.fsencode(argv[2])
    problems = []
    try:
        nodes = sorted(walk(root, prefix, problems), key=lambda node: node[0])
    except OSError as e:
        print("sysfs-record.py: %s" % e, file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    for path, kind, mode, target in nodes:
        line = "%s\t%04o\t%s" % (kind, mode, escape(path))
        if target is not None:
            line += "\t" + escape(target)
        out.write(line.encode("utf-8") + b"\n")
    for e in problems:
        print("sysfs-record.py: %s" % e, file=sys.stderr)
    if problems:
        print("sysfs-record.py: %d errors: the list is incomplete" % len(problems),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
