#!/usr/bin/python3
"""Group the flat include/ headers by layer (tools/layers.py): include/NAME.h moves to
include/kernel/, include/mm/ or include/lib/, and every `#include <NAME.h>` in the tree, and
every mention of the path include/NAME.h in docs and build files, follows. The arch's headers
(include/arch/, include/drivers/) and include/lib/ stay where they are.

    tools/regroup-includes.py [--dry-run] [ROOT]

Idempotent: a header already moved is not moved again, and `<mm/pmm.h>` is never rewritten
(only a bare `<pmm.h>` is). Run from a clean git checkout: moves go through `git mv`."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402

TEXT_SUFFIXES = (".c", ".h", ".S", ".ld", ".lds", ".md", ".txt", ".cmake", ".py", ".sh", ".mk",
                 "Makefile", ".json", ".yml")


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    return [p for p in out.splitlines() if p]


def moves(root, files):
    """{old path: new path} for the top-level include/ headers, moved or still to move."""
    out = {}
    for p in files:
        group = layers.group_of_header(p)
        if group and p.endswith(".h"):
            out[p] = "include/%s/%s" % (group, os.path.basename(p))
    # Headers moved by an earlier run: their names still need the includes rewritten.
    for p in files:
        parts = p.split("/")
        if len(parts) == 3 and parts[0] == "include" and parts[1] in ("kernel", "mm") and \
                p.endswith(".h"):
            out.setdefault("include/" + parts[2], p)
    for name in layers.LIB_HEADERS:
        if os.path.exists(os.path.join(root, "include/lib", name)):
            out.setdefault("include/" + name, "include/lib/" + name)
    return out


# Names the host's C library has too (<elf.h>, <syscall.h>): a host tool under tools/ means the
# host's, while kernel code, user code and the tests (built with -Iinclude first) mean ours.
HOST_NAMES = {n for n in ("elf.h", "syscall.h") if os.path.exists("/usr/include/" + n)}


def rewrite(text, mapping, host_tool=False):
    """Bare `<NAME.h>` includes and `include/NAME.h` paths of moved headers, rewritten."""
    names = {os.path.basename(old): new[len("include/"):] for old, new in mapping.items()}

    def include(m):
        name = m.group(2)
        if name not in names or (host_tool and name in HOST_NAMES):
            return m.group(0)
        return m.group(1) + names[name] + ">"

    def path(m):
        return m.group(1) + "include/" + names[m.group(2)] if m.group(2) in names else m.group(0)

    text = re.sub(r'(#\s*include\s*<)([A-Za-z0-9_]+\.h)>', include, text)
    # Paths in prose and build files; not inside a longer path (arch/x86/include/asm/...).
    return re.sub(r'(^|[^A-Za-z0-9_/.-])include/([A-Za-z0-9_]+\.h)\b', path, text, flags=re.M)


def main(argv):
    dry = "--dry-run" in argv
    args = [a for a in argv[1:] if a != "--dry-run"]
    root = os.path.abspath(args[0] if args else os.path.dirname(os.path.dirname(__file__)))
    files = tracked(root)
    mapping = moves(root, files)
    moved = 0
    for old, new in sorted(mapping.items()):
        if os.path.exists(os.path.join(root, old)):
            print("move %s -> %s" % (old, new))
            moved += 1
            if not dry:
                os.makedirs(os.path.dirname(os.path.join(root, new)), exist_ok=True)
                subprocess.run(["git", "-C", root, "mv", old, new], check=True)
    changed = 0
    for p in tracked(root) if not dry else files:
        if not (p.endswith(TEXT_SUFFIXES) or os.path.basename(p) == "Makefile"):
            continue
        full = os.path.join(root, p)
        if not os.path.isfile(full) or p.startswith("tools/regroup-includes"):
            continue
        with open(full, errors="surrogateescape") as f:
            text = f.read()
        new = rewrite(text, mapping, host_tool=p.startswith("tools/") and p.endswith(".c"))
        if new != text:
            changed += 1
            print("rewrite %s" % p)
            if not dry:
                with open(full, "w", errors="surrogateescape") as f:
                    f.write(new)
    print("regroup-includes: %d header(s) moved, %d file(s) rewritten%s"
          % (moved, changed, " (dry run)" if dry else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
