#!/usr/bin/python3
"""Regenerate the seed corpora in tests/fuzz/corpus/ (the files are committed; this records how
they were made). Needs dtc, qemu-system-arm/aarch64 and the user programs of a built tree for
the DTB and ELF seeds; the others are written from the tables below.

    /usr/bin/python3 tests/fuzz/gen_seeds.py [--build DIR]   (default: build/ of the tree)

Seeds are named seed-*; what fuzzing added (found-*: the corpus after 10 minutes per harness,
merged with libFuzzer -merge=1 to the inputs that add coverage; regression-*) is never touched."""
import argparse
import os
import shutil
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def write(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


# --- dointvec: 4 bytes min, 4 bytes max, 1 byte range pick (even: a real sysctl range), text. --
def dointvec():
    texts = [b"24\n", b"24", b" 24", b"\t24\n", b"24 25", b"0x18", b"0X18\n", b"030", b"\r24",
             b"24\r\n", b"08", b"0x", b"+24", b"-24", b"-", b"- 24", b"24abc", b"\n", b"",
             b"2\x004", b"-2147483648", b"2147483647", b"2147483648", b"-2147483649",
             b"18446744073709551615", b"18446744073709551616", b"000000000000000000024",
             b"00000000000000000024", b"0xffffffffffffffff", b"0x7fffffff\n", b"-0", b"-0x80000000",
             b"017777777777", b" \v\f\r\t\n 33 \t\n", b"1" * 4096, b" " * 4094 + b"5",
             b" " * 4095 + b"5"]
    picks = [0, 2, 4, 6, 8, 10, 12, 255]
    for i, t in enumerate(texts):
        pick = picks[i % len(picks)]
        write("dointvec", "%02d" % i, struct.pack("<iiB", -5, 100, pick) + t)


# --- elf: the user programs of every ABI, stripped, plus hand-made minimal images. -----------
STRIP = {"EM_AARCH64": "aarch64-linux-gnu-strip", "EM_ARM": "arm-none-eabi-strip",
         "EM_386": "strip", "EM_X86_64": "strip"}


def elf_machine(path):
    with open(path, "rb") as f:
        h = f.read(20)
    if h[:4] != b"\x7fELF":
        return None
    return {183: "EM_AARCH64", 40: "EM_ARM", 3: "EM_386", 62: "EM_X86_64"}.get(
        struct.unpack_from("<H", h, 18)[0])


def minimal_elf(cls, machine, vaddr, etype=2):
    """One PT_LOAD of one page holding the headers, entry right after them."""
    if cls == 64:
        eh, ph = 64, 56
        hdr = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01" + b"\0" * 9, etype,
                          machine, 1, vaddr + eh + ph, eh, 0, 0, eh, ph, 1, 64, 0, 0)
        phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, vaddr, vaddr, eh + ph + 4, 0x2000, 0x1000)
    else:
        eh, ph = 52, 32
        hdr = struct.pack("<16sHHIIIIIHHHHHH", b"\x7fELF\x01\x01\x01" + b"\0" * 9, etype,
                          machine, 1, vaddr + eh + ph, eh, 0, 0, eh, ph, 1, 40, 0, 0)
        phdr = struct.pack("<IIIIIIII", 1, 0, vaddr, vaddr, eh + ph + 4, 0x2000, 5, 0x1000)
    return hdr + phdr + b"\xde\xad\xbe\xef"


def build_elf(cls, machine, loads, entry, etype=2, ident=None, phentsize=None, phnum=None,
              phoff=None, tail=0x200):
    """An image with the program headers `loads` ((type, flags, offset, vaddr, filesz, memsz)
    each) right after the ELF header, then `tail` bytes; any header field may be overridden."""
    eh, ph = (64, 56) if cls == 64 else (52, 32)
    ident = ident or (b"\x7fELF" + bytes([2 if cls == 64 else 1, 1, 1]) + b"\0" * 9)
    n = len(loads) if phnum is None else phnum
    if cls == 64:
        hdr = struct.pack("<16sHHIQQQIHHHHHH", ident, etype, machine, 1, entry,
                          eh if phoff is None else phoff, 0, 0, eh, phentsize or ph, n, 64, 0, 0)
        table = b"".join(struct.pack("<IIQQQQQQ", t, f, o, v, v, fs, ms, 0x1000)
                         for t, f, o, v, fs, ms in loads)
    else:
        hdr = struct.pack("<16sHHIIIIIHHHHHH", ident, etype, machine, 1, entry,
                          eh if phoff is None else phoff, 0, 0, eh, phentsize or ph, n, 40, 0, 0)
        table = b"".join(struct.pack("<IIIIIIII", t, o, v, v, fs, ms, f, 0x1000)
                         for t, f, o, v, fs, ms in loads)
    return hdr + table + b"\xde" * tail


