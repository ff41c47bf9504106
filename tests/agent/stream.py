#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Decode and verify a kabi-agent stream (docs/agent-stream.md).

    stream.py verify FILE      check it; print "ok: N nodes, crc 0xCCCCCCCC"
    stream.py dump FILE        check it, then print it one line per frame
    stream.py flip-all FILE    change each byte in turn; count the rejections
    stream.py cut-all FILE     cut the stream at each length; count them too
    stream.py unhex FILE       turn a hex dump like docs/agent-stream.md's back
                               into bytes, on stdout
    stream.py bad NAME         write the stream NAME of BAD on stdout: a small
                               stream broken in one way, its checksum correct
                               (NAME "good" is the same stream unbroken)
    stream.py bad-names -      list the names of BAD, one a line
    stream.py mutants FILE     write FILE.flip-N (byte N changed) and FILE.cut-N
                               (the first N bytes) for each N, and print for
                               each "NAME<TAB>the error verify gives"

A stream that does not verify is one line on stderr, "FILE: byte N: what",
and exit status 2; the very words of kabidiff collect --sysfs-stream (but
for its "kabidiff: " in front).  Data without the magic is no stream at all
and has no offset: "FILE: no agent stream (N bytes without the agent's
magic): did the guest start the agent?".  This is an independent reading of the specification:
it shares no code with the agent (the checksum is Python's zlib.crc32), so
the tests check the format, not just that the C agrees with itself.

dump prints the header, one line per node, one per module and the trailer:

    header version=2 flags=host cap=4096 timeout_ms=1000 agent=0.1 ...
    KIND MODE PATH [-> TARGET] [STATUS [LENGTH] [VALUE]]
    module NAME HOW CAUSE error=ERRNO
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
VERSION = 2
VERSION_MIN = 1
MAX_PAYLOAD = 65536
VALUE_CAP = 4096
KINDS = ["dir", "file", "link", "other"]
STATUSES = ["none", "data", "truncated", "open-error", "read-error",
            "timeout"]
LOADS = ["device", "dependency", "request", "boot"]
FLAGS = {1: "host"}
FLAGS_KNOWN = 1


class StreamError(Exception):
    def __init__(self, offset, message):
        super().__init__(f"byte {offset}: {message}")


class NotAStream(StreamError):
    """No magic: not a damaged stream but none at all, so no offset."""

    def __init__(self, size):
        Exception.__init__(self, f"no agent stream ({size} bytes without "
                           "the agent's magic): did the guest start the "
                           "agent?")


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
    if not VERSION_MIN <= h["version"] <= VERSION:
        raise StreamError(off, f"format version {h['version']}, "
                          f"this reader knows {VERSION_MIN} to {VERSION}")
    if h["flags"] & ~FLAGS_KNOWN:
        raise StreamError(off, f"unknown flags 0x{h['flags']:04x}")
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
        raise StreamError(off, f"{where}: mode 0{mode:o} is more than "
                          "permission bits")
    if not path.startswith(b"/") or b"\0" in path or b"//" in path or \
       path.endswith(b"/"):
        raise StreamError(off, f"{where}: path \"{esc(path)}\" is not a "
                          "clean absolute path")
    if target and KINDS[kind] != "link":
        raise StreamError(off, f"{where}: a {KINDS[kind]} with a target")
    if b"\0" in target:
        raise StreamError(off, f"{where}: a target holding a NUL byte")
    st = STATUSES[status]
    if st in ("none", "timeout") and value:
        raise StreamError(off, f"{where}: {st} with a value")
    if st == "truncated" and len(value) != VALUE_CAP:
        raise StreamError(off, f"{where}: truncated at {len(value)} bytes, "
                          f"not {VALUE_CAP}")
    if st == "data" and len(value) > VALUE_CAP:
        raise StreamError(off, f"{where}: data of {len(value)} bytes, over "
                          f"the cap of {VALUE_CAP}")
    if st.endswith("-error") and not (value and value.isascii() and
                                      value.isalnum()):
        raise StreamError(off, f"{where}: {st} without an errno name")
    if KINDS[kind] in ("dir", "link") and st != "none":
        raise StreamError(off, f"{where}: a {KINDS[kind]} with a value")
    return {"kind": KINDS[kind], "mode": mode, "path": path,
            "target": target, "status": st, "value": value}


def parse_module(off, payload, n, version):
    if version < 2:
        raise StreamError(off, f"a module frame in a stream of version "
                          f"{version}")
    p = Payload(payload, off, f"module {n}")
    how, err, name, cause = p.u("B"), p.u("I"), p.str(), p.str()
    p.end()
    if how >= len(LOADS):
        raise StreamError(off, f"module {n}: unknown cause {how}")
    if not name:
        raise StreamError(off, f"module {n}: no name")
    return {"how": LOADS[how], "error": err, "name": name, "cause": cause}


def parse(data):
    """Return (header, nodes, trailer) or raise StreamError; the module
    frames go into the trailer's "modules"."""
    if data[:len(MAGIC)] != MAGIC:
        raise NotAStream(len(data))
    header, nodes, offsets, trailer, modules = None, [], [], None, []
    for off, ftype, payload in frames(data):
        if ftype == ord("H"):
            if header is not None or nodes:
                raise StreamError(off, "a header that is not first")
            header = parse_header(off, payload)
            continue
        if header is None:
            raise StreamError(off, "the first frame is not the header")
        if ftype == ord("N") and modules:
            raise StreamError(off, "a node after the modules")
        if ftype == ord("M"):
            modules.append(parse_module(off, payload, len(modules),
                                        header["version"]))
        elif ftype == ord("N"):
            prev = nodes[-1]["path"] if nodes else b""
            nodes.append(parse_node(off, payload, len(nodes), prev))
            offsets.append(off)
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
            trailer = {"nodes": count, "crc": crc, "modules": modules}
            end = off + 5 + len(payload)
            if end != len(data):
                raise StreamError(end, f"{len(data) - end} bytes after "
                                  "the trailer")
            break
        else:
            raise StreamError(off, f"unknown frame type {ftype:#04x}")
    if header is None:
        raise StreamError(len(data), "truncated: no header")
    if trailer is None:
        raise StreamError(len(data), f"no trailer: the stream ends after "
                          f"{len(nodes)} nodes")
    check_unique(nodes, offsets)
    return header, nodes, trailer


def check_unique(nodes, offsets):
    """No path comes twice: refuse the first node that repeats one."""
    seen = {}
    for i, node in enumerate(nodes):
        path = node["path"]
        if path in seen:
            raise StreamError(offsets[i], f"node {i}: path \"{esc(path)}\" "
                              f"came before, as node {seen[path]}")
        seen[path] = i


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
    for m in trailer["modules"]:
        print(f"module {esc(m['name'])} {m['how']} {esc(m['cause'])} "
              f"error={m['error']}")
    print(f"trailer nodes={trailer['nodes']} crc={trailer['crc']:#010x}")


def frame(ftype, payload):
    return bytes([ord(ftype)]) + struct.pack("<I", len(payload)) + payload


def string(b):
    return struct.pack("<H", len(b)) + b


def header_payload(version=VERSION, flags=1, cap=VALUE_CAP, timeout_ms=1000,
                   agent=b"0.1", release=b"6.1.0-test", kversion=b"#1 SMP",
                   machine=b"x86_64", extra=b""):
    return struct.pack("<HHII", version, flags, cap, timeout_ms) + \
        b"".join(string(x) for x in (agent, release, kversion, machine)) + \
        extra


def node_payload(kind, status, mode, path, target=b"", value=b"", prev=b"",
                 same=None, extra=b""):
    """A node's payload, its path front-coded against prev unless same."""
    if same is None:
        same = 0
        while same < min(len(prev), len(path), 0xffff) and \
                prev[same] == path[same]:
            same += 1
    return struct.pack("<BBHH", kind, status, mode, same) + \
        string(path[same:]) + string(target) + string(value) + extra


# The nodes of the streams of "bad": (kind, value status, mode, path,
# target, value), kind and status as numbers.
GOOD_NODES = [
    (0, 0, 0o555, b"/sys", b"", b""),
    (2, 0, 0o777, b"/sys/class/tty/ttyS0", b"../../devices/tty/ttyS0", b""),
    (1, 1, 0o444, b"/sys/kernel/uevent_seqnum", b"", b"633\n"),
    (1, 2, 0o444, b"/sys/kernel/notes", b"", b"x" * VALUE_CAP),
    (1, 3, 0o200, b"/proc/sys/vm/drop_caches", b"", b"EACCES"),
    (1, 5, 0o644, b"/proc/sys/vm/swappiness", b"", b""),
]


def module_payload(how=0, err=0, name=b"e1000e",
                   cause=b"pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00",
                   extra=b""):
    return struct.pack("<BI", how, err) + string(name) + string(cause) + extra


def write(header=None, nodes=None, payloads=None, count=None, crc=None,
          trailer_extra=b"", after=b"", frames_before=b"", frames_after=b""):
    """A stream, its trailer right unless count or crc say otherwise."""
    nodes = GOOD_NODES if nodes is None else nodes
    if payloads is None:
        payloads, prev = [], b""
        for n in nodes:
            payloads.append(node_payload(*n, prev=prev))
            prev = n[3]
    data = MAGIC + frames_before + \
        frame("H", header_payload() if header is None else header) + \
        b"".join(frame("N", p) for p in payloads) + frames_after
    data += b"T" + struct.pack("<IQ", 12 + len(trailer_extra),
                               len(payloads) if count is None else count)
    data += struct.pack("<I", zlib.crc32(data) if crc is None else crc)
    return data + trailer_extra + after


def one_bad(i, kind=None, status=None, mode=None, path=None, target=None,
            value=None, same=None, extra=b""):
    """GOOD_NODES with node i changed."""
    payloads, prev = [], b""
    for j, n in enumerate(GOOD_NODES):
        if j == i:
            k, st, m, pa, ta, va = n
            n = (k if kind is None else kind, st if status is None else status,
                 m if mode is None else mode, pa if path is None else path,
                 ta if target is None else target,
                 va if value is None else value)
            payloads.append(node_payload(*n, prev=prev, same=same,
                                         extra=extra))
        else:
            payloads.append(node_payload(*n, prev=prev))
        prev = n[3]
    return write(payloads=payloads)


def cut_node(i, by):
    """GOOD_NODES with node i's payload shorter by some bytes."""
    payloads, prev = [], b""
    for j, n in enumerate(GOOD_NODES):
        p = node_payload(*n, prev=prev)
        payloads.append(p[:-by] if j == i else p)
        prev = n[3]
    return write(payloads=payloads)


BAD = {
    "good": lambda: write(),
    "no-header": lambda: write(frames_before=frame("N", node_payload(
        *GOOD_NODES[0]))),
    "two-headers": lambda: write(frames_after=frame("H", header_payload())),
    "unknown-frame": lambda: write(frames_after=frame("X", b"")),
    "long-frame": lambda: write(frames_after=b"N" + struct.pack(
        "<I", MAX_PAYLOAD + 1) + bytes(MAX_PAYLOAD + 1)),
    "version": lambda: write(header=header_payload(version=3)),
    "module-v1": lambda: write(header=header_payload(version=1),
                               frames_after=frame("M", module_payload())),
    "module-short": lambda: write(frames_after=frame(
        "M", module_payload()[:-1])),
    "module-extra": lambda: write(frames_after=frame(
        "M", module_payload(extra=b"\0"))),
    "module-how": lambda: write(frames_after=frame(
        "M", module_payload(how=4))),
    "module-no-name": lambda: write(frames_after=frame(
        "M", module_payload(name=b""))),
    "node-after-module": lambda: write(frames_after=frame(
        "M", module_payload()) + frame("N", node_payload(
            1, 1, 0o444, b"/sys/module/e1000e/refcnt", value=b"0\n",
            prev=GOOD_NODES[-1][3]))),
    "flags": lambda: write(header=header_payload(flags=3)),
    "cap": lambda: write(header=header_payload(cap=1024)),
    "header-short": lambda: write(header=header_payload()[:-1]),
    "header-extra": lambda: write(header=header_payload(extra=b"\0")),
    "node-short": lambda: cut_node(2, 1),
    "node-extra": lambda: one_bad(2, extra=b"\0"),
    "same": lambda: one_bad(0, same=1, path=b"/sys"),
    "same-long": lambda: one_bad(2, same=21),
    "kind": lambda: one_bad(2, kind=4),
    "status": lambda: one_bad(2, status=6),
    "mode": lambda: one_bad(2, mode=0o10444),
    "relative": lambda: one_bad(0, path=b"sys"),
    "empty-path": lambda: one_bad(0, path=b""),
    "root": lambda: one_bad(0, path=b"/"),
    "double-slash": lambda: one_bad(2, path=b"/sys/kernel//uevent_seqnum"),
    "trailing-slash": lambda: one_bad(0, path=b"/sys/"),
    "nul-path": lambda: one_bad(2, path=b"/sys/kernel/uevent\0seqnum"),
    "file-target": lambda: one_bad(2, target=b"x"),
    "dir-target": lambda: one_bad(0, target=b"x"),
    "nul-target": lambda: one_bad(1, target=b"../tty\0S0"),
    "none-value": lambda: one_bad(0, value=b"x"),
    "timeout-value": lambda: one_bad(5, value=b"x"),
    "short-truncated": lambda: one_bad(3, value=b"x" * 100),
    "long-truncated": lambda: one_bad(3, value=b"x" * (VALUE_CAP + 1)),
    "over-cap": lambda: one_bad(2, value=b"x" * (VALUE_CAP + 1)),
    "error-no-name": lambda: one_bad(4, value=b""),
    "error-bad-name": lambda: one_bad(4, value=b"E ACCES"),
    "dir-value": lambda: one_bad(0, status=1, value=b"x"),
    "link-value": lambda: one_bad(1, status=3, value=b"EACCES"),
    "repeated-path": lambda: write(nodes=GOOD_NODES + [GOOD_NODES[2]]),
    "trailer-short": lambda: write()[:-4][:-13] + b"T" + struct.pack(
        "<I", 8) + struct.pack("<Q", len(GOOD_NODES)),
    "trailer-extra": lambda: write(trailer_extra=b"\0"),
    "count": lambda: write(count=len(GOOD_NODES) + 1),
    "crc": lambda: write(crc=0),
    "after": lambda: write(after=b"T"),
    "no-trailer": lambda: write()[:-17],
    "cut": lambda: write()[:-1],
    "cut-head": lambda: write()[:-14],
    "magic": lambda: write()[:7],
    "bad-magic": lambda: write().replace(b"\r\n", b"\n", 1),
}


def rejects(data):
    return error(data) is not None


def error(data):
    """What verify says of data, without "FILE: ", or None if it is good."""
    try:
        parse(data)
    except StreamError as e:
        return str(e)
    return None


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
                                         "cut-all", "unhex", "bad",
                                         "bad-names", "mutants"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cmd, name = argv[1], argv[2]
    if cmd == "bad-names":
        print("\n".join(BAD))
        return 0
    if cmd == "bad":
        if name not in BAD:
            print(f"no bad stream {name}", file=sys.stderr)
            return 2
        sys.stdout.buffer.write(BAD[name]())
        return 0
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
    if cmd == "mutants":
        for i in range(len(data)):
            for kind, d in (("flip", data[:i] + bytes([data[i] ^ 0xff]) +
                             data[i + 1:]), ("cut", data[:i])):
                out = f"{name}.{kind}-{i}"
                with open(out, "wb") as f:
                    f.write(d)
                print(f"{out}\t{out}: {error(d)}")
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
