# The ASLR path of exec under gdb, on one preset per ISA's debug build (tests/CMakeLists.txt,
# label gdb; qemu/rndbits_qemu/gdb.py plays it and checks every bt and finish, docs/debugging.md).
# The kernel entry: arch_mmap_rnd hit on `run probe`, its backtrace ending in the boot code, and
# finish returning its value. The exception entries: the running probe's first page fault and its
# brk system call, their backtraces ending in the exception entry. rnd-layout
# (qemu/gdb/rndbits.gdb) shows the layout exec drew.
#
# console: run probe
# expect: ^Breakpoint 1, arch_mmap_rnd \(
# expect: ^Value returned is
# expect: ^Temporary breakpoint 2, handle_mm_fault \(
# expect: ^Temporary breakpoint 3, sys_brk \(
# expect: ^Value returned is
# expect: ^pid 2 probe, .*running
# expect: ^  mmap_base +0x0*[1-9a-f][0-9a-f]*000  random offset \d+ pages \(range.bits [1-9]
# expect: ^  vm\.mmap_rnd(_compat)?_bits = \d+, kernel\.randomize_va_space = 2
break arch_mmap_rnd
continue
bt 25
finish
delete
tbreak handle_mm_fault
continue
bt 25
tbreak sys_brk
continue
bt 25
finish
rnd-layout
detach