def elf_edges(cls, machine, name):
    """One image per check of kernel/elf.c, on each side of it where it has two: what the
    loader refuses, and the nearest image it accepts. Task sizes and page sizes are the
    harness's (the 32-bit ones include 0xbf000000 and 0xc0000000)."""
    top32 = 0xbf000000
    word = (1 << cls) - 1
    ok = (1, 5, 0, 0x400000, 0x100, 0x2000)
    e = 0x400000 + 0x80
    cases = {
        "ok": ([ok], e, {}),
        "big-endian": ([ok], e, {"ident": b"\x7fELF" + bytes([cls // 32, 2, 1]) + b"\0" * 9}),
        "version-0": ([ok], e, {"ident": b"\x7fELF" + bytes([cls // 32, 1, 0]) + b"\0" * 9}),
        "type-rel": ([ok], e, {"etype": 1}),
        "type-core": ([ok], e, {"etype": 4}),
        "phentsize": ([ok], e, {"phentsize": 24}),
        "phnum-0": ([ok], e, {"phnum": 0}),
        "phnum-65": ([ok] * 65, e, {}),
        "phnum-64": ([ok] + [(4, 4, 0, 0, 0, 0)] * 63, e, {}),
        "phoff-past-end": ([ok], e, {"phoff": 4096}),
        "phoff-huge": ([ok], e, {"phoff": word}),
        "table-past-end": ([ok], e, {"phnum": 3, "tail": 0}),
        "loads-8": ([(1, 5, 0, 0x400000 + i * 0x1000, 0x10, 0x10) for i in range(8)], e, {}),
        "loads-9": ([(1, 5, 0, 0x400000 + i * 0x1000, 0x10, 0x10) for i in range(9)], e, {}),
        "memsz-0": ([(1, 5, 0, 0x400000, 0, 0)], e, {}),
        "filesz-gt-memsz": ([(1, 5, 0, 0x400000, 0x100, 0xff)], e, {}),
        "filesz-past-end": ([(1, 5, 0, 0x400000, 0x1000, 0x2000)], e, {}),
        "offset-filesz-wraps": ([(1, 5, word, 0x400000, 2, 0x2000)], e, {}),
        "vaddr-memsz-wraps": ([(1, 5, 0, word & ~0xfff, 0x100, 0x2000)], e, {}),
        "end-at-task-size": ([(1, 5, 0, top32 - 0x2000, 0x100, 0x2000)], top32 - 0x1000, {}),
        "end-past-task-size": ([(1, 5, 0, top32 - 0x2000, 0x100, 0x2001)], top32 - 0x1000, {}),
        "same-page": ([ok, (1, 6, 0x80, 0x401f00, 0x10, 0x200)], e, {}),
        "next-page": ([ok, (1, 6, 0x80, 0x402080, 0x10, 0x200)], e, {}),
        "unsorted": ([(1, 6, 0x80, 0x500080, 0x10, 0x200), ok], e, {}),
        "no-load": ([(4, 4, 0, 0, 0x10, 0x10)], e, {}),
        "entry-at-lo": ([ok], 0x400000, {}),
        "entry-at-hi": ([ok], 0x402000, {}),
        "entry-below": ([ok], 0x3fffff, {}),
        "incongruent": ([(1, 5, 0, 0x400010, 0x100, 0x2000)], e, {}),
    }
    for case, (loads, entry, kw) in sorted(cases.items()):
        write("elf", "edge-%s-%s" % (name, case), build_elf(cls, machine, loads, entry, **kw))


def elf(build):
    seen = set()
    for preset in ("arm64-4k-va48", "x86_64", "x86", "arm-vmsplit-3g"):
        base = os.path.join(build, preset, "user")
        for sub in ("aarch64", "aarch32", "x86_64", "ia32", "i386", "arm", "."):
            for prog in ("hello", "hello-pie", "alloc"):
                path = os.path.join(base, sub, prog)
                m = os.path.isfile(path) and elf_machine(path)
                if not m or (m, prog) in seen:
                    continue
                seen.add((m, prog))
                with tempfile.TemporaryDirectory() as t:
                    out = os.path.join(t, "x")
                    subprocess.run([STRIP[m], "-o", out, path], check=True)
                    with open(out, "rb") as f:
                        write("elf", "%s-%s" % (m[3:].lower(), prog), f.read())
    for cls, machine, name in ((64, 183, "aarch64"), (64, 62, "x86_64"), (32, 40, "arm"),
                               (32, 3, "i386")):
        write("elf", "min-%s-exec" % name, minimal_elf(cls, machine, 0x400000))
        write("elf", "min-%s-dyn" % name, minimal_elf(cls, machine, 0, etype=3))
    for cls, machine, name in ((64, 183, "aarch64"), (32, 40, "arm")):
        elf_edges(cls, machine, name)


# --- fdt: QEMU's virt device trees (packed), and small hand-written ones. -----------------------
SMALL_DTS = {
    "two-memory": """/dts-v1/; / { #address-cells = <2>; #size-cells = <2>;
        memory@40000000 { device_type = "memory"; reg = <0 0x40000000 0 0x8000000>; };
        memory@100000000 { device_type = "memory"; reg = <1 0 0 0x1000 0 0x80000000 0 0x1000>; };
        chosen { bootargs = "sysctl.vm.mmap_rnd_bits=24 quiet"; rng-seed = [00 11 22 33];
                 kaslr-seed = <0x12345678 0x9abcdef0>; }; };""",
    "cells-1": """/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;
        memory { device_type = "memory"; reg = <0x80000000 0x10000000>; };
        uart@9000000 { compatible = "ns16550a", "arm,pl011"; reg = <0x9000000 0x1000>; };
        chosen { bootargs = ""; }; };""",
    "bad-cells": """/dts-v1/; / { #address-cells = <3>; #size-cells = <0>;
        memory@0 { device_type = "memory"; reg = <0 0 0>; }; chosen { }; };""",
    "deep": """/dts-v1/; / { a { b { c { d { e { f { g { h { i { j { compatible = "arm,pl011"; };
        }; }; }; }; }; }; }; }; }; chosen { bootargs = "x"; }; };""",
}


def fdt():
    with tempfile.TemporaryDirectory() as t:
        dumps = [("qemu-system-aarch64", ["-cpu", "max", "-m", "128M"], "virt-arm64"),
                 ("qemu-system-aarch64", ["-cpu", "max", "-m", "5G", "-smp", "2"], "virt-arm64-5g"),
                 ("qemu-system-arm", ["-cpu", "cortex-a15", "-m", "128M"], "virt-arm"),
                 ("qemu-system-arm", ["-cpu", "cortex-a15", "-m", "1G"], "virt-arm-1g")]
        # -append needs -kernel: put the command line in afterwards, as QEMU would.
        bootargs = {"virt-arm64-5g": "console=ttyAMA0 sysctl.vm.mmap_rnd_bits=33",
                    "virt-arm-1g": "a b=c"}
        for qemu, args, name in dumps:
            raw = os.path.join(t, name + ".raw")
            subprocess.run([qemu, "-M", "virt,dumpdtb=" + raw, "-display", "none",
                            "-nodefaults"] + args, check=True, capture_output=True)
            packed = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dtb", raw], check=True,
                                    capture_output=True).stdout
            if name in bootargs:
                with open(raw, "wb") as f:
                    f.write(packed)
                subprocess.run(["fdtput", "-p", "-t", "s", raw, "/chosen", "bootargs",
                                bootargs[name]], check=True)
                packed = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dtb", raw], check=True,
                                        capture_output=True).stdout
            write("fdt", name, packed)
        for name, src in SMALL_DTS.items():
            out = subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-"], input=src.encode(),
                                 check=True, capture_output=True).stdout
            write("fdt", name, out)
            write("fdt", name + "-v16", out[:20] + struct.pack(">I", 16) + out[24:])


# --- multiboot: 1 byte phys_limit pick, then the information structure at INFO_PA. --------------
INFO_PA = 0x10000
MBI_SIZE = 4 * 29  # struct multiboot_info
FLAG_MEM, FLAG_CMDLINE, FLAG_MODS, FLAG_MMAP, FLAG_LOADER = 1, 4, 8, 64, 512


def mbi(flags, mem_lower=639, mem_upper=130048, cmdline=0, mods=(0, 0), mmap=(0, 0), loader=0):
    f = [0] * 29
    f[0], f[1], f[2], f[4] = flags, mem_lower, mem_upper, cmdline
    f[5], f[6] = mods
    f[11], f[12] = mmap
    f[19] = loader
    return struct.pack("<29I", *f)


def e820(entries):
    return b"".join(struct.pack("<IQQI", 20, a, l, t) for a, l, t in entries)


def multiboot():
    qemu_map = [(0, 0x9fc00, 1), (0x9fc00, 0x400, 2), (0xf0000, 0x10000, 2),
                (0x100000, 0x7ee0000, 1), (0x7fe0000, 0x20000, 2), (0xfffc0000, 0x40000, 2)]
    big_map = qemu_map[:4] + [(0x100000000, 0x40000000, 1)]
    odd_map = [(0xfffffffffffff000, 0x2000, 1), (0x1001, 0xfff, 1), (0x1800, 0x10000, 1),
               (0, 0xffffffffffffffff, 1)]
    for name, entries, pick in (("qemu-128m", qemu_map, 0), ("qemu-5g", big_map, 1),
                                ("odd", odd_map, 3), ("qemu-limit0", qemu_map, 4)):
        m = e820(entries)
        cmd = b"/boot/rndbits.elf sysctl.vm.mmap_rnd_bits=28 x\0"
        loader = b"qemu\0"
        mm_at = INFO_PA + MBI_SIZE
        cmd_at = mm_at + len(m)
        ld_at = cmd_at + len(cmd)
        info = mbi(FLAG_MEM | FLAG_CMDLINE | FLAG_MMAP | FLAG_LOADER, cmdline=cmd_at,
                   mmap=(len(m), mm_at), loader=ld_at)
        write("multiboot", name, bytes([pick]) + info + m + cmd + loader)
    # Modules, and the classic mem fields without a map.
    mods_at = INFO_PA + MBI_SIZE
    s_at = mods_at + 32
    mods = struct.pack("<4I", 0x200000, 0x201000, s_at, 0) + struct.pack("<4I", 0x300000, 0x300000, 0, 0)
    info = mbi(FLAG_MEM | FLAG_MODS, mods=(2, mods_at))
    write("multiboot", "mods", bytes([0]) + info + mods + b"module-one arg\0")
    write("multiboot", "mem-only", bytes([2]) + mbi(FLAG_MEM, mem_upper=0xffffffff))
    write("multiboot", "nothing", bytes([5]) + mbi(0))


# --- console: 1 byte picking the buffer size, then keystrokes. ---------------------------------
def console():
    keys = [b"help\r", b"sysctl vm.mmap_rnd_bits=24\r\n", b"abc\x7f\x7fd\bx\n",
            b"\x1b[A\x1b[1;5D\x1bOP\x1bx\r", b"\x15clear\x15ls\r", b"partial\x03next\r",
            b"x" * 300 + b"\r" + b"ok\r", b"x" * 300 + b"\x15short\r", b"\t\ttab\r",
            b"\x80\xff\xc3\xa9utf8\r", b"\x00nul\x00\r", b"\xfe\x20typed ahead\x03\r",
            b"\xfe\x05abcdefgh\r", b"\r\n\r\r\n\n", b"\x7f" * 1000 + b"z\r",
            b"a\x1b", b"\x1b[" + b"1;" * 50 + b"m\r"]
    for i, k in enumerate(keys):
        write("console", "%02d" % i, bytes([i % 5]) + k)


# --- shell: 1 byte of options (bit 0 uid nobody, bits 1.. what fs_write answers), lines. ------
def shell():
    lines = [b"echo a b c", b"echo 'a b' \"c d\" e'f'g", b"echo > /proc/sys/vm/x",
             b"echo >", b"echo >f g", b"yes > /tmp/f", b"echo 'unterminated",
             b" ".join([b"w"] * 33), b" ".join([b"echo"] + [b"w"] * 31), b"help", b"nosuch x",
             b"status 'xy'", b"", b"   \t ", b"true >a >b", b"false", b"status \"\"",
             b">f echo x", b"echo a\tb\t\t'\t'", b"''", b"\"\" x",
             b"nest > f", b"nest", b"echo '>' x \">\"y", b"echo 1 > a > b", b"echo x>f>g",
             b"echo > > f", b"echo > ''", b"> f"]
    for i, l in enumerate(lines):
        write("shell", "%02d" % i, bytes([i % 10]) + l + b"\n")
    write("shell", "all", bytes([0]) + b"\n".join(lines))


# --- cpio: archives by GNU cpio (newc, crc) and tools/mkcpio.py (aligned), small files. -------
def cpio():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "bin"))
        for name, size in (("bin/a", 0), ("bin/bb", 1), ("bin/ccc", 5), ("hello", 3)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(bytes((i * 7) & 0xFF for i in range(size)))
        names = b"bin\nbin/a\nbin/bb\nbin/ccc\nhello\n"
        for fmt in ("newc", "crc"):
            out = subprocess.run(["cpio", "--quiet", "-o", "-H", fmt], cwd=d, input=names,
                                 stdout=subprocess.PIPE, check=True).stdout
            write("cpio", fmt, out)
            write("cpio", fmt + "-twice", out + out)
        mk = os.path.join(d, "mk.cpio")
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), "--align",
                        "64", mk, "bin/a=" + os.path.join(d, "bin/a"),
                        os.path.join(d, "hello"), "etc/="], check=True)
        with open(mk, "rb") as f:
            write("cpio", "mkcpio-aligned", f.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    for d in os.listdir(CORPUS) if os.path.isdir(CORPUS) else []:
        for f in os.listdir(os.path.join(CORPUS, d)):
            if f.startswith("seed-"):
                os.unlink(os.path.join(CORPUS, d, f))
    dointvec()
    elf(args.build)
    fdt()
    multiboot()
    console()
    shell()
    cpio()


if __name__ == "__main__":
    main()
