"""Tests of the gdb tests' checker (qemu/rndbits_qemu/gdb.py) on gdb output as it was before the
entry points had unwind information (arm64's runaway backtrace, the boot code's "previous frame
identical") and as it is now (docs/debugging.md)."""

import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rndbits_qemu import gdb as G          # noqa: E402

SYSCALL_BT = """\
Temporary breakpoint 2, sys_brk (a=0xffff00000033f890) at kernel/sys_mm.c:11
11	{
#0  sys_brk (a=0xffff00000033f890) at kernel/sys_mm.c:11
#1  0xffff000000211de8 in syscall_dispatch (ti=0xffff00000033f900) at kernel/syscall.c:81
#2  0xffff0000002129f0 in trap_dispatch (ti=ti@entry=0xffff00000033f900) at kernel/trap.c:71
#3  0xffff00000021c764 in a64_trap_entry (f=0xffff00000033f960, slot=8) at arch/arm64/trap.c:210
#4  0xffff00000021ae94 in a64_el0_entry_8 () at arch/arm64/entry.S:148
0xffff000000211de8 in syscall_dispatch (ti=0xffff00000033f900) at kernel/syscall.c:81
81			ret = e->fn(&a);
Value returned is $2 = 1059561472
"""

RUNAWAY_BT = SYSCALL_BT.split("0xffff000000211de8 in syscall_dispatch (ti=0xffff00000033f900) at "
                              "kernel/syscall.c:81\n81")[0] + "".join(
    "#%d  0xffff00000021ae94 in a64_el0_entry_8 () at arch/arm64/entry.S:131\n" % n
    for n in range(5, 25)) + "(More stack frames follow...)\n"

BOOT_BT = """\
#0  arch_mmap_rnd (compat=compat@entry=false) at mm/layout.c:46
#1  0xffff0000002160b0 in mmap_draw_rnd_pages (r=r@entry=0xffff0000002ecf68 <running+104>, compat=false) at mm/layout.c:129
#2  0xffff00000021c200 in arch_start () at arch/arm64/setup.c:59
#3  0xffff00000020018c in _start () at boot/arm64/head.S:146
"""


class CheckOutput(unittest.TestCase):
    def test_backtraces_ending_in_entry_points_pass(self):
        self.assertEqual(G.check_output(BOOT_BT + SYSCALL_BT, "arm64", []), [])
        self.assertEqual(len(G.backtraces((BOOT_BT + SYSCALL_BT).splitlines())), 2)

    def test_runaway_backtrace_fails(self):
        problems = G.check_output(RUNAWAY_BT, "arm64", [])
        self.assertTrue(any("has 25 frames" in p for p in problems), problems)
        self.assertTrue(any("More stack frames follow" in p for p in problems), problems)

    def test_corrupt_stack_message_fails(self):
        out = BOOT_BT + "Backtrace stopped: previous frame identical to this frame (corrupt stack?)\n"
        problems = G.check_output(out, "arm64", [])
        self.assertTrue(any("Backtrace stopped" in p for p in problems), problems)

    def test_backtrace_ending_elsewhere_fails(self):
        out = "\n".join(BOOT_BT.splitlines()[:3]) + "\n"
        problems = G.check_output(out, "arm64", [])
        self.assertTrue(any("ends in arch_start, not in an entry point" in p for p in problems),
                        problems)

    def test_no_backtrace_fails(self):
        self.assertIn("no backtrace in gdb's output", G.check_output("Value returned is $1 = 0\n",
                                                                      "x86", []))

    def test_x86_64_boot_entry_under_its_linker_name(self):
        out = ("#0  arch_start (magic=732803074, info_pa=38144) at arch/x86/64/setup.c:38\n"
               "#1  0xffffffff80108018 in __text_start () at boot/x86/64/head.S:193\n")
        self.assertEqual(G.check_output(out, "x86", []), [])

    def test_expect_lines_in_order(self):
        first, second = re.compile(r"^Temporary breakpoint 2, sys_brk"), re.compile(r"^Value returned")
        self.assertEqual(G.check_output(SYSCALL_BT, "arm64", [first, second]), [])
        problems = G.check_output(SYSCALL_BT, "arm64", [second, first])
        self.assertTrue(any("sys_brk" in p for p in problems), problems)


class Header(unittest.TestCase):
    def test_console_and_expect_lines(self):
        with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
            f.write("# a comment\n# console: run probe\n# expect: ^Breakpoint 1, arch_mmap_rnd \\(\n"
                    "break arch_mmap_rnd\ncontinue\n")
        try:
            console, expect = G.parse_header(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(console, ["run probe"])
        self.assertEqual([e.pattern for e in expect], [r"^Breakpoint 1, arch_mmap_rnd \("])

    def test_the_repository_tests_parse(self):
        for name in os.listdir(os.path.join(G.M.REPO, "tests", "gdb")):
            console, expect = G.parse_header(os.path.join(G.M.REPO, "tests", "gdb", name))
            self.assertTrue(console and expect, name)


if __name__ == "__main__":
    unittest.main()
