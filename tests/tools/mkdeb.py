#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Test inputs for collect --deb that dpkg-deb would not build.

  mkdeb.py deb [--blocks SIZE] OUT PACKAGE VERSION ARCH MEMBER...
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
        pad:SIZE             no member: SIZE zero bytes after the tar's end
      NAME as it is stored (add "./" for dpkg-deb's form); MODE in octal.
      With --blocks, xz(1) compresses the data archive in blocks of SIZE
      bytes, each with its sizes in its header, as dpkg-deb's
      multi-threaded xz does; without, Python's lzma in one block.

  mkdeb.py cut IN OUT MEMBER SIZE
      the package IN with its member MEMBER cut to its first SIZE bytes
      (a negative SIZE: less its last -SIZE bytes), the ar header saying
      so: a member truncated, the archive around it whole.
"""
import io
import lzma
import subprocess
import sys
import tarfile
import tempfile


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


def tar_xz(members, blocks=0):
    """The MEMBERs as a tar, xz-compressed: in blocks of BLOCKS bytes by xz(1)."""
    buf = tempfile.TemporaryFile()
    xz = None
    if blocks:
        xz = subprocess.Popen(["xz", "-T2", "--block-size=%d" % blocks, "-c"],
                              stdin=subprocess.PIPE, stdout=buf)
        out = xz.stdin
    else:
        out = lzma.LZMAFile(buf, "w")
    pad = 0
    with tarfile.open(fileobj=out, mode="w|", format=tarfile.GNU_FORMAT) as tar:
        for spec in members:
            if isinstance(spec, tuple):     # (name, bytes)
                info = tarfile.TarInfo(spec[0])
                info.size, info.mode = len(spec[1]), 0o644
                tar.addfile(info, io.BytesIO(spec[1]))
            elif spec.startswith("pad:"):
                pad += int(spec[4:])
            else:
                member(tar, spec)
    for left in range(pad, 0, -(1 << 20)):
        out.write(bytes(min(left, 1 << 20)))
    out.close()
    if xz and xz.wait():
        sys.exit("mkdeb.py: xz failed")
    buf.seek(0)
    return buf.read()


def ar_member(name, data):
    head = b"%-16s%-12d%-6d%-6d%-8o%-10d`\n" % (name.encode(), 0, 0, 0, 0o100644,
                                               len(data))
    return head + data + (b"\n" if len(data) % 2 else b"")


def deb(out, package, version, arch, members, blocks=0):
    control = ("Package: %s\nVersion: %s\nArchitecture: %s\n"
               "Maintainer: t <t@example.org>\nDescription: test\n"
               % (package, version, arch)).encode()
    with open(out, "wb") as f:
        f.write(b"!<arch>\n")
        f.write(ar_member("debian-binary", b"2.0\n"))
        f.write(ar_member("control.tar.xz", tar_xz([("./control", control)])))
        f.write(ar_member("data.tar.xz", tar_xz(members, blocks)))


def ar_members(data):
    """The (name, data) members of the ar archive DATA, in order."""
    if not data.startswith(b"!<arch>\n"):
        sys.exit("mkdeb.py: not an ar archive")
    pos, members = 8, []
    while pos < len(data):
        head = data[pos:pos + 60]
        size = int(head[48:58])
        members.append((head[:16].decode().rstrip(), data[pos + 60:pos + 60 + size]))
        pos += 60 + size + size % 2
    return members


def cut(src, out, name, size):
    members = ar_members(open(src, "rb").read())
    if name not in (m[0] for m in members):
        sys.exit("mkdeb.py: %s has no member %s" % (src, name))
    with open(out, "wb") as f:
        f.write(b"!<arch>\n")
        for member, data in members:
            f.write(ar_member(member, data[:size] if member == name else data))


if __name__ == "__main__":
    args = sys.argv[1:]
    blocks = 0
    if args[:2] == ["deb", "--blocks"] and len(args) >= 3:
        blocks = int(args[2])
        del args[1:3]
    if args[:1] == ["deb"] and len(args) >= 5:
        deb(args[1], args[2], args[3], args[4], args[5:], blocks)
    elif args[:1] == ["cut"] and len(args) == 5:
        cut(args[1], args[2], args[3], int(args[4]))
    else:
        sys.exit(__doc__)
