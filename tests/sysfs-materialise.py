#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Rebuild a recorded sysfs tree: sysfs-materialise.py LIST DIR

LIST is the output of sysfs-record.py (gzip-compressed if its name ends in
.gz; - for stdin).  Its first line is the recorded root, a directory whose
PATH is the prefix (/sys); every other node is created at DIR/REL where its
PATH is PREFIX/REL: directories, empty regular files, symlinks with the
recorded target (not resolved, so absolute or dangling targets are kept as
they are), and a FIFO for a node of kind o.  Files and FIFOs get the
recorded mode when created; directories get theirs at the end, deepest
first, so a read-only directory can still be filled (as for /sys itself,
0555: to remove DIR without root, chmod -R u+w it first).  The modes of
symlinks cannot be set and are ignored.

DIR is created if missing; an existing DIR must be an empty directory.
Nothing is ever created outside DIR: paths with empty, "." or ".." parts are
refused, and so is a node whose parent is not a recorded directory.

Exit status: 0 done, 2 bad usage or a bad LIST (reported as LIST:LINE: ...).
"""

import gzip
import os
import re
import sys

ESCAPE = re.compile(rb"\\(\\|x[0-9a-fA-F]{2}|)")


class BadList(Exception):
    pass


def unescape(text):
    """The bytes that sysfs-record.py's escape() wrote as TEXT."""

    def one(match):
        if match.group(1) == b"\\":
            return b"\\"
        if match.group(1):
            return bytes([int(match.group(1)[1:], 16)])
        raise BadList("bad escape in %r" % text)

    return ESCAPE.sub(one, text)


def records(lines):
    """Yield (line number, kind, mode, path, target) for each line."""
    for number, line in enumerate(lines, 1):
        fields = line.rstrip(b"\n").split(b"\t")
        try:
            if len(fields) not in (3, 4):
                raise BadList("expected 3 or 4 tab-separated fields")
            kind = fields[0].decode("ascii", "replace")
            if kind not in ("d", "f", "l", "o"):
                raise BadList("unknown kind %r" % kind)
            if (len(fields) == 4) != (kind == "l"):
                raise BadList("a target is given for links and only for links")
            if not re.fullmatch(rb"[0-7]{4}", fields[1]):
                raise BadList("mode %r is not four octal digits" % fields[1])
            path = unescape(fields[2])
            target = unescape(fields[3]) if kind == "l" else None
            if b"\0" in path or (target is not None and b"\0" in target):
                raise BadList("NUL byte in a name")
        except BadList as e:
            raise BadList("%d: %s" % (number, e)) from None
        yield number, kind, int(fields[1], 8), path, target


def materialise(lines, top):
    """Create the nodes of LINES under the directory TOP (bytes)."""
    dirs = {}  # recorded path -> (where, mode), in creation order
    prefix = None
    for number, kind, mode, path, target in records(lines):
        if prefix is None:
            if kind != "d":
                raise BadList("%d: the first record must be the root directory" % number)
            prefix = path
            dirs[path] = (top, mode)
            continue
        parent, _, name = path.rpartition(b"/")
        if not path.startswith(prefix + b"/") or name in (b"", b".", b".."):
            raise BadList("%d: %r is not a name below %r" % (number, path, prefix))
        if parent not in dirs:
            raise BadList("%d: the parent of %r is not a recorded directory" % (number, path))
        where = os.path.join(dirs[parent][0], name)
        try:
            if kind == "d":
                os.mkdir(where, 0o700)
                dirs[path] = (where, mode)
            elif kind == "f":
                os.close(os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                os.chmod(where, mode)
            elif kind == "o":
                os.mkfifo(where, 0o600)
                os.chmod(where, mode)
            else:
                os.symlink(target, where)
        except OSError as e:
            raise BadList("%d: %s" % (number, e)) from None
    if prefix is None:
        raise BadList("0: empty list")
    for where, mode in reversed(list(dirs.values())):
        os.chmod(where, mode)


def main(argv):
    if len(argv) != 3:
        print("usage: sysfs-materialise.py LIST DIR", file=sys.stderr)
        return 2
    name, top = argv[1], os.fsencode(argv[2])
    if os.path.lexists(top):
        if not os.path.isdir(top) or os.path.islink(top) or os.listdir(top):
            print("sysfs-materialise.py: %s is not an empty directory" % argv[2],
                  file=sys.stderr)
            return 2
    else:
        os.makedirs(top)
    try:
        if name == "-":
            materialise(sys.stdin.buffer, top)
        else:
            with (gzip.open if name.endswith(".gz") else open)(name, "rb") as f:
                materialise(f, top)
    except BadList as e:
        print("sysfs-materialise.py: %s:%s" % (name, e), file=sys.stderr)
        return 2
    except OSError as e:
        print("sysfs-materialise.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
