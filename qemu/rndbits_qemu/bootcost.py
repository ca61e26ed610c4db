"""What the boot costs QEMU's TCG before the first prompt, from QEMU's own logs: the translation
blocks it generated and the guest instructions it executed, in total and per function.

QEMU runs with -d in_asm,exec,nochain: in_asm writes an "IN:" header and one line per
instruction for every block it translates; exec (with chaining off, so that no execution is
skipped) writes a "Trace" line naming the block's guest address every time a block runs. A
block's executed instructions are its runs times its length. Both are exact counts, whatever the
host's load, unlike wall-clock time (under TCG a block costs microseconds to translate, an
executed instruction nanoseconds).

"Before the first prompt" is cut in the log itself: QEMU's trace events for the UART's data
register (-trace serial_write, pl011_write) land in the same log, between the blocks, so counting
stops at the write of the prompt's last byte. What the guest does after it (the wait for a key,
the idle loop, a timer tick) is not counted, however long QEMU runs before the harness kills it:
the count does not depend on when the harness saw the prompt."""

import bisect
import collections
import os
import re
import struct
import subprocess
import tempfile
import time

from . import machine as M
from . import session as S
from . import transcript as T

IN_HEADER = b"IN:"
INSN_LINE = re.compile(rb"0x([0-9a-f]+):")
EXEC_LINE = re.compile(rb"Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
# A byte written to the UART's data register (offset 0): the 16550's and the PL011's events.
UART_LINE = re.compile(rb"(?:serial_write|pl011_write) .*addr 0x0+ val(?:ue)? 0x([0-9a-f]+)")
UART_TRACE = ["-trace", "serial_write", "-trace", "pl011_write"]
NM_FOR_BINARY = {"qemu-system-aarch64": "aarch64-linux-gnu-nm", "qemu-system-arm": "arm-none-eabi-nm",
                 "qemu-system-i386": "i686-linux-gnu-nm", "qemu-system-x86_64": "nm"}


class BootCost:
    """blocks: {guest address: instructions}; runs: {guest address: executions}; prompted:
    whether the log showed the prompt written (and was cut there)."""

    def __init__(self, blocks, runs, prompted=False):
        self.blocks, self.runs, self.prompted = blocks, runs, prompted

    @property
    def translated_blocks(self):
        return len(self.blocks)

    @property
    def translated_insns(self):
        return sum(self.blocks.values())

    @property
    def executed_insns(self):
        return sum(n * self.blocks.get(pc, 0) for pc, n in self.runs.items())


def parse_log(lines, prompts=()):
    """The blocks and runs in the log, up to the UART write that completes one of prompts at the
    start of a line (all of it when none does)."""
    blocks, runs, block = {}, {}, None
    wanted = [p.encode() for p in prompts]
    written = b""  # the UART's current line
    for line in lines:
        m = UART_LINE.match(line)
        if m:
            byte = bytes([int(m.group(1), 16) & 0xff])
            written = b"" if byte == b"\n" else written + byte
            if written in wanted:
                return BootCost(blocks, runs, True)
            continue
        if line.startswith(IN_HEADER):
            block = "new"
            continue
        m = INSN_LINE.match(line)
        if m and block is not None:
            if block == "new":
                block = int(m.group(1), 16)
                blocks[block] = 0
            blocks[block] += 1
            continue
        m = EXEC_LINE.match(line)
        if m:
            pc = int(m.group(1), 16)
            runs[pc] = runs.get(pc, 0) + 1
    return BootCost(blocks, runs)


def kernel_ranges(*elf_paths):
    """[(start, size)] of every PT_LOAD of the ELF files at its virtual and at its physical
    address (early boot code runs at the physical one): QEMU's -dfilter for the kernel alone."""
    out = set()
    for path in elf_paths:
        for paddr, vaddr, size in M.load_segments(path):
            if size:
                out.update({(paddr, size), (vaddr, size)})
    return sorted(out)


def measure(argv, timeout=60.0, only=None):
    """Boot argv (a QEMU command with the serial line on stdio) to its first prompt, logging.
    only: [(start, size)] to log the blocks of those ranges alone (-dfilter). On x86 the
    firmware (SeaBIOS) executes ~6 million instructions before the kernel starts, a line of log
    each with chaining off, which QEMU writes and this module parses for ~10 s of CPU; the
    budget counts the kernel's own translations only, which the filter keeps whole."""
    fd, log = tempfile.mkstemp(prefix="rndbits-bootcost-", suffix=".log")
    os.close(fd)
    start = time.monotonic()
    dfilter = ["-dfilter", ",".join("%#x+%#x" % r for r in only)] if only else []
    c = S.Console(list(argv) + ["-d", "in_asm,exec,nochain", "-D", log] + dfilter + UART_TRACE,
                  bound=int(timeout) + 5)
    try:
        c.read_until(S.prompt_end(T.PROMPTS), start + timeout)
    finally:
        c.kill()
    try:
        with open(log, "rb") as f:
            cost = parse_log(f, T.PROMPTS)
    finally:
        os.unlink(log)
    if not cost.prompted:  # QEMU lost the log's end: a count without its cut would be wrong
        raise S.EarlyExit("QEMU's log ends before the prompt's last byte reached the UART")
    return cost


class Symbols:
    """Function names for guest addresses, physical load addresses included."""

    def __init__(self, elf_path, binary):
        out = subprocess.run([NM_FOR_BINARY.get(binary, "nm"), "-n", elf_path],
                             capture_output=True, text=True, check=True).stdout
        self.syms = [(int(f[0], 16), f[2]) for f in (line.split() for line in out.splitlines())
                     if len(f) >= 3 and f[1] in "tTwW"]
        self.addrs = [a for a, _ in self.syms]
        self.segs = M.load_segments(elf_path)

    def name(self, addr):
        for paddr, vaddr, size in self.segs:
            if paddr != vaddr and paddr <= addr < paddr + size:
                return self._lookup(addr - paddr + vaddr) + " (at its physical address)"
        return self._lookup(addr)

    def _lookup(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        # Past the last symbol's reach it is not our code (x86: SeaBIOS and option ROMs).
        if i < 0 or addr - self.addrs[i] > 0x10000:
            return "(outside the kernel)"
        return self.syms[i][1]


def by_function(cost, symbols):
    """[(name, executed insns, runs, blocks, translated insns)], most executed first."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    for pc, n in cost.blocks.items():
        r = rows[symbols.name(pc)]
        r[2] += 1
        r[3] += n
    for pc, n in cost.runs.items():
        r = rows[symbols.name(pc)]
        r[0] += n * cost.blocks.get(pc, 0)
        r[1] += n
    return sorted(((k,) + tuple(v) for k, v in rows.items()), key=lambda r: (-r[1], -r[3]))
