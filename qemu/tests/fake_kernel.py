#!/usr/bin/python3
"""A stand-in for rndbits' console, for testing the harness without QEMU: the same prompt, echo,
line editing (backspace, Ctrl-U, Ctrl-C, a 255-character limit), CRLF line ends and a few
commands. Commands that misbehave on purpose: `lf` (bare LF), `hang` (no prompt), `panic`
(exit 7, as x86's isa-debug-exit reports kernel status 3), `slow N` (N lines, one per read),
`selftest [broken]` (KTAP, one case failing with `broken`)."""

import os
import select
import sys

LINE_MAX = 255
out = sys.stdout.buffer


def put(s):
    out.write(s.replace("\n", "\r\n").encode("latin-1"))
    out.flush()


def command(line, state):
    argv = line.split()
    if not argv:
        return
    name = argv[0]
    if name == "help":
        for cmd, usage in sorted(COMMANDS.items()):
            put("%-9s %s\n" % (cmd, usage))
    elif name == "uname":
        put("rndbits x86 x86 page=4096 va_bits=32 machine=pc cpu=max rng=rdrand build=fake 2026-12-03\n"
            if argv[1:] == ["-a"] else "rndbits\n")
    elif name == "free":
        put("            total       used       free\n"
            "pages:      32768        612      32156\n"
            "KiB:       131072       2448     128624\n")
    elif name == "poweroff":
        sys.exit(0)
    elif name == "panic":
        put("rndbits: kernel panic: asked to\n")
        sys.exit(7)
    elif name == "lf":
        out.write(b"bare\n")
        out.flush()
    elif name == "spin":                # a long command that polls for Ctrl-C
        while os.read(0, 1) != b"\x03":
            pass
        put("spin: interrupted\n")
    elif name == "loop":                # a program Ctrl-C stops: keys must come after its line
        early = select.select([0], [], [], 0.2)[0]
        put("loop: running\n")
        while os.read(0, 1) != b"\x03":
            pass
        put("^C\n" if not early else "loop: keys came too early\n")
    elif name == "hang":
        os.read(0, 1 << 20)
        sys.exit(0)
    elif name == "su":
        state["prompt"] = "rndbits$ " if argv[1:] == ["nobody"] else "rndbits# "
    elif name == "exit":
        state["prompt"] = "rndbits# "
    elif name == "selftest":            # KTAP, with a failing case when asked for one
        bad = argv[1:] == ["broken"]
        put("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: pte\n    1..2\n"
            "    ok 1 table_round_trip\n")
        if bad:
            put("    # leaf_round_trip: EXPECTATION FAILED at kernel/selftest.c:1: W dropped\n")
        put("    %sok 2 leaf_round_trip\n%sok 1 pte\n" % (("not ", "not ") if bad else ("", "")))
    elif name == "echo":
        put(" ".join(argv[1:]) + "\n")
    else:
        put("rndbits: %s: command not found\n" % name)


COMMANDS = {"help": "list commands", "uname": "[-a]  print system information",
            "free": "page frames", "poweroff": "power off", "echo": "[ARG...]", "su": "[USER]"}


def main():
    state = {"prompt": "rndbits# "}
    put("rndbits: fake console\nrndbits: boot done\n")
    while True:
        put(state["prompt"])
        line, too_long = "", False
        while True:
            b = os.read(0, 1)
            if not b:
                sys.exit(0)
            c = b.decode("latin-1")
            if c in "\r\n":
                put("\n")
                break
            if c == "\x03":
                put("^C\n")
                line = None
                break
            if c in "\x08\x7f":
                if line:
                    line = line[:-1]
                    put("\b \b")
            elif c == "\x15":
                put("\b \b" * len(line))
                line = ""
            elif " " <= c <= "~":
                if len(line) >= LINE_MAX:
                    too_long = True
                else:
                    line += c
                    put(c)
        if line is None:
            continue
        if too_long:
            put("rndbits: line too long (max %d)\n" % LINE_MAX)
            continue
        command(line, state)


if __name__ == "__main__":
    main()
