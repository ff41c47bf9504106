#!/usr/bin/env python3
"""Explain every difference between kabidiff's and get_abi.pl's undocumented lists.

Usage: getabi-compare.py LIST GETABI_UNDEF OURS_UNDEF OURS_LEVELS REGEXES

LIST          the sysfs fixture (tests/fixtures/sysfs/*.list.gz): kinds, link targets
GETABI_UNDEF  the paths `get_abi.pl undefined` reported ("... not found"), one a line
OURS_UNDEF    the paths `kabidiff undocumented` listed, one a line
OURS_LEVELS   `kabidiff undocumented --level`: "LEVEL PATH  Documentation/ABI/F#L"
REGEXES       what get_abi.pl made of each What: line, "CONV<TAB>REGEX" a line

Prints "ok - ..." for each kind of difference, saying how many paths it
explains, and "not ok - ..." listing every difference no rule explains (the
caller numbers them: tests/lib.sh relay).  The rules are what
get_abi.pl 6.1 is known to do (see its source, lines cited):

- it skips some paths outright (l.550-560 and l.651-663);
- its wildcards all become `.*`, which crosses '/' (l.863-869), so a pattern
  documents paths that have more components than the pattern;
- it drops What: lines that continue a What: on the next line (l.253) and
  loses others in conversion ({a,b,c} keeps a and c, l.860; ".*.*" is deleted,
  l.898), and files a regex under a leaf name with escapes that no path can
  reach (l.680-700).
"""
import gzip
import re
import sys


def unescape(path):
    """The list's escaping back to a str (bytes that are not UTF-8 stay escaped)."""
    return re.sub(r"\\(\\|x[0-9a-f]{2})",
                  lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1)[1:], 16)),
                  path)


def read_list(path):
    kinds, links = {}, {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            node = unescape(fields[2])
            kinds[node] = fields[0]
            if fields[0] == "l":
                links[node] = unescape(fields[3])
    return kinds, links


def resolve(link, target):
    parts = [] if target.startswith("/") else link.split("/")[:-1]
    for part in target.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part not in ("", "."):
            parts.append(part)
    return "/" + "/".join(p for p in parts if p)


def names_of(kinds, links):
    """Each node's names: its path and its aliases through one link to a directory."""
    names = {node: [node] for node in kinds}
    for link, target in links.items():
        real = resolve(link, target)
        if kinds.get(real) != "d":
            continue
        prefix = real + "/"
        for node in kinds:
            if node.startswith(prefix):
                names[node].append(link + node[len(real):])
    return names


SKIPPED = re.compile(r"^/sys/fs/cgroup/|^/sys/firmware/|/sections|notes/|/parameters/"
                     r"|^/sys/kernel/.*(debug|tracing)|^/sys/fs/.*(pstore|bpf|fuse)")


def main(argv):
    kinds, links = read_list(argv[1])
    getabi = set(open(argv[2], encoding="utf-8").read().split("\n")) - {""}
    ours = set(open(argv[3], encoding="utf-8").read().split("\n")) - {""}
    levels = {}
    for line in open(argv[4], encoding="utf-8"):
        fields = line.split()
        if not fields:
            break       # the listing ends; the table of observed entries follows
        levels[fields[1]] = fields[2]
    regexes = []
    for line in open(argv[5], encoding="utf-8"):
        if line.startswith("CONV\t"):
            text = line.rstrip("\n").split("\t", 1)[1]
            try:
                regexes.append((re.compile(text), re.compile(text.replace(".*", "[^/]*"))))
            except re.error:
                pass        # a Perl-only construct: it cannot explain anything
    names = names_of(kinds, links)

    def getabi_matches(node, confined):
        return any(r[confined].fullmatch(n) for r in regexes for n in names[node])

    rules = {
        "get_abi.pl skips the path (its filters, l.550-560, l.651-663)": [],
        "get_abi.pl's '.*' crosses '/': a pattern matches more components": [],
        "no get_abi.pl regex matches: the What: was dropped or mangled (l.253, l.860, l.898)": [],
        "a get_abi.pl regex matches, but under a leaf no path reaches (l.680-700)": [],
    }
    keys = list(rules)
    unexplained = []
    for node in sorted(getabi ^ ours):
        if node in ours:        # we say undocumented, get_abi.pl did not
            if SKIPPED.search(node):
                rules[keys[0]].append(node)
            elif getabi_matches(node, 0) and not getabi_matches(node, 1):
                rules[keys[1]].append(node)
            else:
                unexplained.append(node)
        else:                   # we document it, get_abi.pl did not
            if not getabi_matches(node, 0):
                rules[keys[2]].append(node)
            else:
                rules[keys[3]].append(node)

    print(f"ok - {len(getabi)} undocumented for get_abi.pl, {len(ours)} for us")
    for rule, nodes in rules.items():
        print(f"ok - {len(nodes)} differences: {rule}")
        for node in nodes[:3]:
            print(f"#   e.g. {node} {levels.get(node, '')}")
    if unexplained:
        print(f"not ok - {len(unexplained)} differences nothing explains")
        for node in unexplained:
            print(f"#   {node}")
    else:
        print("ok - every difference is explained")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
