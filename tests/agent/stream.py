#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Decode and verify a kabi-agent stream (docs/agent-stream.md).

    stream.py verify FILE      check it; print "ok: N nodes, crc 0xCCCCCCCC"
    stream.py dump FILE        check it, then print it one line per frame
    stream.py flip-all FILE    change each byte in turn; count the rejections
    stream.py cut-all FILE     cut the stream at each length; count them too
    stream.py unhex FILE       turn a hex dump like docs/agent-stream.md's back
                               into bytes, on stdout

A stream that does not verify is one line on stderr, "FILE: byte N: what",
and exit status 2.  This is an independent reading of the specification:
it shares no code with the agent (the checksum is Python's zlib.crc32), so
the tests check the format, not just that the C agrees with itself.

dump prints the header, one line per node and the trailer:

    header version=1 flags=host cap=4096 timeout_ms=1000 agent=0.1 ...
    KIND MODE PATH [-> TARGET] [STATUS [LENGTH] [VALUE]]
    trailer nodes=N crc=0xCCCCCCCC

KIND is dir, file, link or other; MODE four octal digits; STATUS one of
data, truncated, open-error, read-error, timeout (none is not printed).
Bytes outside printable ASCII, the space and the backslash are written as
\\xHH, so a line splits on spaces.  A value longer than 64 bytes is shown
as its first 32 bytes and "...".
"""

import struct
import sys
import zlib

MAGIC = b"\x89KABI\r\n\n"
VERSION = 1
MAX_PAYLOAD = 65536
VALUE_CAP = 4096
KINDS = ["dir", "file", "link", "other"]
STATUSES = ["none", "data", "truncated", "open-error", "read-error",
            "timeout"]
FLAGS = {1: "host"}


class StreamError(Exception):
    def __init__(self, offset, message):
        super().__init__(f"byte {offset}: {message}")


class Payload:
    """Reads the fields of one frame's payload, which must use it all."""

    def __init__(self, data, start, what):
        self.data, self.pos, self.start, self.what = data, 0, start, what

    def take(self, n):
        if self.pos + n > len(self.data):
            raise StreamError(self.start, f"{self.what}: its fields run "
                              "past its length")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def str(self):
        return self.take(self.u("H"))

    def end(self):
        if self.pos != len(self.data):
            raise StreamError(self.start, f"{self.what}: {len(self.data) - self.pos} "
                              "bytes left over after its fields")


def frames(data):
    """Yield (offset, type, payload) for each frame after the magic."""
    pos = len(MAGIC)
    while pos < len(data):
        if pos + 5 > len(data):
            raise StreamError(pos, "truncated inside a frame's head")
        ftype, length = struct.unpack_from("<BI", data, pos)
        if length > MAX_PAYLOAD:
            raise StreamError(pos, f"frame length {length} is over "
                              f"{MAX_PAYLOAD}: corrupt")
        if pos + 5 + length > len(data):
            raise StreamError(pos, f"truncated: the frame needs {length} "
                              f"bytes, {len(data) - pos - 5} remain")
        yield pos, ftype, data[pos + 5:pos + 5 + length]
        pos += 5 + length


def parse_header(off, payload):
    p = Payload(payload, off, "header")
    h = {"version": p.u("H"), "flags": p.u("H"), "cap": p.u("I"),
         "timeout_ms": p.u("I")}
    if h["version"] != VERSION:
        raise StreamError(off, f"format version {h['version']}, "
                          f"this reader knows {VERSION}")
    if h["cap"] != VALUE_CAP:
        raise StreamError(off, f"value cap {h['cap']}, expected {VALUE_CAP}")
    for name in ("agent", "release", "kversion", "machine"):
        h[name] = p.str()
    p.end()
    return h


def parse_node(off, payload, n, prev):
    p = Payload(payload, off, f"node {n}")
    kind, status, mode, same = p.u("B"), p.u("B"), p.u("H"), p.u("H")
    rest, target, value = p.str(), p.str(), p.str()
    p.end()
    where = f"node {n}"
    if same > len(prev):
        raise StreamError(off, f"{where}: shares {same} bytes with a "
                          f"previous path of {len(prev)}")
    path = prev[:same] + rest
    if kind >= len(KINDS):
        raise StreamError(off, f"{where}: unknown kind {kind}")
    if status >= len(STATUSES):
        raise StreamError(off, f"{where}: unknown value status {status}")
    if mode & ~0o7777:
        raise StreamError(off, f"{where}: mode {mode:#o} is more than "
                          "permission bits")
    if not path.startswith(b"/") or b"\0" in path or b"//" in path or \
       (len(path) > 1 and path.endswith(b"/")):
        raise StreamError(off, f"{where}: path {path!r} is not a clean "
                          "absolute path")
    if target and KINDS[kind] != "link":
        raise StreamError(off, f"{where}: a {KINDS[kind]} with a target")
    st = STATUSES[status]
    if st in ("none", "timeout") and value:
        raise StreamError(off, f"{where}: {st} with a value")
    if st == "truncated" and len(value) != VALUE_CAP:
        raise StreamError(off, f"{where}: truncated at {len(value)} bytes, "
                          f"not {VALUE_CAP}")
    if st == "data" and len(value) > VALUE_CAP:
        raise StreamError(off, f"{where}: a value over the cap")
    if st.endswith("-error") and not (value and value.isascii() and
                                      value.isalnum()):
        raise StreamError(off, f"{where}: {st} without an errno name")
    if KINDS[kind] in ("dir", "link") and st != "none":
        raise StreamError(off, f"{where}: a {KINDS[kind]} with a value")
    return {"kind": KINDS[kind], "mode": mode, "path": path,
            "target": target, "status": st, "value": value}


def parse(data):
    """Return (header, nodes, trailer) or raise StreamError."""
    if len(data) < len(MAGIC):
        raise StreamError(len(data), "truncated inside the magic")
    if data[:len(MAGIC)] != MAGIC:
        raise StreamError(0, "not a kabi-agent stream (bad magic)")
    header, nodes, trailer = None, [], None
    for off, ftype, payload in frames(data):
        if trailer is not None:
            raise StreamError(off, "a frame after the trailer")
        if ftype == ord("H"):
            if header is not None or nodes:
                raise StreamError(off, "a header that is not first")
            header = parse_header(off, payload)
            continue
        if header is None:
            raise StreamError(off, "the first frame is not the header")
        if ftype == ord("N"):
            prev = nodes[-1]["path"] if nodes else b""
            nodes.append(parse_node(off, payload, len(nodes), prev))
        elif ftype == ord("T"):
            if len(payload) != 12:
                raise StreamError(off, f"trailer of {len(payload)} bytes, "
                                  "not 12")
            count, crc = struct.unpack("<QI", payload)
            mine = zlib.crc32(data[:off + 5 + 8])
            if crc != mine:
                raise StreamError(off, f"checksum mismatch: the trailer "
                                  f"says {crc:#010x}, the bytes give "
                                  f"{mine:#010x}")
            if count != len(nodes):
                raise StreamError(off, f"the trailer counts {count} nodes, "
                                  f"the stream holds {len(nodes)}")
            trailer = {"nodes": count, "crc": crc}
        else:
            raise StreamError(off, f"unknown frame type {ftype:#04x}")
    if header is None:
        raise StreamError(len(data), "truncated: no header")
    if trailer is None:
        raise StreamError(len(data), f"no trailer: the stream ends after "
                          f"{len(nodes)} nodes")
    return header, nodes, trailer


def esc(b):
    out = []
    for c in b:
        if c == 0x5c:
            out.append("\\\\")
        elif 0x21 <= c <= 0x7e:
            out.append(chr(c))
        else:
            out.append(f"\\x{c:02x}")
    return "".join(out)


def show_value(v):
    if len(v) > 64:
        return esc(v[:32]) + "..."
    return esc(v)


def dump(header, nodes, trailer):
    flags = ",".join(name for bit, name in FLAGS.items()
                     if header["flags"] & bit) or "0"
    print(f"header version={header['version']} flags={flags} "
          f"cap={header['cap']} timeout_ms={header['timeout_ms']} "
          f"agent={esc(header['agent'])} release={esc(header['release'])} "
          f"machine={esc(header['machine'])}")
    for n in nodes:
        line = f"{n['kind']} {n['mode']:04o} {esc(n['path'])}"
        if n["kind"] == "link":
            line += f" -> {esc(n['target'])}"
        st = n["status"]
        if st in ("data", "truncated"):
            line += f" {st} {len(n['value'])} {show_value(n['value'])}"
        elif st.endswith("-error"):
            line += f" {st} {n['value'].decode()}"
        elif st == "timeout":
            line += " timeout"
        print(line.rstrip())
    print(f"trailer nodes={trailer['nodes']} crc={trailer['crc']:#010x}")


def rejects(data):
    try:
        parse(data)
    except StreamError:
        return True
    return False


def unhex(text):
    """The bytes of a dump: each line's leading two-digit hex words."""
    out = bytearray()
    for line in text.splitlines():
        for word in line.split(" "):
            if len(word) != 2:
                break
            try:
                out.append(int(word, 16))
            except ValueError:
                break
    return bytes(out)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("verify", "dump", "flip-all",
                                         "cut-all", "unhex"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cmd, name = argv[1], argv[2]
    with open(name, "rb") as f:
        data = f.read()
    if cmd == "unhex":
        sys.stdout.buffer.write(unhex(data.decode()))
        return 0
    if cmd == "flip-all":
        bad = [i for i in range(len(data))
               if not rejects(data[:i] + bytes([data[i] ^ 0xff]) +
                              data[i + 1:])]
        print(f"rejected {len(data) - len(bad)} of {len(data)} byte flips")
        for i in bad[:10]:
            print(f"accepted a flip at byte {i}")
        return 0
    if cmd == "cut-all":
        bad = [i for i in range(len(data)) if not rejects(data[:i])]
        print(f"rejected {len(data) - len(bad)} of {len(data)} cuts")
        for i in bad[:10]:
            print(f"accepted a cut at byte {i}")
        return 0
    try:
        header, nodes, trailer = parse(data)
    except StreamError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    if cmd == "verify":
        print(f"ok: {trailer['nodes']} nodes, crc {trailer['crc']:#010x}")
    else:
        dump(header, nodes, trailer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
