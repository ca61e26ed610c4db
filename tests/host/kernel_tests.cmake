# Host tests of kernel logic (included from tests/host/CMakeLists.txt): the sysctl integer
# handler, the ASLR layout arithmetic of every preset, the VMA layer on a fake arch, and the
# CSPRNG's seeding.
rndbits_host_test(sysctl SOURCES test_sysctl.c
                  UNDER_TEST ${HOST_DOINTVEC}
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)

foreach(preset ${HOST_PRESET_NAMES})
  set(isa ${HOST_PRESET_ISA_${preset}})
  rndbits_host_test(layout.${preset} SOURCES test_layout.c
                    UNDER_TEST ${RNDBITS_ROOT}/mm/layout.c ${HOST_DOINTVEC}
                    CONFIG ${CMAKE_BINARY_DIR}/presets/${preset}/config.h
                    INCLUDES ${RNDBITS_ROOT}/arch/${isa}/include)
endforeach()

foreach(preset arm64-4k-va48 arm-vmsplit-1g x86 x86_64)
  set(isa ${HOST_PRESET_ISA_${preset}})
  rndbits_host_test(vma.${preset} SOURCES test_vma.c
                    UNDER_TEST ${RNDBITS_ROOT}/mm/vma.c ${RNDBITS_ROOT}/mm/layout.c
                               ${HOST_DOINTVEC}
                    CONFIG ${CMAKE_BINARY_DIR}/presets/${preset}/config.h
                    INCLUDES ${RNDBITS_ROOT}/arch/${isa}/include)
endforeach()

rndbits_host_test(stats SOURCES test_stats.c UNDER_TEST ${RNDBITS_ROOT}/lib/stats.c)

# The kernel CSPRNG's seeding: the draws follow from exactly what random_init read at boot.
rndbits_host_test(random SOURCES test_random.c ${HOST_PRINTK} UNDER_TEST ${RNDBITS_ROOT}/kernel/random.c
                  ${RNDBITS_ROOT}/kernel/boot.c ${RNDBITS_ROOT}/kernel/cmdline.c
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)

# kernel/fd.c's descriptor tables, with the file namespace and user memory stubbed.
rndbits_host_test(fd SOURCES test_fd.c UNDER_TEST ${RNDBITS_ROOT}/kernel/fd.c ${HOST_PATH}
                  INCLUDES ${RNDBITS_ROOT}/arch/arm64/include
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)

# The file side together: initramfs, the namespace, /proc/PID/maps, descriptors and the file
# system calls, with frames, sysctls, processes and user memory stubbed; once per stat layout
# family (arm64: asm-generic stat + arm's stat64; x86_64: its stat + i386's stat64).
foreach(variant arm64:arm64-4k-va48 x86:x86_64)
  string(REPLACE ":" ";" v ${variant})
  list(GET v 0 isa)
  list(GET v 1 preset)
  rndbits_host_test(files.${isa} SOURCES test_files.c ${HOST_FILES} ${HOST_PRINTK}
                    UNDER_TEST ${RNDBITS_ROOT}/kernel/initramfs.c ${RNDBITS_ROOT}/kernel/procfs.c
                    ${RNDBITS_ROOT}/kernel/proc_maps.c ${RNDBITS_ROOT}/kernel/fd.c
                    ${RNDBITS_ROOT}/kernel/fs_syscalls.c ${RNDBITS_ROOT}/drivers/tty_ioctl.c
                    ${HOST_CPIO} ${HOST_PATH}
                    INCLUDES ${RNDBITS_ROOT}/arch/${isa}/include
                    CONFIG ${CMAKE_BINARY_DIR}/presets/${preset}/config.h)
  target_compile_definitions(test_files.${isa} PRIVATE MKCPIO="${RNDBITS_ROOT}/tools/mkcpio.py")
endforeach()

# exec: ELF checks and segment planning (kernel/elf.c), and the initial stack's layout
# (kernel/exec_stack.c), byte for byte.
rndbits_host_test(elf SOURCES test_elf.c ${HOST_FILES} UNDER_TEST ${RNDBITS_ROOT}/kernel/elf.c
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)
rndbits_host_test(exec_stack SOURCES test_exec_stack.c UNDER_TEST ${RNDBITS_ROOT}/kernel/exec_stack.c
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)
# Where the vDSO and ARM's sigpage go (kernel/vdso_place.c): Linux 6.1's vdso_addr and
# sigpage_addr with a scripted draw.
rndbits_host_test(vdso SOURCES test_vdso.c UNDER_TEST ${RNDBITS_ROOT}/kernel/vdso_place.c)

# lib/units.c (aslr's sizes and durations) and lib/vafields.c over each page-table format's
# geometry (its real pte.c; once per format, HOST_FORMAT_PRESETS): issue 18 items 2 and 6.
rndbits_host_test(units SOURCES test_units.c UNDER_TEST ${RNDBITS_ROOT}/lib/units.c)
foreach(preset ${HOST_FORMAT_PRESETS})
  set(isa ${HOST_PRESET_ISA_${preset}})
  rndbits_host_test(vafields.${preset} SOURCES test_vafields.c
                    UNDER_TEST ${HOST_VAFIELDS} ${HOST_PTE_${preset}}
                    CONFIG ${CMAKE_BINARY_DIR}/presets/${preset}/config.h
                    INCLUDES ${RNDBITS_ROOT}/arch/${isa}/include)
  target_compile_options(test_vafields.${preset} PRIVATE "SHELL:-include ${CMAKE_BINARY_DIR}/presets/${preset}/config.h")
endforeach()


# The fatal-user-fault reports' pure formatters (x86 show_opcodes, arm64 fault names, pstate and
# register lines), against Linux 6.1's formats written out (docs/faults.md).
rndbits_host_test(signal_fmt SOURCES test_signal_fmt.c
                  UNDER_TEST ${RNDBITS_ROOT}/arch/x86/signal_fmt.c ${RNDBITS_ROOT}/arch/arm64/signal_fmt.c
                  INCLUDES ${RNDBITS_ROOT})
# Signals (kernel/signal.c): delivery rules, default actions, masks, restarts, siginfo, with the
# arch frame and process_exit stubbed.
rndbits_host_test(signal SOURCES test_signal.c UNDER_TEST ${RNDBITS_ROOT}/kernel/signal.c
                  INCLUDES ${RNDBITS_ROOT}/arch/arm64/include
                  CONFIG ${CMAKE_BINARY_DIR}/presets/arm64-4k-va48/config.h)
