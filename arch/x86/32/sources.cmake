# i386: 32-bit sources, the boot code, the linker script and the link flags.
target_sources(rndbits.elf PRIVATE
  ${CMAKE_SOURCE_DIR}/boot/x86/32/head.S
  ${CMAKE_CURRENT_LIST_DIR}/entry.S
  ${CMAKE_CURRENT_LIST_DIR}/gdt.c
  ${CMAKE_CURRENT_LIST_DIR}/mmu.c
  ${CMAKE_CURRENT_LIST_DIR}/pte.c
  ${CMAKE_CURRENT_LIST_DIR}/setup.c
  ${CMAKE_CURRENT_LIST_DIR}/signal.c
  ${CMAKE_CURRENT_LIST_DIR}/switch.S
  ${CMAKE_CURRENT_LIST_DIR}/syscall_table.c
  ${CMAKE_CURRENT_LIST_DIR}/task.c
  ${CMAKE_CURRENT_LIST_DIR}/trap.c
  ${CMAKE_CURRENT_LIST_DIR}/user.c)

# The link map takes the preset's constants (asm/memory.h) and the shared linker/tables.ld, so
# it goes through the preprocessor.
set(RNDBITS_X86_32_LDS_IN ${CMAKE_SOURCE_DIR}/linker/x86.ld)
set(RNDBITS_X86_32_LDS ${CMAKE_BINARY_DIR}/x86.lds)
add_custom_command(
  OUTPUT ${RNDBITS_X86_32_LDS}
  COMMAND ${CMAKE_C_COMPILER} -E -P -undef -x assembler-with-cpp -D__ASSEMBLER__
          -include ${RNDBITS_GEN}/config.h
          -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/arch/x86/include
          ${RNDBITS_X86_32_LDS_IN} -o ${RNDBITS_X86_32_LDS}
  DEPENDS ${RNDBITS_X86_32_LDS_IN} ${CMAKE_SOURCE_DIR}/linker/tables.ld ${RNDBITS_GEN}/config.h
          ${CMAKE_SOURCE_DIR}/arch/x86/include/asm/memory.h
          ${CMAKE_SOURCE_DIR}/arch/x86/include/asm/memory_32.h
  COMMENT "Preprocessing linker/x86.ld")
add_custom_target(rndbits_x86_32_lds DEPENDS ${RNDBITS_X86_32_LDS})
add_dependencies(rndbits.elf rndbits_x86_32_lds)
set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${RNDBITS_X86_32_LDS})
target_link_options(rndbits.elf PRIVATE -T ${RNDBITS_X86_32_LDS} -Wl,-melf_i386)

# The page tables made at build time (tools/boot_tables/x86_32.c): the boot page directory and
# the kernel's with the image, into boot/x86/32/head.S's .boot_tables section.
include(${CMAKE_SOURCE_DIR}/tools/boot_tables/boot_tables.cmake)
rndbits_boot_tables(x86_32 x86/32 ELFCLASS32 EM_386)
