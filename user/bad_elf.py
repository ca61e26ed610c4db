#!/usr/bin/python3
"""Malformed copies of a good ELF image, one defect each, for the kernel's exec checks:
bad_elf.py GOOD OUTDIR writes OUTDIR/bad-<kind>. Each must be refused with "Exec format error"
(or ENOMEM for the one that asks for more than memory) and leave nothing allocated."""
import struct
import sys


def parse(data):
    cls = data[4]
    if cls == 1:  # ELF32
        eh = struct.unpack_from("<16sHHIIIIIHHHHHH", data, 0)
        phoff, phentsize, phnum = eh[5], eh[9], eh[10]
        ph_fmt, ph_fields = "<IIIIIIII", ("type", "offset", "vaddr", "paddr", "filesz", "memsz", "flags", "align")
        entry_off, phoff_off, machine_off = 24, 28, 18
    else:
        eh = struct.unpack_from("<16sHHIQQQIHHHHHH", data, 0)
        phoff, phentsize, phnum = eh[5], eh[9], eh[10]
        ph_fmt, ph_fields = "<IIQQQQQQ", ("type", "flags", "offset", "vaddr", "paddr", "filesz", "memsz", "align")
        entry_off, phoff_off, machine_off = 24, 32, 18
    phdrs = []
    for i in range(phnum):
        off = phoff + i * phentsize
        phdrs.append((off, dict(zip(ph_fields, struct.unpack_from(ph_fmt, data, off)))))
    return cls, ph_fmt, ph_fields, phdrs, entry_off, phoff_off, machine_off


def put_phdr(data, ph_fmt, ph_fields, off, ph):
    struct.pack_into(ph_fmt, data, off, *[ph[f] for f in ph_fields])


def main():
    good, outdir = sys.argv[1], sys.argv[2]
    data = bytearray(open(good, "rb").read())
    cls, ph_fmt, ph_fields, phdrs, entry_off, phoff_off, machine_off = parse(data)
    word = "<I" if cls == 1 else "<Q"
    loads = [(off, ph) for off, ph in phdrs if ph["type"] == 1]
    big = 0xfff00000 if cls == 1 else 0xfff0000000000000
    variants = {}

    d = bytearray(data); d[1:4] = b"ELG"; variants["magic"] = d
    variants["trunc"] = bytearray(data[:40])
    d = bytearray(data); struct.pack_into(word, d, phoff_off, len(data) + 4096); variants["phoff"] = d
    d = bytearray(data); struct.pack_into("<H", d, machine_off, 0x1234); variants["machine"] = d
    d = bytearray(data); struct.pack_into(word, d, entry_off, big); variants["entry"] = d
    off, ph = loads[0]
    d = bytearray(data); p = dict(ph); p["offset"] = len(data) - 16; p["filesz"] = 4096
    put_phdr(d, ph_fmt, ph_fields, off, p); variants["segment"] = d
    d = bytearray(data); p = dict(ph); p["filesz"] = p["memsz"] + 1
    put_phdr(d, ph_fmt, ph_fields, off, p); variants["filesz"] = d
    off1, ph1 = loads[1]
    d = bytearray(data); p = dict(ph1); p["vaddr"] = loads[0][1]["vaddr"]
    put_phdr(d, ph_fmt, ph_fields, off1, p); variants["overlap"] = d
    off2, ph2 = loads[-1]
    d = bytearray(data); p = dict(ph2); p["vaddr"] = big; p["memsz"] = 0x10000
    put_phdr(d, ph_fmt, ph_fields, off2, p); variants["kernel"] = d
    # A bss larger than any preset's RAM (128 MiB): well formed, but memory runs out.
    d = bytearray(data); p = dict(ph2); p["memsz"] = 256 << 20
    put_phdr(d, ph_fmt, ph_fields, off2, p); variants["hugebss"] = d
    # A program that asks for a dynamic loader (PT_GNU_STACK turned into a PT_INTERP naming a
    # NUL-terminated string of the image): there is none, so execve says ENOENT, as Linux does
    # when the interpreter cannot be opened.
    stack = [(off, ph) for off, ph in phdrs if ph["type"] == 0x6474e551]
    fmt_at = data.find(b"hello from rndbits")
    if stack and fmt_at >= 0:
        end = data.index(b"\0", fmt_at)
        d = bytearray(data); off, ph = stack[0]; p = dict(ph)
        p.update(type=3, offset=fmt_at, vaddr=0, paddr=0, filesz=end + 1 - fmt_at, memsz=end + 1 - fmt_at)
        put_phdr(d, ph_fmt, ph_fields, off, p); variants["interp"] = d
    # More program headers than fit in a page (load_elf_phdrs refuses them): ENOEXEC.
    d = bytearray(data); struct.pack_into("<H", d, 44 if cls == 1 else 56, 0xffff); variants["phnum"] = d
    for kind, blob in variants.items():
        with open("%s/bad-%s" % (outdir, kind), "wb") as f:
            f.write(bytes(blob))


if __name__ == "__main__":
    main()
