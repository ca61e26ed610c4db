"""Unit tests of the transcript format and the player, against qemu/tests/fake_kernel.py
(no QEMU needed). Run: python3 -m unittest discover -s qemu/tests"""

import os
import struct
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rndbits_qemu import machine as M      # noqa: E402
from rndbits_qemu import session as S      # noqa: E402
from rndbits_qemu import transcript as T   # noqa: E402

FAKE = [sys.executable, os.path.join(HERE, "fake_kernel.py")]


def play(text, preset="x86", timeout=None):
    """Play a transcript given as text against the fake console; returns the failure or None."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        t = T.parse(f.name)
        S.Player(t, M.Machine(preset), timeout).run(FAKE)
        return None
    except S.Failure as e:
        return str(e)
    finally:
        os.unlink(f.name)


class Keys(unittest.TestCase):
    def test_enter_is_added(self):
        self.assertEqual(T.parse_keys("uname -a"), b"uname -a\r")

    def test_tokens(self):
        self.assertEqual(T.parse_keys("ab<BS>c<DEL><C-u>x<TAB><ESC><0x00><lt>CR>"),
                         b"ab\x08c\x7f\x15x\t\x1b\x00<CR>\r")

    def test_line_enders_suppress_enter(self):
        self.assertEqual(T.parse_keys("uname<C-c>"), b"uname\x03")
        self.assertEqual(T.parse_keys("uname<CR><LF>"), b"uname\r\n")

    def test_keys_after_end_of_line_are_an_error(self):
        with self.assertRaises(T.TranscriptError):
            T.parse_keys("a<C-c>b")

    def test_repeat(self):
        self.assertEqual(T.parse_keys("<rep 3 ab>"), b"ababab\r")

    def test_unknown_angle_text_is_literal(self):
        self.assertEqual(T.parse_keys("cat <file"), b"cat <file\r")


class Editor(unittest.TestCase):
    def test_backspace_ctrl_u_ctrl_c(self):
        self.assertEqual(T.edited_line(b"unamx\x7fe\r"), "uname")
        self.assertEqual(T.edited_line(b"\x7f\x08uname\r"), "uname")
        self.assertEqual(T.edited_line(b"junk\x15uname\r"), "uname")
        self.assertEqual(T.edited_line(b"uname\x03"), "uname^C")

    def test_limit_and_escape_sequences(self):
        self.assertEqual(T.edited_line(b"x" * 300 + b"\x7f\r"), "x" * 255)
        self.assertEqual(T.edited_line(b"un\x1b[Dame\x1bOA\r"), "uname")
        self.assertEqual(T.edited_line(b"\x1buname\x1b\x03"), "uname^C")    # a lone ESC


class Render(unittest.TestCase):
    def test_erase_sequences(self):
        self.assertEqual(T.render("abc\b \b"), "ab")
        self.assertEqual(T.render("abc\r\x1b[Kxy"), "xy")
        self.assertEqual(T.render("total   "), "total   ")

    def test_stray_control_bytes_stay_visible(self):
        self.assertEqual(T.render("a\x07b"), "a\\x07b")

    def test_crlf_flag(self):
        lines = T.split_lines("a\r\nb\nc")
        self.assertEqual([(ln.shown, ln.crlf, ln.terminated) for ln in lines],
                         [("a", True, True), ("b", False, True), ("c", True, False)])


class Matching(unittest.TestCase):
    def block(self, *src):
        t = T.parse("<t>", "presets: all\nrndbits# x\n" + "\n".join(src) + "\n")
        T.prepare(t, {"preset": "x86"})
        return t.steps[1].expect

    def lines(self, *text):
        return [T.OutLine(s, True) for s in text]

    def test_skip_and_regex(self):
        ok, groups, *_ = T.match_block(self.block("...", "re: b=(?P<b>\\d+)", "..."),
                                       self.lines("a", "b=12", "c"))
        self.assertTrue(ok)
        self.assertEqual(groups, {"b": "12"})

    def test_literal_mismatch_reports_position(self):
        ok, _, _, fi, fj = T.match_block(self.block("a", "b"), self.lines("a", "x"))
        self.assertFalse(ok)
        self.assertEqual((fi, fj), (1, 1))

    def test_extra_output_fails(self):
        self.assertFalse(T.match_block(self.block("a"), self.lines("a", "b"))[0])

    def test_variables_and_escapes(self):
        e = self.block("re: ${preset}-\\d", "\\...", "\\re: x", "\\#")
        self.assertTrue(T.match_block(e, self.lines("x86-1", "...", "re: x", "#"))[0])
        self.assertFalse(T.match_block(e, self.lines("x86_64-1", "...", "re: x", "#"))[0])

    def test_trailing_blank_lines_are_layout(self):
        t = T.parse("<t>", "presets: all\nrndbits# x\na\n\nb\n\n\nrndbits# y\n")
        self.assertEqual([e.text for e in t.steps[1].expect], ["a", "", "b"])

    def test_checks(self):
        self.assertEqual(T.evaluate_check("a + b == c", {"a": "1", "b": "2", "c": "3"}, {})[0], True)
        ok, why = T.evaluate_check("a > b", {"a": "1", "b": "0x2"}, {})
        self.assertFalse(ok)
        self.assertIn("b=2", why)


class Header(unittest.TestCase):
    def test_presets(self):
        t = T.parse("<t>", "presets: arm64-*, x86 !arm64-64k-*\nrndbits# x\n")
        self.assertTrue(t.applies_to("arm64-4k-va48"))
        self.assertTrue(t.applies_to("x86"))
        self.assertFalse(t.applies_to("x86_64"))
        self.assertFalse(t.applies_to("arm64-64k-va42"))

    def test_split_variants_take_only_the_listed_transcripts(self):
        """arm-vmsplit-2g/-1g: `all` and globs select only tests/serial/split-dependent.list's
        transcripts there; the variant's own name always selects; other presets are unaffected."""
        variants, names = T.split_dependent()
        self.assertEqual(variants, {"arm-vmsplit-2g", "arm-vmsplit-1g"})
        for name in names:
            self.assertTrue(os.path.exists(os.path.join(T.SERIAL_DIR, name + ".txt")), name)
        listed = os.path.join(T.SERIAL_DIR, "boot.txt")
        unlisted = os.path.join(T.SERIAL_DIR, "console.txt")
        self.assertIn("boot", names)
        self.assertNotIn("console", names)
        for header in ("presets: all", "presets: arm-*", "presets: all !x86"):
            text = header + "\nrndbits# x\n"
            self.assertTrue(T.parse(listed, text).applies_to("arm-vmsplit-1g"), header)
            self.assertFalse(T.parse(unlisted, text).applies_to("arm-vmsplit-1g"), header)
            self.assertFalse(T.parse(unlisted, text).applies_to("arm-vmsplit-2g"), header)
            self.assertTrue(T.parse(unlisted, text).applies_to("arm-vmsplit-3g"), header)
        self.assertTrue(T.parse(unlisted, "presets: arm-vmsplit-1g\nrndbits# x\n")
                        .applies_to("arm-vmsplit-1g"))
        self.assertFalse(T.parse(listed, "presets: all !arm-vmsplit-1g\nrndbits# x\n")
                         .applies_to("arm-vmsplit-1g"))
        # Outside tests/serial (a reader's own transcript) the header alone decides.
        self.assertTrue(T.parse("<t>", "presets: all\nrndbits# x\n").applies_to("arm-vmsplit-1g"))

    def test_arm64_variants_take_only_the_listed_transcripts(self):
        """arm64-4k-va39, -16k-va36, -16k-va48, -64k-va42: `all` and globs select only
        tests/serial/arm64-variant-dependent.list's transcripts; the reference arm64-4k-va48 and
        the full arm64-16k-va47 and arm64-64k-va48 take every transcript, so a transcript in
        neither list (a new one) runs on the full presets only."""
        path, names = T.variant_list("arm64-16k-va36")
        self.assertEqual(os.path.basename(path), "arm64-variant-dependent.list")
        self.assertEqual(T.read_variant_list(path)[0],
                         {"arm64-4k-va39", "arm64-16k-va36", "arm64-16k-va48", "arm64-64k-va42"})
        for name in names:
            self.assertTrue(os.path.exists(os.path.join(T.SERIAL_DIR, name + ".txt")), name)
        for full in ("arm64-4k-va48", "arm64-16k-va47", "arm64-64k-va48", "arm-vmsplit-3g", "x86"):
            self.assertIsNone(T.variant_list(full), full)
        listed = os.path.join(T.SERIAL_DIR, "pt-walk.txt")
        unlisted = os.path.join(T.SERIAL_DIR, "console.txt")
        new = os.path.join(T.SERIAL_DIR, "a-transcript-added-later.txt")
        self.assertIn("pt-walk", names)
        self.assertNotIn("console", names)
        for header in ("presets: all", "presets: arm64-*", "presets: arm64-16k-* arm64-64k-*"):
            text = header + "\nrndbits# x\n"
            for reduced in ("arm64-16k-va36", "arm64-64k-va42"):
                self.assertTrue(T.parse(listed, text).applies_to(reduced), header)
                self.assertFalse(T.parse(unlisted, text).applies_to(reduced), header)
                self.assertFalse(T.parse(new, text).applies_to(reduced), header)
            for full in ("arm64-16k-va47", "arm64-64k-va48"):
                self.assertTrue(T.parse(unlisted, text).applies_to(full), header)
                self.assertTrue(T.parse(new, text).applies_to(full), header)
        self.assertTrue(T.parse(unlisted, "presets: all\nrndbits# x\n").applies_to("arm64-4k-va48"))
        self.assertTrue(T.parse(unlisted, "presets: arm64-4k-va39\nrndbits# x\n")
                        .applies_to("arm64-4k-va39"))
        # The split list does not reach the arm64 variants, nor this one the split variants.
        self.assertFalse(T.parse(os.path.join(T.SERIAL_DIR, "sysctl-compat.txt"),
                                 "presets: all\nrndbits# x\n").applies_to("arm-vmsplit-2g"))

    def test_ubsan_list_names_transcripts(self):
        """tests/serial/ubsan.list: every name is a transcript that selects a UBSan preset (a
        renamed or removed one must leave the list, or its UBSan check would silently go)."""
        names = T.ubsan_names()
        self.assertIn("boot", names)
        self.assertIn("sysfuzz", names)
        for name in names:
            path = os.path.join(T.SERIAL_DIR, name + ".txt")
            self.assertTrue(os.path.exists(path), name)
            t = T.parse(path)
            self.assertTrue(t.applies_to("arm64-4k-va48") or t.applies_to("x86_64"), name)

    def test_memory(self):
        t = T.parse("<t>", "presets: all\nmemory: 3M\nrndbits# x\n")
        self.assertEqual(t.memory, "3M")
        self.assertIsNone(T.parse("<t>", "presets: all\nrndbits# x\n").memory)
        with self.assertRaises(T.TranscriptError):
            T.parse("<t>", "presets: all\nmemory: lots\nrndbits# x\n")
        argv = M.Machine("x86").command(memory="2M")
        self.assertEqual(argv[argv.index("-m") + 1], "2M")
        self.assertEqual(M.memory_variables("3M"), {"memory": "3M", "memory_kib": "3072"})

    def test_memory_below_the_load_address_is_refused(self):
        self.assertEqual(M.memory_bytes("2M"), 2 << 20)
        self.assertEqual(M.memory_bytes("2304K"), 2304 << 10)
        self.assertEqual(M.memory_bytes("128"), 128 << 20)
        m = M.Machine("arm-vmsplit-3g")
        with tempfile.NamedTemporaryFile(suffix=".elf", delete=False) as f:
            # An ELF32 with one PT_LOAD at physical 0x40200000, as the arm image is.
            ehdr = b"\x7fELF\x01\x01\x01" + bytes(9) + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1,
                   0x40200000, 52, 0, 0, 52, 32, 1, 0, 0, 0)
            phdr = struct.pack("<IIIIIIII", 1, 0x1000, 0xc0200000, 0x40200000, 0x1000, 0x1000, 5, 0x1000)
            f.write(ehdr + phdr)
        try:
            m.desc = dict(m.desc, image=f.name)
            m.build_dir = "/"
            with self.assertRaises(M.MachineError):
                m.command(memory="2M")
            m.command(memory="2304K")   # RAM ends inside the image: the kernel reports it
        finally:
            os.unlink(f.name)

    def test_boot_block_may_end_with_exit(self):
        t = T.parse("<t>", "presets: all\n...\nrndbits: kernel panic: x\n[kernel exit 3]\n")
        self.assertEqual(len(t.steps), 1)
        self.assertEqual(t.steps[0].exit[:2], ("kernel", 3))
        with self.assertRaises(T.TranscriptError):
            T.parse("<t>", "presets: all\nrndbits: ready\n")

    def test_append_repeats(self):
        t = T.parse("<t>", "presets: all\nappend: <rep ${n-2} ab> x=1\nrndbits# x\n")
        self.assertEqual(T.prepare(t, {"n": "5"}).append, "ababab x=1")

    def test_presets_required(self):
        with self.assertRaises(T.TranscriptError):
            T.parse("<t>", "rndbits# x\n")

    def test_every_transcript_in_the_tree_parses_and_selects_a_preset(self):
        serial = os.path.join(M.REPO, "tests", "serial")
        for name in sorted(os.listdir(serial)):
            if name.endswith(".txt"):
                t = T.parse(os.path.join(serial, name))
                chosen = [p for p in M.preset_names() if t.applies_to(p)]
                self.assertTrue(chosen, name)
                for p in chosen:
                    variables = T.ConfigStandIn(M.Machine(p).variables())
                    T.prepare(T.parse(os.path.join(serial, name)), variables)


