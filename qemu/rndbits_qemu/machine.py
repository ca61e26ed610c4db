"""How a preset is launched under QEMU.

The presets are CMakePresets.json's configure presets: each names (in its "vendor" map, usually
through the hidden base preset it inherits) the description of QEMU's board for its ISA,
arch/<isa>/qemu.json, and the default preset of each ISA names its `make` alias. This module is
the one reader of that list: the harness, tools/ and the Makefile (`rndbits-qemu presets
--make`) all take the presets from here.

Every entry point (run, debug, cmdline, test) builds its command line here, so the QEMU that a
person runs by hand and the one the tests drive differ only in how the serial line is attached:
`-serial mon:stdio` for a person (Ctrl-C goes to the guest, Ctrl-A X leaves), `-serial stdio`
on pipes for the harness (no escape character eats the bytes it sends).
"""

import json
import os
import re
import shlex
import struct

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRESETS_FILE = os.path.join(REPO, "CMakePresets.json")

# Fields a description must have (qemu/README.md, "Launch descriptions", says what each means).
REQUIRED = ("binary", "machine", "cpu", "memory", "args", "devices", "image", "symbols",
            "gdb_architecture", "exit_status")
EXIT_ENCODINGS = ("semihosting", "isa-debug-exit")


def load_segments(elf_path):
    """(paddr, vaddr, size) of each PT_LOAD: code run before the MMU is on runs at paddr."""
    with open(elf_path, "rb") as f:
        data = f.read(1 << 16)
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        phoff, = struct.unpack_from(end + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
        fmt, fields = end + "IIQQQQQQ", (0, 3, 4, 6)
    else:
        phoff, = struct.unpack_from(end + "I", data, 0x1c)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2a)
        fmt, fields = end + "IIIIIIII", (0, 2, 3, 5)
    segs = []
    for i in range(phnum):
        ph = struct.unpack_from(fmt, data, phoff + i * phentsize)
        p_type, vaddr, paddr, memsz = (ph[j] for j in fields)
        if p_type == 1:
            segs.append((paddr, vaddr, memsz))
    return segs


