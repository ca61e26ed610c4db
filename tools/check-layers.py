#!/usr/bin/python3
"""Fail if the kernel's layers (tools/layers.py: lib, core, mm, kernel) include each other in a
cycle. Every #include of a C file or header is an edge from its layer to the included header's
(the arch, beside the layers, is left out); any cycle in the graph of layers fails, with the
includes that make it. Part of `make lint` (qemu/lint.sh).

    tools/check-layers.py [ROOT]       check the tree at ROOT (default: this repository)
    tools/check-layers.py --graph      print the layer graph with one example include per edge
    tools/check-layers.py --self-test  plant a cycle in a copy of the tree: the check must fail

KNOWN_EDGES below are includes that go up today and are each some helper's to remove; an edge
listed there that no longer exists is reported so that the list only shrinks."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

# (file, header name): includes that go up a layer today (mm into the kernel), each with why and
# what would remove it. Names, not paths, so that tools/regroup-includes.py does not stale them.
KNOWN_EDGES = {
    ("mm/fault.c", "proc.h"):
        "the OOM kill and a user fault end the current process: a hook the kernel registers "
        "(as arch traps call into it) would take mm's knowledge of processes away",
    ("mm/fault.c", "signal.h"):
        "a user fault sends its signal (signal_force_fault_info) and asks whether a handler "
        "takes it: the same hook as proc.h's would carry the signal",
    ("mm/fault.c", "sched.h"):
        "the OOM kill ends the running process (process_exit): the same hook as proc.h's",
    ("mm/pt_cmd.c", "proc.h"):
        "`pt walk PID` looks a process up: a shell command, whose place is above mm",
    ("mm/vma.c", "fs.h"):
        "a file mapping reads struct fs_file's bytes: the struct would move to an mm header",
    ("mm/pt_cmd.c", "aslr.h"):
        "`pt walk --compare` remembers a process's layout: the same shell command",
    ("include/mm/fault.h", "proc.h"):
        "vma_backing_file (inline, for the maps host test) takes the process's image: the "
        "same knowledge as mm/fault.c's",
    ("mm/fault.c", "fs.h"):
        "a fault report names the file a VMA maps (Linux's print_vma_addr): the same struct",
}


def known(inc):
    return (inc[0], os.path.basename(inc[1])) in KNOWN_EDGES


def resolve(root, src, quote, name):
    """The repository path an #include names, or None (a generated or system header)."""
    if quote == '"':
        cand = os.path.normpath(os.path.join(os.path.dirname(src), name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    cand = os.path.join("include", name)
    if os.path.isfile(os.path.join(root, cand)):
        return cand
    if name.startswith("asm/"):
        return "include/asm/" + name[4:]  # some arch's: the arch's own
    return None


def edges(root):
    """{(from layer, to layer): [(file, header)]} over every include between two layers."""
    out = {}
    for src in layers.source_files(root):
        a = layers.layer_of(src)
        if a in (None, "arch"):
            continue
        with open(os.path.join(root, src), errors="replace") as f:
            text = f.read()
        for quote, name in INCLUDE.findall(text):
            hdr = resolve(root, src, quote, name)
            b = layers.layer_of(hdr) if hdr else None
            if b in (None, "arch") or b == a:
                continue
            out.setdefault((a, b), []).append((src, hdr))
    return out


def cycles(graph):
    """The cycles of a directed graph {node: set(successors)}, each once, as node lists."""
    found = []

    def walk(path, node):
        for nxt in sorted(graph.get(node, ())):
            if nxt == path[0]:
                found.append(list(path))
            elif nxt not in path and nxt > path[0]:
                walk(path + [nxt], nxt)

    for start in sorted(graph):
        walk([start], start)
    return found


def check(root):
    all_edges = edges(root)
    graph, seen_known = {}, set()
    for (a, b), incs in all_edges.items():
        live = [i for i in incs if not known(i)]
        seen_known.update((i[0], os.path.basename(i[1])) for i in incs if known(i))
        if live:
            graph.setdefault(a, set()).add(b)
    failed = False
    for cyc in cycles(graph):
        failed = True
        print("layers: cycle %s" % " -> ".join(cyc + [cyc[0]]))
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            incs = [i for i in all_edges[(a, b)] if not known(i)]
            for src, hdr in incs[:3]:
                print("  %s -> %s: %s includes %s" % (a, b, src, hdr))
            if len(incs) > 3:
                print("  %s -> %s: and %d more" % (a, b, len(incs) - 3))
    for stale in sorted(set(KNOWN_EDGES) - seen_known):
        print("layers: %s no longer includes %s: drop it from KNOWN_EDGES" % stale)
    if not failed:
        print("layers: no cycle between %s (%d known upward includes)"
              % (", ".join(layers.LAYERS), len(seen_known)))
    return not failed


def print_graph(root):
    for (a, b), incs in sorted(edges(root).items()):
        n = sum(1 for i in incs if known(i))
        print("%-6s -> %-6s %3d includes (%d known), e.g. %s includes %s"
              % (a, b, len(incs), n, incs[0][0], incs[0][1]))


def self_test():
    """A copy of the tree passes; with lib/string.c including a kernel header it fails."""
    with tempfile.TemporaryDirectory(prefix="rndbits-layers-") as tmp:
        for top in ("lib", "mm", "kernel", "include", "arch", "boot", "drivers"):
            if os.path.isdir(os.path.join(ROOT, top)):
                shutil.copytree(os.path.join(ROOT, top), os.path.join(tmp, top))
        me = [sys.executable, os.path.abspath(__file__)]
        clean = subprocess.run(me + [tmp], stdout=subprocess.PIPE, universal_newlines=True)
        with open(os.path.join(tmp, "lib", "string.c"), "a") as f:
            f.write("\n#include <kernel/proc.h>\n")
        planted = subprocess.run(me + [tmp], stdout=subprocess.PIPE, universal_newlines=True)
    ok = clean.returncode == 0 and planted.returncode != 0 and \
        "lib/string.c includes include/kernel/proc.h" in planted.stdout
    print("layers self-test: the tree %s, a planted lib -> kernel include %s: %s"
          % ("passes" if clean.returncode == 0 else "FAILS",
             "fails it" if planted.returncode else "does NOT fail it", "ok" if ok else "FAILED"))
    if not ok:
        print(clean.stdout + planted.stdout)
    return ok


def main(argv):
    if argv[1:2] == ["--self-test"]:
        return 0 if self_test() else 1
    if argv[1:2] == ["--graph"]:
        print_graph(argv[2] if len(argv) > 2 else ROOT)
        return 0
    return 0 if check(argv[1] if len(argv) > 1 else ROOT) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
