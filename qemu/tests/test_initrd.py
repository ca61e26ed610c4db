"""The initrd path of the harness: how each preset's QEMU command hands a cpio archive to the
kernel (`-device loader` + Linux's `initrd=ADDR,SIZE` on arm/arm64, multiboot `-initrd` on x86),
the corpus names of a transcript's `progs:` header, and tools/mkcpio.py's archive."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rndbits_qemu import machine as M      # noqa: E402
from rndbits_qemu import progs as P        # noqa: E402
from rndbits_qemu import transcript as T   # noqa: E402


class InitrdArgs(unittest.TestCase):
    def setUp(self):
        fd, self.cpio = tempfile.mkstemp(suffix=".cpio")
        os.write(fd, b"070701" + b"\0" * 4090)
        os.close(fd)

    def tearDown(self):
        os.unlink(self.cpio)

    def test_arm_loader_and_initrd_parameter(self):
        for preset in ("arm-vmsplit-3g", "arm64-4k-va48", "arm64-64k-va48"):
            argv = M.Machine(preset).command(append="rng.seed=1", initrd=self.cpio)
            loader = [a for a in argv if a.startswith("loader,file=")]
            self.assertEqual(len(loader), 1, argv)
            addr = int(loader[0].split("addr=")[1].split(",")[0], 16)
            self.assertIn("force-raw=on", loader[0])
            append = argv[argv.index("-append") + 1]
            self.assertEqual(append, "rng.seed=1 initrd=%#x,4096" % addr)
            # Near the top of RAM (128M at 0x40000000), 64 KiB aligned, past the image.
            self.assertEqual(addr % (64 << 10), 0)
            self.assertLessEqual(addr + 4096, 0x40000000 + (128 << 20))
            self.assertGreater(addr, 0x40000000 + (64 << 20))
            self.assertNotIn("-initrd", argv)

    def test_x86_multiboot_module(self):
        for preset in ("x86", "x86_64"):
            argv = M.Machine(preset).command(initrd=self.cpio)
            self.assertEqual(argv[argv.index("-initrd") + 1], self.cpio)
            self.assertNotIn("-append", argv)

    def test_too_little_memory_is_refused(self):
        with self.assertRaises(M.MachineError):
            M.Machine("arm64-4k-va48").initrd_address(200 << 20)


class CorpusNames(unittest.TestCase):
    def test_native_and_compat_builds(self):
        v = M.Machine("x86_64").variables()
        self.assertTrue(P.corpus_file(v, "hello-musl").endswith("/x86_64/hello-musl"))
        self.assertTrue(P.corpus_file(v, "hello-glibc-32").endswith("/i386/hello-glibc"))
        v = M.Machine("arm64-4k-va48").variables()
        self.assertTrue(P.corpus_file(v, "busybox").endswith("/aarch64/busybox"))
        self.assertTrue(P.corpus_file(v, "hello-newlib-32").endswith("/armhf/hello-newlib"))

    def test_no_32_bit_builds_on_32_bit_presets(self):
        for preset in ("x86", "arm-vmsplit-3g"):
            with self.assertRaises(P.ProgsError):
                P.corpus_file(M.Machine(preset).variables(), "hello-glibc-32")

    def test_header(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("presets: all\nprogs: hello-glibc, busybox\n\nrndbits# uname\nrndbits\n")
        try:
            self.assertEqual(T.parse(f.name).progs, ["hello-glibc", "busybox"])
        finally:
            os.unlink(f.name)

    def test_user_files_go_to_bin(self):
        self.assertEqual(P.user_entries([__file__, "etc/x=" + __file__]),
                         [("bin/test_initrd.py", __file__), ("etc/x", __file__)])
        with self.assertRaises(P.ProgsError):
            P.user_entries(["/no/such/file"])


class Mkcpio(unittest.TestCase):
    def test_cpio_reads_it_back(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "x.cpio")
            P.pack([("bin/a", __file__), ("etc/deep/b", __file__)], out)
            with open(out, "rb") as f:
                data = f.read()
            self.assertEqual(data[:6], b"070701")
            self.assertEqual(len(data) % 4, 0)
            try:
                r = subprocess.run(["cpio", "-t", "--quiet"], input=data, stdout=subprocess.PIPE)
            except FileNotFoundError:   # GNU cpio (Debian's cpio package) is optional
                return
            if r.returncode == 0:
                self.assertEqual(r.stdout.decode().split(),
                                 ["bin", "bin/a", "etc", "etc/deep", "etc/deep/b"])


if __name__ == "__main__":
    unittest.main()
