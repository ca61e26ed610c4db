#!/usr/bin/python3
"""fetch-busybox.py DEBARCH OUT: Debian's busybox-static for one architecture (arm64, armhf,
i386, amd64), downloaded as a package with apt-get and its bin/busybox written to OUT.

The package comes from the machine's own apt sources (apt-get download needs no root; a foreign
architecture must have been added with `dpkg --add-architecture` and `apt-get update`, which
qemu/deps.sh does). Nothing is installed: the .deb is unpacked into a temporary directory.
"""

import os
import shutil
import subprocess
import sys
import tempfile


def main(debarch, out):
    with tempfile.TemporaryDirectory(prefix="busybox-") as tmp:
        pkg = "busybox-static:%s" % debarch
        r = subprocess.run(["apt-get", "download", "-q", pkg], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        debs = [f for f in os.listdir(tmp) if f.endswith(".deb")]
        if r.returncode != 0 or len(debs) != 1:
            sys.stderr.write("fetch-busybox.py: apt-get download %s failed:\n%s\n"
                             "(is the architecture known to apt? run qemu/deps.sh as root)\n"
                             % (pkg, r.stdout))
            return 1
        root = os.path.join(tmp, "root")
        subprocess.run(["dpkg-deb", "-x", os.path.join(tmp, debs[0]), root], check=True)
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        shutil.copyfile(os.path.join(root, "bin", "busybox"), out + ".tmp")
        os.chmod(out + ".tmp", 0o755)
        os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write("usage: fetch-busybox.py DEBARCH OUT\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