class Machines(unittest.TestCase):
    def test_every_preset_has_a_description(self):
        self.assertEqual(len(M.preset_names()), 12)
        for p in M.preset_names():
            argv = M.Machine(p).command("stdio", "a b")
            self.assertIn("-nodefaults", argv)
            self.assertEqual(argv[-2:], ["-append", "a b"])

    def test_presets_are_cmakes(self):
        """CMakePresets.json is the one list: every configure preset but host boots under QEMU,
        and the Makefile's lines (`presets --make`) name the same presets and aliases."""
        import json
        import subprocess
        with open(M.PRESETS_FILE) as f:
            cmake = [p["name"] for p in json.load(f)["configurePresets"]
                     if not p.get("hidden") and p["name"] != "host"]
        self.assertEqual(M.preset_names(), cmake)
        self.assertEqual(M.preset_aliases(), {"arm": "arm-vmsplit-3g", "arm64": "arm64-4k-va48",
                                              "x86": "x86", "x86_64": "x86_64"})
        out = subprocess.run([sys.executable, os.path.join(M.REPO, "qemu", "rndbits-qemu"),
                              "presets", "--make"], capture_output=True, text=True, check=True).stdout
        lines = dict(ln.split(" := ", 1) for ln in out.splitlines() if " := " in ln)
        self.assertEqual(lines["PRESETS"].split(), cmake)
        self.assertEqual(lines["alias.arm64"], "arm64-4k-va48")
        self.assertEqual(lines["DEFAULT_PRESETS"].split(), ["arm-vmsplit-3g", "arm64-4k-va48", "x86", "x86_64"])

    def test_not_a_preset(self):
        for name in ("host", "base-arm", "nonsense"):
            with self.assertRaises(M.MachineError):
                M.Machine(name)

    def test_exit_status_encoding(self):
        self.assertEqual(M.Machine("x86").qemu_status(3), 7)
        self.assertEqual(M.Machine("x86").qemu_status(0), 0)
        self.assertEqual(M.Machine("x86").kernel_status(7), 3)
        self.assertEqual(M.Machine("arm64-4k-va48").qemu_status(3), 3)


