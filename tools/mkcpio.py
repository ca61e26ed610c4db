#!/usr/bin/python3
"""Write a cpio "newc" archive (the format of Linux's initramfs) from host files.

    mkcpio.py [--align BYTES] [--crc] OUT.cpio MEMBER...

Each MEMBER is one of
    DEST=SRC   the regular file SRC stored as DEST ("bin/hello=build/x/user/hello")
    SRC        the file SRC stored under its own base name ("./a.out" -> "a.out"; rndbits puts
               a bare name at the archive's root in /bin)
    DEST/=     an empty directory DEST
DEST is relative to the root ("bin/hello"; leading "/" and "./" are dropped). The directories
a DEST implies ("bin" for "bin/hello") get their own entries, each once, before the first file
in them, so that any newc reader (GNU cpio -i, Linux) recreates them.

The archive is reproducible: entries in the order given (implied directories first), mtime 0,
uid and gid 0, inode numbers counting from 1, mode 0755 for a file the host may execute, 0644
otherwise, 0755 for directories, and NUL padding to a multiple of 512 bytes after the trailer
(as GNU cpio writes it).

Options:
    --align BYTES  start the data of every regular file at a multiple of BYTES (a power of two,
                   at least 4) from the start of the archive, so that a kernel that finds the
                   archive itself so aligned can use the data in place (rndbits maps program
                   pages straight from it). The padding goes into the name field: the name is
                   followed by more NUL bytes and namesize counts them. newc defines namesize
                   as the bytes of the name including its NUL; extra NULs leave the name itself
                   unchanged for every reader that stops at the first NUL, which GNU cpio,
                   busybox cpio and Linux's initramfs all do (Linux only checks the byte at
                   namesize - 1 is a NUL).
    --crc          write "070702" headers with the checksum (32-bit sum of the data bytes).

Exit status 0, or 2 with a message on stderr (a missing SRC, a DEST with "..", a DEST twice,
a file over a directory)."""
import argparse
import os
import stat
import sys

HEADER = 110
TRAILER = "TRAILER!!!"


def fail(msg):
    sys.stderr.write("mkcpio.py: %s\n" % msg)
    sys.exit(2)


def clean_dest(dest):
    parts = [p for p in dest.split("/") if p not in ("", ".")]
    if not parts:
        fail("%r: no name" % dest)
    if ".." in parts:
        fail("%r: '..' is not allowed" % dest)
    return "/".join(parts)


def parse_member(arg):
    """(dest, src or None for a directory)."""
    if "=" in arg:
        dest, src = arg.split("=", 1)
        if src == "":
            if not dest.endswith("/"):
                fail("%r: an empty SRC makes a directory: write DEST/=" % arg)
            return clean_dest(dest), None
        return clean_dest(dest), src
    return clean_dest(os.path.basename(arg.rstrip("/"))), arg


class Writer:
    def __init__(self, align, crc):
        self.out = bytearray()
        self.align = align
        self.crc = crc
        self.ino = 0

    def entry(self, name, mode, data=b"", nlink=1):
        self.ino += 1
        raw = name.encode() + b"\0"
        start = len(self.out) + HEADER
        if self.align and stat.S_ISREG(mode):
            # Grow the name's NUL padding until the data lands on the boundary.
            data_at = (start + len(raw) + self.align - 1) & ~(self.align - 1)
            raw += b"\0" * (data_at - start - len(raw))
        check = sum(data) & 0xFFFFFFFF if self.crc and stat.S_ISREG(mode) else 0
        fields = [self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(raw), check]
        self.out += (b"070702" if self.crc else b"070701")
        self.out += b"".join(b"%08X" % f for f in fields)
        self.out += raw
        self.pad4()
        self.out += data
        self.pad4()

    def pad4(self):
        self.out += b"\0" * (-len(self.out) % 4)

    def finish(self):
        self.entry(TRAILER, 0, nlink=1)
        self.out += b"\0" * (-len(self.out) % 512)
        return bytes(self.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--align", type=int, default=0)
    ap.add_argument("--crc", action="store_true")
    ap.add_argument("out")
    ap.add_argument("members", nargs="*")
    a = ap.parse_args()
    if a.align and (a.align < 4 or a.align & (a.align - 1)):
        fail("--align %d: not a power of two >= 4" % a.align)

    w = Writer(a.align, a.crc)
    dirs, files = set(), set()
    for arg in a.members:
        dest, src = parse_member(arg)
        parts = dest.split("/")
        upto = parts if src is None else parts[:-1]
        for i in range(1, len(upto) + 1):
            d = "/".join(upto[:i])
            if d in files:
                fail("%r: %r is a file" % (arg, d))
            if d not in dirs:
                dirs.add(d)
                w.entry(d, stat.S_IFDIR | 0o755, nlink=2)
        if src is None:
            continue
        if dest in files or dest in dirs:
            fail("%r: %r is already in the archive" % (arg, dest))
        try:
            st = os.stat(src)
            if not stat.S_ISREG(st.st_mode):
                fail("%r: not a regular file" % src)
            with open(src, "rb") as f:
                data = f.read()
        except OSError as e:
            fail("%s: %s" % (src, e.strerror))
        perm = 0o755 if os.access(src, os.X_OK) else 0o644
        files.add(dest)
        w.entry(dest, stat.S_IFREG | perm, data)

    blob = w.finish()
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
