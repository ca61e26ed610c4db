"""rndbits_qemu/bootcost: the counts `boot-cost` and `make bench` report come from parsing QEMU's
-d in_asm,exec,nochain log and naming guest addresses. Both are checked here, on a log QEMU 7.2
wrote for the floor image (trimmed, trailing blanks dropped) and on a hand-made ELF header, so
that a change in either shows as a failing test, not as a silently wrong benchmark table."""

import os
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from rndbits_qemu import bootcost  # noqa: E402
from rndbits_qemu import machine  # noqa: E402

# The floor's prompt loop: the first block falls into the loop, whose head QEMU then translates
# again as a block of its own (0x40200008), which is why a loop entered by falling in costs its
# first pass twice.
FLOOR_LOG = b"""----------------
IN:
0x40200000:  d2a12001  movz     x1, #0x900, lsl #16
0x40200004:  100000e2  adr      x2, #0x40200020
0x40200008:  38401443  ldrb     w3, [x2], #1
0x4020000c:  34000063  cbz      w3, #0x40200018

Trace 0: 0x7f180c000100 [0000000000104004/0000000040200000/00000121/ff000200]
----------------
IN:
0x40200010:  39000023  strb     w3, [x1]
0x40200014:  17fffffd  b        #0x40200008

Trace 0: 0x7f180c0002c0 [0000000000104004/0000000040200010/00000121/ff000200]
----------------
IN:
0x40200008:  38401443  ldrb     w3, [x2], #1
0x4020000c:  34000063  cbz      w3, #0x40200018

Trace 0: 0x7f180c000440 [0000000000104004/0000000040200008/00000121/ff000200]
Trace 0: 0x7f180c0002c0 [0000000000104004/0000000040200010/00000121/ff000200]
Trace 0: 0x7f180c000440 [0000000000104004/0000000040200008/00000121/ff000200]
----------------
IN:
0x40200018:  d503207f  wfi
""".splitlines(keepends=True)


class ParseLog(unittest.TestCase):
    def setUp(self):
        self.cost = bootcost.parse_log(FLOOR_LOG)

    def test_blocks_are_keyed_by_their_first_address(self):
        self.assertEqual(self.cost.blocks,
                         {0x40200000: 4, 0x40200010: 2, 0x40200008: 2, 0x40200018: 1})
        self.assertEqual((self.cost.translated_blocks, self.cost.translated_insns), (4, 9))

    def test_runs_count_every_trace_line(self):
        self.assertEqual(self.cost.runs, {0x40200000: 1, 0x40200010: 2, 0x40200008: 2})
        # 4 + 2 runs of 2 + 2 runs of 2; the wfi block never finished, so it has no trace.
        self.assertEqual(self.cost.executed_insns, 12)

    def test_by_function_sums_blocks_and_runs_per_name(self):
        class Names:
            @staticmethod
            def name(pc):
                return "loop" if pc in (0x40200008, 0x40200010) else "start"

        rows = bootcost.by_function(self.cost, Names())
        # (name, executed insns, runs, blocks, translated insns), most runs first.
        self.assertEqual(rows, [("loop", 8, 4, 2, 4), ("start", 4, 1, 2, 5)])

    def test_no_prompt_written_counts_the_whole_log(self):
        self.assertFalse(self.cost.prompted)


# A prompt written to the 16550 (QEMU's -trace serial_write, interleaved with the blocks): what
# runs after its last byte (here the wait for a key) is not counted, however long QEMU ran on.
PROMPT_LOG = (b"""----------------
IN:
0x00100000:  ee                       outb     %al, %dx
0x00100001:  eb fd                    jmp      0x100000

Trace 0: 0x7f00 [00000000/00100000/000000b0/ff000200]
serial_write write addr 0x00 val 0x0a
""" + b"".join(b"Trace 0: 0x7f00 [00000000/00100000/000000b0/ff000200]\n"
               b"serial_write write addr 0x00 val 0x%02x\n" % c for c in b"rndbits# ") + b"""----------------
IN:
0x00100003:  f4                       hlt

Trace 0: 0x7f40 [00000000/00100003/000000b0/ff000200]
""").splitlines(keepends=True)


class CutAtThePrompt(unittest.TestCase):
    def test_counting_stops_at_the_prompts_last_byte(self):
        cost = bootcost.parse_log(PROMPT_LOG, ("rndbits# ", "rndbits$ "))
        self.assertTrue(cost.prompted)
        self.assertEqual(cost.blocks, {0x100000: 2})
        self.assertEqual(cost.runs, {0x100000: 10})

    def test_a_prompt_not_at_the_start_of_a_line_does_not_cut(self):
        log = [ln for ln in PROMPT_LOG if b"val 0x0a" not in ln]
        cost = bootcost.parse_log([b"serial_write write addr 0x00 val 0x3e\n"] + log,
                                  ("rndbits# ",))
        self.assertFalse(cost.prompted)
        self.assertEqual(cost.blocks, {0x100000: 2, 0x100003: 1})

    def test_pl011_data_writes_count_too(self):
        log = [b"pl011_write addr 0x000 value 0x%08x\n" % c for c in b"rndbits$ "]
        self.assertTrue(bootcost.parse_log(log, ("rndbits$ ",)).prompted)


def elf64_with_one_load(vaddr, paddr, memsz):
    ehdr = bytearray(64)
    ehdr[0:4] = b"\x7fELF"
    ehdr[4], ehdr[5] = 2, 1  # ELFCLASS64, little-endian
    struct.pack_into("<Q", ehdr, 0x20, 64)  # e_phoff
    struct.pack_into("<HH", ehdr, 0x36, 56, 1)  # e_phentsize, e_phnum
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0x10000, vaddr, paddr, memsz, memsz, 0x10000)
    return bytes(ehdr) + phdr


class Naming(unittest.TestCase):
    VADDR, PADDR = 0xFFFF000000200000, 0x40200000

    def test_load_offsets_reads_each_pt_load(self):
        with tempfile.NamedTemporaryFile(suffix=".elf") as f:
            f.write(elf64_with_one_load(self.VADDR, self.PADDR, 0x80000))
            f.flush()
            self.assertEqual(machine.load_segments(f.name), [(self.PADDR, self.VADDR, 0x80000)])

    def symbols(self):
        s = object.__new__(bootcost.Symbols)  # nm is not needed to test the lookup
        s.syms = [(self.VADDR, "_start"), (self.VADDR + 0x100, "boot_map")]
        s.addrs = [a for a, _ in s.syms]
        s.segs = [(self.PADDR, self.VADDR, 0x80000)]
        return s

    def test_code_run_before_the_mmu_is_named_at_its_linked_address(self):
        s = self.symbols()
        self.assertEqual(s.name(self.PADDR + 0x104), "boot_map (at its physical address)")
        self.assertEqual(s.name(self.VADDR + 0x10), "_start")

    def test_addresses_far_from_any_symbol_are_not_ours(self):
        s = self.symbols()
        self.assertEqual(s.name(self.VADDR + 0x100 + 0x20000), "(outside the kernel)")
        self.assertEqual(s.name(0xF0000), "(outside the kernel)")


if __name__ == "__main__":
    unittest.main()
