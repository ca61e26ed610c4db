#!/usr/bin/python3
"""Write a cpio "newc" archive (the format of Linux's initramfs) from host files.

    mkcpio.py [--crc] [--align BYTES] OUT.cpio [MEMBER | --align BYTES]...

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
    --align BYTES  start the data of every regular file named after it (up to the next --align;
                   before OUT.cpio: all of them) at a multiple of BYTES (a power of two, at
                   least 4; 0: no alignment, the default) from the start of the archive, so that a kernel that finds the
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
    def __init__(self, crc):
        self.out = bytearray()
        self.crc = crc
        self.ino = 0

    def entry(self, name, mode, data=b"", nlink=1, align=0):
        self.ino += 1
        raw = name.encode() + b"\0"
        start = len(self.out) + HEADER
        if align and stat.S_ISREG(mode):
            # Grow the name's NUL padding until the data lands on the boundary.
            data_at = (start + len(raw) + align - 1) & ~(align - 1)
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


def parse_align(text):
    try:
        align = int(text, 0)
    except ValueError:
        align = -1
    if align and (align < 4 or align & (align - 1)):
        fail("--align %s: not 0 or a power of two >= 4" % text)
    return align


def parse_args(argv):
    """(crc, out, [(align, member)...]): options before OUT, --align also among the members."""
    crc, align, out, members = False, 0, None, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            sys.stdout.write(__doc__)
            sys.exit(0)
        elif arg == "--crc" and out is None:
            crc = True
        elif arg == "--align" or arg.startswith("--align="):
            if "=" in arg:
                value = arg.split("=", 1)[1]
            else:
                i += 1
                if i == len(argv):
                    fail("--align needs a value")
                value = argv[i]
            align = parse_align(value)
        elif arg.startswith("--") and out is None:
            fail("unknown option %s (see --help)" % arg)
        elif out is None:
            out = arg
        else:
            members.append((align, arg))
        i += 1
    if out is None:
        fail("usage: mkcpio.py [--crc] [--align BYTES] OUT.cpio [MEMBER | --align BYTES]...")
    return crc, out, members


def main():
    crc, out, members = parse_args(sys.argv[1:])
    w = Writer(crc)
    dirs, files = set(), set()
    for align, arg in members:
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
        w.entry(dest, stat.S_IFREG | perm, data, align=align)

    blob = w.finish()
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
