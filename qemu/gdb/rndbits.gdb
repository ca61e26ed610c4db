# gdb commands for rndbits' ASLR path (docs/debugging.md). Load it into gdb-multiarch after the
# kernel's symbols, e.g. with `-x qemu/gdb/rndbits.gdb` (the gdb command that
# `make qemu-<preset> debug BUILD=debug` prints already does), then:
#
#   rnd-breaks    breakpoints on the ASLR path of exec: exec_image (the exec entry), pick_layout
#                 (Linux's arch_pick_mmap_layout), arch_mmap_rnd (the random page offset of
#                 mmap_base) and randomize_brk (Linux's arch_randomize_brk)
#   rnd-layout    the current process's layout: mmap_base and the random offset drawn for it,
#                 stack top and initial sp, brk, the load bias, and the vm.mmap_rnd_bits in force
#                 (`rnd-layout kept`: the process `run -k` kept)
#
# Named rnd-layout, not layout: `layout` is gdb's own command for its text user interface.
# Build the kernel with BUILD=debug (-Og, no LTO): in the default build link-time optimisation
# inlines arch_mmap_rnd and the other small functions of this path, and gdb cannot find them.

python
import gdb


def _rnd_value(expr):
    """expr's value, or None when this preset's kernel has no such variable."""
    try:
        return gdb.parse_and_eval(expr)
    except gdb.error:
        return None


class RndBreaks(gdb.Command):
    """Set breakpoints on the ASLR path of exec (rndbits' names for Linux's functions)."""

    POINTS = (("exec_image", "the exec entry: lay out a fresh address space"),
              ("pick_layout", "Linux's arch_pick_mmap_layout: mmap_base and the stack top"),
              ("arch_mmap_rnd", "the random page offset of mmap_base (and of a PIE's load bias)"),
              ("randomize_brk", "Linux's arch_randomize_brk: the start of the heap"))

    def __init__(self):
        super().__init__("rnd-breaks", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        for name, why in self.POINTS:
            if gdb.lookup_global_symbol(name) is None and _rnd_value(name) is None:
                print("rnd-breaks: no function %s in this kernel (a BUILD=debug image has every "
                      "one)" % name)
                continue
            gdb.Breakpoint(name)
            print("  %s: %s" % (name, why))


class RndLayout(gdb.Command):
    """Print the current process's address-space layout and the ASLR knobs in force.
Usage: rnd-layout [kept]
Without an argument: the running user process."""

    def __init__(self):
        super().__init__("rnd-layout", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip() == "kept":
            proc, state = _rnd_value("'proc.c'::kept"), "kept by run -k"
            if proc is not None and not bool(proc["in_use"]):
                print("rnd-layout: no kept process (run -k PROGRAM keeps one)")
                return
        else:
            cur = _rnd_value("'proc.c'::current_proc")
            if cur is not None and int(cur) != 0 and not bool(cur.dereference()["kernel"]):
                proc, state = cur.dereference(), "running"
            elif cur is not None:
                print("rnd-layout: the shell (init, pid 1) runs, no user process")
                return
            else:
                proc = None
        if proc is None:
            print("rnd-layout: this kernel has no 'proc.c'::current_proc (load the symbols of a "
                  "BUILD=debug image)")
            return
        mm = proc["mm"]
        compat = bool(mm["compat"])
        bits_var = "mmap_rnd_compat_bits" if compat else "mmap_rnd_bits"
        bits = _rnd_value(bits_var)
        rva = _rnd_value("randomize_va_space")

        def hx(field):
            return "%#018x" % int(mm[field])

        print("pid %d %s, %s, %s" % (int(proc["pid"]), proc["name"].string(),
                                     "compat (32-bit)" if compat else "native", state))
        print("  mmap_base    %s  random offset %d pages (range.bits %d, max %d pages)"
              % (hx("mmap_base"), int(mm["rnd_pages"]), int(mm["range"]["bits"]),
                 int(mm["range"]["max_rnd_pages"])))
        print("  stack_top    %s  initial sp %s" % (hx("stack_top"), hx("start_stack")))
        print("  brk          %s  start_brk %s, before randomization %s"
              % (hx("brk"), hx("start_brk"), hx("brk_base")))
        print("  load_bias    %s  entry %s" % (hx("load_bias"), hx("entry")))
        print("  vm.%s = %s, kernel.randomize_va_space = %s"
              % (bits_var, "?" if bits is None else int(bits), "?" if rva is None else int(rva)))


RndBreaks()
RndLayout()
end
