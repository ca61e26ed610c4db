"""The kernel's layers, for tools/check-layers.py and tools/regroup-includes.py.

From the bottom up (docs/architecture.md draws them):

  lib     freestanding library: strings, printf, parsers, ChaCha20 (lib/, include/lib/)
  core    the kernel's small core that every subsystem may use: printk and the console, panic,
          the random generator, the sysctl table, the command and self-test tables, the boot
          record (the files listed in CORE below)
  mm      memory management: frames, page tables, address spaces, the layout policy (mm/)
  kernel  processes, exec, system calls, files, the shell (kernel/ but the core)

A layer uses the ones below it. The arch (arch/, boot/, drivers/, include/arch/,
include/drivers/) stands beside them: generic code calls it through include/arch/*.h, and it
calls back into the layers (kernel_main, printk, pt_map), so it is left out of the graph.

A file's layer is its directory's, except the core's files, which live in kernel/ and include/.
A header in include/ belongs to the layer of the code that implements it."""

import os

LAYERS = ("lib", "core", "mm", "kernel")

# The core: kernel/ files and include/ headers (by name, wherever include/ groups them) below mm.
# Keep it small.
CORE_SOURCES = {
    "kernel/printk.c", "kernel/panic.c", "kernel/console.c", "kernel/random.c",
    "kernel/sysctl.c", "kernel/proc_dointvec.c", "kernel/boot.c", "kernel/boot_dtb.c",
    "kernel/cmdline.c", "kernel/initrd.c",
}
CORE_HEADERS = {"kernel.h", "console.h", "random.h", "sysctl.h", "boot.h", "sections.h",
                "shell.h", "selftest.h", "cred.h", "utsname.h"}
MM_HEADERS = {"mm.h", "pmm.h", "pgtable.h", "layout.h", "fault.h"}
LIB_HEADERS = {"types.h"}
ARCH_DIRS = ("arch/", "boot/", "drivers/", "include/arch/", "include/drivers/",
             "include/asm/")


def layer_of(path):
    """The layer of a repository-relative path, 'arch', or None (not kernel code)."""
    if path.startswith(ARCH_DIRS):
        return "arch"
    if path.startswith("include/"):
        name = os.path.basename(path)
        if path.startswith("include/lib/") or name in LIB_HEADERS:
            return "lib"
        if name in CORE_HEADERS:
            return "core"
        if path.startswith("include/mm/") or name in MM_HEADERS:
            return "mm"
        return "kernel"
    if path.startswith("lib/"):
        return "lib"
    if path in CORE_SOURCES:
        return "core"
    if path.startswith("mm/"):
        return "mm"
    if path.startswith("kernel/"):
        return "kernel"
    return None


def group_of_header(path):
    """Where tools/regroup-includes.py moves an include/ header: include/<group>/NAME.h, or
    None where it stays (already grouped: lib/, arch/, drivers/)."""
    if not path.startswith("include/") or path.count("/") != 1:
        return None
    layer = layer_of(path)
    # The core's headers are the kernel's own: grouped with it (the layers check knows them).
    return {"core": "kernel", "kernel": "kernel", "mm": "mm", "lib": "lib"}[layer]


def source_files(root):
    """Every C source and header of the layers and the arch, repository-relative."""
    out = []
    for top in ("lib", "mm", "kernel", "include", "arch", "boot", "drivers"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h", ".S")):
                    out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return out
