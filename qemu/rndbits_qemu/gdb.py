"""gdb tests (tests/gdb/*.gdb, CTest label gdb): gdb-multiarch in batch mode against QEMU's gdb
stub while the harness types at the serial console, on a preset's debug build (BUILD=debug).

A test is a gdb command file. Its header comments say what the harness does and expects:

  # console: run probe      typed at the shell prompt, in order, once gdb has let the guest boot
  # expect: REGEX           must match a line of gdb's output, each after the previous one's match

and every test is also held to the rules of docs/debugging.md: gdb exits by itself without an
error, each backtrace (`bt`) ends within MAX_FRAMES frames in one of the preset's entry points
(an exception/syscall entry or the boot code that calls arch_start), with nothing after it that
says the stack is corrupt. A `finish` that never returns ends the test at its deadline (gdb in
batch mode does not print "Run till exit": expect the "Value returned" line).

Synchronisation is by content only: QEMU starts halted (-S), so the shell prompt shows only after
gdb has set its breakpoints and continued; gdb connects as soon as QEMU listens (gdb's tcp
auto-retry); the harness reads gdb's output to its end. QEMU and gdb each run in a session of
their own under coreutils `timeout`, and are killed whatever happens.
"""

import os
import re
import socket
import time

from . import machine as M
from . import session as S
from . import transcript as T

GDB = "gdb-multiarch"
COMMANDS = os.path.join(M.REPO, "qemu", "gdb", "rndbits.gdb")
MAX_FRAMES = 20
# Where a backtrace may end, by ISA: the functions (or name prefixes) whose CFI says "no caller".
ENTRY_POINTS = {
    "arm": ("trap_common", "boot_high"),
    "arm64": ("a64_el0_entry_", "a64_el1_entry_", "a64_kstack_overflow", "_start"),
    # x86_64_start_kernel shares its address with the linker script's __text_start, the name
    # gdb shows for it.
    "x86": ("trap_common", "_start", "x86_64_start_kernel", "__text_start"),
}
FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-fA-F]+ in )?(\S+) \(")
BAD_ENDS = ("Backtrace stopped", "(More stack frames follow...)")


class GdbTestError(Exception):
    pass


def is_debug_build(m):
    """Was m's image configured with RNDBITS_DEBUG=ON (BUILD=debug)?"""
    try:
        with open(os.path.join(m.build_dir, "CMakeCache.txt")) as f:
            return re.search(r"^RNDBITS_DEBUG:BOOL=ON$", f.read(), re.M) is not None
    except OSError:
        return False


def build_hint(m):
    """A line for `debug` on an image that is not the debug build, else nothing."""
    if is_debug_build(m):
        return ""
    return ("This is the optimised build: link-time optimisation inlined many functions "
            "(arch_mmap_rnd too).\nFor the debug build: make qemu-%s debug BUILD=debug "
            "(docs/debugging.md)\n\n" % m.preset)


def parse_header(path):
    """(console lines, expect regexes) from the test's header comments."""
    console, expect = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r"^#\s*(console|expect):\s?(.*)$", line.rstrip("\n"))
            if not m:
                continue
            if m.group(1) == "console":
                console.append(m.group(2))
            else:
                try:
                    expect.append(re.compile(m.group(2)))
                except re.error as e:
                    raise GdbTestError("%s:%d: expect: %s" % (M.display_path(path), lineno, e))
    return console, expect


def backtraces(lines):
    """Each backtrace in gdb's output: (its frame lines, the line after the last frame)."""
    out, i = [], 0
    while i < len(lines):
        m = FRAME.match(lines[i])
        if not m or m.group(1) != "0":
            i += 1
            continue
        frames = [lines[i]]
        i += 1
        while i < len(lines) and FRAME.match(lines[i]) and \
                int(FRAME.match(lines[i]).group(1)) == len(frames):
            frames.append(lines[i])
            i += 1
        out.append((frames, lines[i] if i < len(lines) else ""))
    return out


