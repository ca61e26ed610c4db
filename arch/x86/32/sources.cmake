# i386: 32-bit sources, the boot code, the linker script and the link flags.
target_sources(rndbits.elf PRIVATE
  ${CMAKE_SOURCE_DIR}/boot/x86/32/head.S
  ${CMAKE_CURRENT_LIST_DIR}/entry.S
  ${CMAKE_CURRENT_LIST_DIR}/gdt.c
  ${CMAKE_CURRENT_LIST_DIR}/mmu.c
  ${CMAKE_CURRENT_LIST_DIR}/pte.c
  ${CMAKE_CURRENT_LIST_DIR}/setup.c
  ${CMAKE_CURRENT_LIST_DIR}/trap.c
  ${CMAKE_CURRENT_LIST_DIR}/user.c)
set(RNDBITS_X86_32_LDS ${CMAKE_SOURCE_DIR}/linker/x86.ld)
target_link_options(rndbits.elf PRIVATE -T${RNDBITS_X86_32_LDS} -Wl,-melf_i386)
set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${RNDBITS_X86_32_LDS})