def memory_bytes(m):
    """QEMU's -m as bytes (a bare number is MiB), or None when it is not a plain size."""
    units = {"": 1 << 20, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    match = re.match(r"^(\d+)([KMG]?)$", m.upper())
    return int(match.group(1)) * units[match.group(2)] if match else None


def memory_variables(m):
    """`memory` (QEMU's -m, as given) and `memory_kib` where the size has a unit."""
    v = {"memory": m}
    units = {"K": 1, "M": 1024, "G": 1024 * 1024}
    if m[-1:].upper() in units and m[:-1].isdigit():
        v["memory_kib"] = str(int(m[:-1]) * units[m[-1:].upper()])
    return v


# The loader method's initrd lies below ram_base + INITRD_WINDOW (every preset's linear map covers
# that much RAM), at an INITRD_ALIGN boundary (the largest page size: no frame shared with
# anything else).
INITRD_WINDOW = 256 << 20
INITRD_ALIGN = 64 << 10


class MachineError(Exception):
    pass


def preset_names():
    """The presets QEMU can boot, in the order of CMakePresets.json: every configure preset that
    is not hidden and names a board description (`host`, the unit tests' preset, names none)."""
    return [p["name"] for p in _cmake_presets()[0]
            if not p.get("hidden") and _inherited(p["name"], _vendor).get("qemu")]


def preset_aliases():
    """{alias: preset}: the `make qemu-<alias>` names of the default preset of each ISA."""
    return {_inherited(p, _vendor)["alias"]: p for p in preset_names()
            if _inherited(p, _vendor).get("alias")}


_presets_cache = {}


def _cmake_presets():
    """(CMakePresets.json's configure presets, a memo for _inherited), read once per process
    while the file stays as it was (its mtime and size): every Machine, variables() and
    preset_names() call asks, and `tests --cmake` alone parsed the file ~16,000 times (2.5 s)."""
    try:
        st = os.stat(PRESETS_FILE)
        key = (PRESETS_FILE, st.st_mtime_ns, st.st_size)
        if key not in _presets_cache:
            with open(PRESETS_FILE) as f:
                presets = json.load(f).get("configurePresets", [])
            _presets_cache.clear()
            _presets_cache[key] = (presets, {})
        return _presets_cache[key]
    except (OSError, ValueError):
        return [], {}


def _vendor(p):
    return p.get("vendor", {}).get("rndbits", {})


def _cache_vars(p):
    return p.get("cacheVariables", {})


def _inherited(preset, field):
    """field(p) of the preset merged over the presets it inherits from (the child wins), as
    CMake resolves cacheVariables. A copy: callers may change it."""
    presets, memo = _cmake_presets()
    if (preset, field) in memo:
        return dict(memo[preset, field])
    by_name = {p["name"]: p for p in presets}
    out = {}

    def walk(name, depth=0):
        p = by_name.get(name)
        if p is None or depth > 16:
            return
        parents = p.get("inherits", [])
        for parent in [parents] if isinstance(parents, str) else reversed(parents):
            walk(parent, depth + 1)
        out.update(field(p))

    walk(preset)
    memo[preset, field] = out
    return dict(out)


def cache_variables(preset):
    """The preset's cacheVariables, inherited ones included (child wins)."""
    return _inherited(preset, _cache_vars)


def _load(preset):
    """The preset's board description, and its path relative to the repository."""
    rel = _inherited(preset, _vendor).get("qemu")
    if not rel:
        raise MachineError("no launch description for %s: CMakePresets.json names none "
                           "(\"vendor\": {\"rndbits\": {\"qemu\": ...}})" % preset)
    try:
        with open(os.path.join(REPO, rel)) as f:
            return json.load(f), rel
    except OSError as e:
        raise MachineError("%s: %s" % (rel, e.strerror))
    except ValueError as e:
        raise MachineError("%s: %s" % (rel, e))


class Machine:
    """One preset's resolved launch description plus where its images live."""

    def __init__(self, preset, build_root=None):
        if preset not in preset_names():
            raise MachineError("no launch description for %s: not a preset QEMU boots (CMakePresets.json)"
                               % preset)
        self.preset = preset
        self.desc, self.desc_path = _load(preset)
        missing = [k for k in REQUIRED if k not in self.desc]
        if missing:
            raise MachineError("%s lacks %s" % (self.desc_path, ", ".join(missing)))
        if self.desc["exit_status"] not in EXIT_ENCODINGS:
            raise MachineError("%s: exit_status must be one of %s"
                               % (self.desc_path, ", ".join(EXIT_ENCODINGS)))
        self.build_dir = os.path.join(build_root or os.path.join(REPO, "build"), preset)

    @property
    def image(self):
        return os.path.join(self.build_dir, self.desc["image"])

    @property
    def symbols(self):
        return os.path.join(self.build_dir, self.desc["symbols"])

    @property
    def initrd_method(self):
        """How an initrd reaches the kernel: "multiboot" (x86's `-initrd`, module 0) or
        "loader" (arm/arm64: QEMU gives an ELF -kernel no initrd, so the bytes are placed by
        `-device loader` and the address passed as Linux's `initrd=ADDR,SIZE`)."""
        return self.desc.get("initrd") or ("multiboot" if self.desc["machine"] == "pc"
                                           else "loader")

    def initrd_address(self, size, memory=None):
        """Where the loader method puts an initrd of size bytes: as high as RAM goes (at most
        INITRD_WINDOW above its base, inside every preset's linear map), 64 KiB aligned. The
        kernel image and the DTB sit at RAM's start and the page allocator's first use (its
        bitmap, the first page tables) takes the lowest free frames, so the top is clear."""
        ram_base = int(self.desc.get("ram_base", "0"), 0)
        ram = memory_bytes(memory or self.desc["memory"]) or 0
        top = ram_base + min(ram, INITRD_WINDOW)
        addr = (top - size) & ~(INITRD_ALIGN - 1)
        image_end = ram_base
        if os.path.exists(self.image):
            image_end = max([p + n for p, _, n in load_segments(self.image)] or [ram_base])
        if size > ram or addr < image_end:
            raise MachineError("%s: an initrd of %d bytes does not fit between the kernel image "
                               "(ends at %#x) and the end of RAM (%#x); give more memory"
                               % (self.preset, size, image_end, top))
        return addr

    def initrd_args(self, initrd, append=None, memory=None):
        """(QEMU arguments, kernel command line) that hand the cpio archive at path initrd to
        the kernel, by the preset's method."""
        if self.initrd_method == "multiboot":
            return ["-initrd", initrd], append
        size = os.path.getsize(initrd)
        addr = self.initrd_address(size, memory)
        param = "initrd=%#x,%d" % (addr, size)
        return (["-device", "loader,file=%s,addr=%#x,force-raw=on" % (display_path(initrd), addr)],
                " ".join(a for a in (append, param) if a))

    def command(self, serial="stdio", append=None, gdb=None, extra=(), memory=None, initrd=None):
        """QEMU's argv. serial: "stdio" (pipes, harness) or "mon:stdio" (a person's terminal).
        gdb: None, or a TCP port for the gdb stub (QEMU starts halted). memory: QEMU's -m
        instead of the description's (a transcript's `memory:` header). initrd: a cpio archive
        for the kernel (see initrd_args)."""
        d = self.desc
        self.check_memory(memory or d["memory"])
        initrd_argv = []
        if initrd:
            initrd_argv, append = self.initrd_args(initrd, append, memory)
        argv = [d["binary"], "-M", d["machine"], "-cpu", d["cpu"], "-m", memory or d["memory"],
                "-nodefaults", "-display", "none", "-no-reboot", "-serial", serial]
        argv += d["args"]
        for dev in d["devices"]:
            argv += ["-device", dev]
        argv += ["-kernel", self.image]
        argv += initrd_argv
        if append:
            argv += ["-append", append]
        if gdb is not None:
            argv += ["-s", "-S"] if int(gdb) == 1234 else ["-gdb", "tcp::%d" % int(gdb), "-S"]
        argv += list(extra)
        return argv

    def check_memory(self, memory):
        """Refuse a RAM size that ends at or below the image's load address: QEMU would then
        load the image into no memory and run nothing, so the kernel could not say a word.
        (RAM that ends inside the image is the kernel's to report: its entry code probes the
        image's end and stops with a panic line.)"""
        size = memory_bytes(memory)
        if size is None or "ram_base" not in self.desc or not os.path.exists(self.image):
            return
        ram_end = int(self.desc["ram_base"], 0) + size
        starts = [paddr for paddr, _, memsz in load_segments(self.image) if memsz]
        if starts and ram_end <= min(starts):
            raise MachineError("%s: -m %s ends RAM at %#x, at or below the kernel image's load "
                               "address %#x: QEMU would run none of it; give more memory"
                               % (self.preset, memory, ram_end, min(starts)))

    def qemu_status(self, kernel_status):
        """QEMU's exit status when the kernel calls arch_poweroff(kernel_status)."""
        if kernel_status == 0 or self.desc["exit_status"] == "semihosting":
            return kernel_status
        return ((kernel_status << 1) | 1) & 0xff

    def kernel_status(self, qemu_status):
        """The inverse of qemu_status, or None when no kernel status maps to it."""
        if qemu_status is None or qemu_status < 0:
            return None
        if qemu_status == 0 or self.desc["exit_status"] == "semihosting":
            return qemu_status
        return (qemu_status - 1) >> 1 if qemu_status & 1 else None

    def variables(self):
        """Names a transcript may use as ${name}: the preset's facts as the kernel reports them."""
        cache = cache_variables(self.preset)
        v = {"preset": self.preset, "machine": self.desc["machine"], "cpu": self.desc["cpu"],
             "memory": self.desc["memory"], "isa": cache.get("RNDBITS_ISA", ""),
             "bits": cache.get("RNDBITS_BITS", "")}
        shift = cache.get("RNDBITS_PAGE_SHIFT")
        if shift:
            v["page_shift"] = shift
            v["page_size"] = str(1 << int(shift))
        if cache.get("RNDBITS_VA_BITS"):
            v["va_bits"] = cache["RNDBITS_VA_BITS"]
            v["va_layout"] = "va_bits=%s" % v["va_bits"]
        elif cache.get("RNDBITS_PAGE_OFFSET"):
            v["page_offset"] = "%#x" % int(cache["RNDBITS_PAGE_OFFSET"], 0)
            v["va_layout"] = "page_offset=%s" % v["page_offset"]
        levels = _table_levels(v["isa"], v["bits"], shift, v.get("va_bits"))
        if levels:
            v["levels"] = str(levels)
        v.update(self.config())
        v.update(memory_variables(self.desc["memory"]))
        return v

    def config(self):
        """The image's configuration: every `#define CONFIG_X value` of the generated config.h
        in build/<preset>/ (strings unquoted), or nothing before the preset is configured."""
        path = os.path.join(self.build_dir, "include", "generated", "config.h")
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            return {}
        out = {}
        for name, value in re.findall(r"^#define\s+(CONFIG_\w+)\s+(.*?)\s*$", text, re.M):
            out[name] = value[1:-1] if value.startswith('"') and value.endswith('"') else value
        return out

    def gdb_command(self, port=1234):
        sym = display_path(self.symbols)
        return " ".join([
            "gdb-multiarch", "-q",
            "-ex", shlex.quote("set architecture %s" % self.desc["gdb_architecture"]),
            "-ex", shlex.quote("file %s" % sym),
            "-ex", shlex.quote("target remote localhost:%d" % port)])


def _table_levels(isa, bits, page_shift, va_bits):
    """Translation levels the preset's page tables must have (an independent statement of the
    formats, so a transcript can check the kernel's own `levels=`): arm short descriptors and
    i386 two-level paging have 2, x86_64 4; arm64 resolves VA_BITS - PAGE_SHIFT bits with
    PAGE_SHIFT - 3 bits per level."""
    if isa == "arm" or (isa == "x86" and bits == "32"):
        return 2
    if isa == "x86":
        return 4
    if isa == "arm64" and page_shift and va_bits:
        per_level = int(page_shift) - 3
        return -(-(int(va_bits) - int(page_shift)) // per_level)
    return None


def display_path(path):
    """A path as a person would type it: relative when it lies under the current directory."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def shell_line(argv):
    return " ".join(shlex.quote(display_path(a) if os.path.isabs(a) else a) for a in argv)