def check_output(text, isa, expect):
    """The problems with gdb's output (a list of lines; empty: it passes)."""
    lines = text.splitlines()
    problems = []
    entries = ENTRY_POINTS.get(isa, ())
    traces = backtraces(lines)
    if not traces:
        problems.append("no backtrace in gdb's output")
    for frames, after in traces:
        last = FRAME.match(frames[-1]).group(2)
        where = "the backtrace from %s" % FRAME.match(frames[0]).group(2)
        if len(frames) > MAX_FRAMES:
            problems.append("%s has %d frames (at most %d)" % (where, len(frames), MAX_FRAMES))
        elif not last.startswith(entries):
            problems.append("%s ends in %s, not in an entry point (%s)"
                            % (where, last, ", ".join(entries)))
        if after.startswith(BAD_ENDS):
            problems.append("%s: %s" % (where, after))
    at = 0
    for rx in expect:
        hit = next((j for j in range(at, len(lines)) if rx.search(lines[j])), None)
        if hit is None:
            problems.append("expected a line matching /%s/ (after line %d of gdb's output)"
                            % (rx.pattern, at))
            break
        at = hit + 1
    return problems


def free_port():
    """A TCP port nobody listens on now (QEMU may still lose it to someone: run retries)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gdb_argv(m, port, script):
    return [GDB, "-q", "-nx", "-batch",
            "-ex", "set pagination off", "-ex", "set confirm off", "-ex", "set width 0",
            "-ex", "set tcp connect-timeout 20",
            "-ex", "set architecture %s" % m.desc["gdb_architecture"],
            "-ex", "file %s" % m.symbols, "-x", COMMANDS,
            "-ex", "target remote 127.0.0.1:%d" % port, "-x", script]


class PortTaken(Exception):
    pass


def run_once(m, script, console_lines, deadline, port):
    """One QEMU + gdb session: (gdb's output, the console's text). Raises S.Failure."""
    bound = max(1, int(deadline - time.monotonic()) + 5)
    qemu = S.Console(m.command("stdio", gdb=port), bound=bound)
    gdb = None
    shown = []
    try:
        gdb = S.Console(gdb_argv(m, port, script), bound=bound)
        prompt = S.prompt_end(T.PROMPTS)
        try:
            shown.append(qemu.read_until(prompt, deadline))
            for i, line in enumerate(console_lines):
                if i:
                    shown.append(qemu.read_until(prompt, deadline))
                qemu.send((line + "\n").encode())
        except S.EarlyExit:
            if re.search(r"Address already in use|available port", qemu.stderr_text()):
                raise PortTaken()
            raise S.Failure("QEMU exited before the shell prompt:\n%s" % qemu.stderr_text())
        except S.Timeout:
            raise S.Failure("no shell prompt on the console (did gdb continue?)\n"
                            "console:\n%s\ngdb:\n%s%s" % (qemu.pending, gdb.pending,
                                                          gdb.stderr_text()))
        try:
            out = gdb.read_to_eof(deadline)
        except S.Timeout:
            raise S.Failure("gdb did not end in time (a finish or continue that never returned?)"
                            "\ngdb's output so far:\n%s%s" % (gdb.pending, gdb.stderr_text()))
        status = gdb.wait(deadline)
        err = gdb.stderr_text()
        if status != 0 or "Error in sourced command file" in err:
            raise S.Failure("gdb exited with status %s:\n%s%s" % (status, out, err))
        try:
            shown.append(qemu.read_until(prompt, deadline))
            qemu.send(b"poweroff\n")
            shown.append(qemu.read_to_eof(deadline))
        except (S.EarlyExit, S.Timeout) as e:
            raise S.Failure("the console did not come back after gdb detached (%s):\n%s%s"
                            % (type(e).__name__, "".join(shown), qemu.pending))
        return out + err, "".join(shown)
    finally:
        qemu.kill()
        if gdb is not None:
            gdb.kill()


def run(m, script, timeout=60.0, verbose=False):
    """Play one gdb test on machine m (its debug build). Returns the report line; raises
    S.Failure (a readable report) or GdbTestError."""
    if not os.path.exists(m.image):
        raise GdbTestError("the debug image %s does not exist: build it with `make qemu-%s build "
                           "BUILD=debug` (make test builds it)" % (M.display_path(m.image), m.preset))
    console_lines, expect = parse_header(script)
    start = time.monotonic()
    deadline = start + timeout
    for _ in range(3):
        try:
            out, shown = run_once(m, script, console_lines, deadline, free_port())
            break
        except PortTaken:
            continue
    else:
        raise S.Failure("QEMU could not listen for gdb on three free ports")
    if verbose:
        print(out + "\n--- console ---\n" + shown)
    problems = check_output(out, m.variables().get("isa"), expect)
    if problems:
        raise S.Failure("\n".join(["  " + p for p in problems] +
                                  ["--- gdb ---", out, "--- console ---", shown]))
    return "%d backtraces, %d finish" % (len(backtraces(out.splitlines())),
                                         out.count("\nValue returned is"))