SESSION = """presets: all
rndbits: fake console
...
rndbits# help
...
re: free +.*
...
rndbits# free
            total       used       free
re: pages: +(?P<total>\\d+) +(?P<used>\\d+) +(?P<free>\\d+)
...
[check total == used + free]
rndbits# unamx<BS>e
rndbits
rndbits# uname<C-c>
rndbits# <rep 300 x>
rndbits: line too long (max 255)
rndbits# su nobody
rndbits$ exit
rndbits# poweroff
[exit 0]
"""


class Player(unittest.TestCase):
    def test_a_good_session_passes(self):
        self.assertIsNone(play(SESSION))

    def test_mismatch_names_the_transcript_line(self):
        err = play(SESSION.replace("rndbits\n", "rndbits!\n"))
        self.assertIn(":14 [x86] output of `unamx<BS>e` differs", err)
        self.assertIn("'rndbits'", err)

    def test_variables_in_commands_and_arithmetic(self):
        self.assertIsNone(play("presets: all\nrndbits# echo ${page_size} ${page_size+1} ${bits-2}\n"
                               "4096 4097 30\n"))
        with self.assertRaises(T.TranscriptError):
            T.prepare(T.parse("<t>", "presets: all\nrndbits# echo ${machine+1}\n"), {"machine": "pc"})

    def test_append_is_substituted(self):
        t = T.parse("<t>", "presets: all\nappend: a=${bits}\nrndbits# x\n")
        self.assertEqual(T.prepare(t, {"bits": "32"}).append, "a=32")

    def test_echo(self):
        self.assertIsNone(play("presets: all\nrndbits# unamx<BS><BS>e\nrndbits: unae: command not found\n"))
        self.assertIsNone(play("presets: all\nrndbits# <rep 300 x>\n[echo re: x{255}]\n...\n"))
        err = play("presets: all\nrndbits# <rep 300 x>\n[echo re: x{300}]\n...\n")
        self.assertIn("the console line after typing `<rep 300 x>` shows", err)

    def test_failed_check(self):
        err = play(SESSION.replace("total == used + free", "total == used"))
        self.assertIn("check failed: total == used", err)

    def test_groups_carry_over_to_later_checks(self):
        self.assertIsNone(play("presets: all\nrndbits# echo 5\nre: (?P<a>\\d+)\nrndbits# echo 5\n"
                               "re: (?P<b>\\d+)\n[check a == b]\n"))
        self.assertIn("check failed: a != b", play("presets: all\nrndbits# echo 5\nre: (?P<a>\\d+)\n"
                                                  "rndbits# echo 5\nre: (?P<b>\\d+)\n[check a != b]\n"))

    def test_let(self):
        self.assertIsNone(play("presets: all\n[let top = 2 ** 20 - page_size]\nrndbits# echo 1044480\n"
                               "re: (?P<x>\\d+)\n[let y = x + page_size]\n[check y == top + page_size == 2 ** 20]\n"))
        err = play("presets: all\n[let top = 2 ** 20]\nrndbits# echo 1\nre: (?P<x>\\d+)\n[check x == top]\n")
        self.assertIn("values: top=0x100000, x=1", err)

    def test_send_while_running(self):
        self.assertIsNone(play("presets: all\nrndbits# spin\n[send <C-c>]\nspin: interrupted\n"
                               "rndbits# uname\nrndbits\n"))
        self.assertEqual(T.parse("<t>", "presets: all\nrndbits# spin\n[send x<C-c>]\n").steps[1].keys,
                         b"spin\rx\x03")

    def test_send_under_output(self):
        self.assertIsNone(play("presets: all\nrndbits# loop\nloop: running\n[send <C-c>]\n^C\n"
                               "rndbits# uname\nrndbits\n"))
        err = play("presets: all\nrndbits# loop\n[send <C-c>]\nloop: running\n^C\n")
        self.assertIn("loop: keys came too early", err)
        with self.assertRaises(T.TranscriptError):
            T.parse("<t>", "presets: all\nrndbits# loop\n...\n[send <C-c>]\n")

    def test_timeout(self):
        err = play("presets: all\nrndbits# hang\n", timeout=0.5)
        self.assertIn("timeout: no prompt within 0.5 s after `hang`", err)

    def test_early_exit(self):
        err = play("presets: all\nrndbits# poweroff\nrndbits# uname\n")
        self.assertIn("QEMU exited with status 0 while waiting", err)

    def test_exit_status(self):
        self.assertIsNone(play("presets: all\nrndbits# panic\n...\n[exit 7]\n"))
        self.assertIsNone(play("presets: all\nrndbits# panic\n...\n[kernel exit 3]\n"))
        err = play("presets: all\nrndbits# panic\n...\n[exit 0]\n")
        self.assertIn("QEMU's exit status is 7 (kernel status 3, EXIT_PANIC), the transcript expects 0", err)

    def test_bare_lf_is_reported(self):
        err = play("presets: all\nrndbits# lf\nbare\n")
        self.assertIn("ends in LF without CR", err)


if __name__ == "__main__":
    unittest.main()
