"""qemu/deps.sh decides from dpkg-query and id alone; fake both on PATH to test its three paths
without touching the machine's packages."""

import os
import subprocess
import tempfile
import unittest

DEPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "deps.sh")


def run_deps(installed, uid, *extra):
    with tempfile.TemporaryDirectory() as shim:
        with open(os.path.join(shim, "dpkg-query"), "w") as f:
            f.write("#!/bin/sh\n" + "".join("echo 'installed %s'\n" % p for p in installed))
        with open(os.path.join(shim, "id"), "w") as f:
            f.write("#!/bin/sh\necho %d\n" % uid)
        with open(os.path.join(shim, "apt-get"), "w") as f:
            f.write("#!/bin/sh\necho \"apt-get $*\"\n")
        for name in ("dpkg-query", "id", "apt-get"):
            os.chmod(os.path.join(shim, name), 0o755)
        env = dict(os.environ, PATH=shim + ":" + os.environ["PATH"])
        return subprocess.run(["sh", DEPS] + list(extra), env=env, capture_output=True, text=True)


def all_packages():
    with open(DEPS) as f:
        text = f.read()
    block = text.split('PACKAGES="', 1)[1].split('"', 1)[0]
    return block.split()


class Deps(unittest.TestCase):
    def test_nothing_missing_is_silent(self):
        r = run_deps(all_packages(), 1000)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_missing_as_user_prints_the_command_and_fails(self):
        r = run_deps([p for p in all_packages() if p != "qemu-system-arm"], 1000, "gdb-multiarch")
        self.assertEqual(r.returncode, 1)
        self.assertIn("apt-get update && apt-get install -y --no-install-recommends "
                      "qemu-system-arm gdb-multiarch", r.stderr)

    def test_missing_as_root_installs(self):
        r = run_deps([p for p in all_packages() if p != "libcmocka-dev"], 0)
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout.split("\n")[:2],
                         ["apt-get update", "apt-get install -y --no-install-recommends libcmocka-dev"])


if __name__ == "__main__":
    unittest.main()
