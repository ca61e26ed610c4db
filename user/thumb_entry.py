#!/usr/bin/python3
"""thumb_entry.py IN OUT: a copy of the 32-bit ARM image IN whose e_entry is its _start_thumb
(user/arch/arm/crt0.S) with bit 0 set, the way a Thumb-2 program's entry point looks: the
kernel must start it in Thumb state."""
import struct
import sys


def symbol(data, name):
    shoff, = struct.unpack_from("<I", data, 32)
    shentsize, shnum = struct.unpack_from("<HH", data, 46)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            st_name, st_value = struct.unpack_from("<II", data, off)
            start = strtab[4] + st_name
            if data[start:data.index(b"\0", start)] == name:
                return st_value & ~1
    raise SystemExit("thumb_entry.py: no symbol %s" % name.decode())


def main():
    data = bytearray(open(sys.argv[1], "rb").read())
    if data[4] != 1 or struct.unpack_from("<H", data, 18)[0] != 40:
        raise SystemExit("thumb_entry.py: %s is not a 32-bit ARM ELF" % sys.argv[1])
    struct.pack_into("<I", data, 24, symbol(data, b"_start_thumb") | 1)
    with open(sys.argv[2], "wb") as f:
        f.write(bytes(data))


if __name__ == "__main__":
    main()
