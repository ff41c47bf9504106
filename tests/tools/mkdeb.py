#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Test inputs for collect --deb that dpkg-deb would not build.

  mkdeb.py deb OUT PACKAGE VERSION ARCH MEMBER...
      a Debian package (ar: debian-binary, control.tar.xz, data.tar.xz)
      whose control fields are taken as given and whose data archive holds
      the MEMBERs in order, each one of
        f:NAME:MODE:FILE     a regular file with FILE's content
        z:NAME:MODE:SIZE     a regular file of SIZE zero bytes
        d:NAME:MODE          a directory
        l:NAME:TARGET        a symbolic link
        h:NAME:TARGET        a hard link to the member TARGET
        c:NAME:MAJOR,MINOR   a character device (b: a block device)
        p:NAME               a FIFO
      NAME as it is stored (add "./" for dpkg-deb's form); MODE in octal.
"""
import io
import sys
import tarfile


class Zeros(io.RawIOBase):
    """SIZE zero bytes, read in pieces: a large member without its memory."""

    def __init__(self, size):
        self.left = size

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


def member(tar, spec):
    kind, rest = spec.split(":", 1)
    info = tarfile.TarInfo()
    info.mtime = 0
    info.uname = info.gname = "root"
    data = None
    if kind in "fz":
        info.name, mode, arg = rest.split(":", 2)
        info.mode = int(mode, 8)
        if kind == "f":
            content = open(arg, "rb").read()
            info.size, data = len(content), io.BytesIO(content)
        else:
            info.size, data = int(arg), Zeros(int(arg))
    elif kind == "d":
        info.name, mode = rest.split(":", 1)
        info.type, info.mode = tarfile.DIRTYPE, int(mode, 8)
    elif kind in "lh":
        info.name, info.linkname = rest.split(":", 1)
        info.type = tarfile.SYMTYPE if kind == "l" else tarfile.LNKTYPE
        info.mode = 0o777 if kind == "l" else 0o644
    elif kind in "cb":
        info.name, dev = rest.split(":", 1)
        info.type = tarfile.CHRTYPE if kind == "c" else tarfile.BLKTYPE
        info.devmajor, info.devminor = (int(n) for n in dev.split(","))
        info.mode = 0o666
    elif kind == "p":
        info.name, info.type, info.mode = rest, tarfile.FIFOTYPE, 0o644
    else:
        sys.exit("mkdeb.py: no member kind '%s'" % kind)
    tar.addfile(info, data)


def tar_xz(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz", format=tarfile.GNU_FORMAT) as tar:
        for spec in members:
            if isinstance(spec, tuple):     # (name, bytes)
                info = tarfile.TarInfo(spec[0])
                info.size, info.mode = len(spec[1]), 0o644
                tar.addfile(info, io.BytesIO(spec[1]))
            else:
                member(tar, spec)
    return buf.getvalue()


def ar_member(name, data):
    head = b"%-16s%-12d%-6d%-6d%-8o%-10d`\n" % (name.encode(), 0, 0, 0, 0o100644,
                                               len(data))
    return head + data + (b"\n" if len(data) % 2 else b"")


def deb(out, package, version, arch, members):
    control = ("Package: %s\nVersion: %s\nArchitecture: %s\n"
               "Maintainer: t <t@example.org>\nDescription: test\n"
               % (package, version, arch)).encode()
    with open(out, "wb") as f:
        f.write(b"!<arch>\n")
        f.write(ar_member("debian-binary", b"2.0\n"))
        f.write(ar_member("control.tar.xz", tar_xz([("./control", control)])))
        f.write(ar_member("data.tar.xz", tar_xz(members)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["deb"] and len(sys.argv) >= 6:
        deb(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    else:
        sys.exit(__doc__)
