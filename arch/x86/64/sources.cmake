# x86_64: sources, linker script and post-link steps for rndbits.elf (included by arch/x86/arch.cmake).
file(GLOB RNDBITS_X86_64_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/arch/x86/64/*.c ${CMAKE_SOURCE_DIR}/arch/x86/64/*.S
     ${CMAKE_SOURCE_DIR}/boot/x86/64/*.S)
target_sources(rndbits.elf PRIVATE ${RNDBITS_X86_64_SOURCES})

# The link map needs the preset's constants (asm/memory.h), so it goes through the preprocessor.
set(RNDBITS_X86_64_LDS_IN ${CMAKE_SOURCE_DIR}/linker/x86_64.ld)
set(RNDBITS_X86_64_LDS ${CMAKE_BINARY_DIR}/x86_64.lds)
add_custom_command(
  OUTPUT ${RNDBITS_X86_64_LDS}
  COMMAND ${CMAKE_C_COMPILER} -E -P -undef -x assembler-with-cpp -D__ASSEMBLER__ -DLINKER_SCRIPT
          -include ${RNDBITS_GEN}/config.h
          -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/arch/x86/include
          ${RNDBITS_X86_64_LDS_IN} -o ${RNDBITS_X86_64_LDS}
  DEPENDS ${RNDBITS_X86_64_LDS_IN} ${CMAKE_SOURCE_DIR}/linker/tables.ld ${RNDBITS_GEN}/config.h
          ${CMAKE_SOURCE_DIR}/arch/x86/include/asm/memory.h
          ${CMAKE_SOURCE_DIR}/arch/x86/include/asm/memory_64.h
  COMMENT "Preprocessing linker/x86_64.ld")
add_custom_target(rndbits_x86_64_lds DEPENDS ${RNDBITS_X86_64_LDS})
add_dependencies(rndbits.elf rndbits_x86_64_lds)
set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${RNDBITS_X86_64_LDS})
target_link_options(rndbits.elf PRIVATE -no-pie -T ${RNDBITS_X86_64_LDS}
                    -Wl,-z,max-page-size=4096)

# The page tables made at build time (tools/boot_tables/x86_64.c): the boot root and the
# kernel's with the image, into boot/x86/64/head.S's .boot_tables section. Before the ELF32 copy
# below: POST_BUILD steps run in the order they are added, and the copy must carry the tables.
include(${CMAKE_SOURCE_DIR}/tools/boot_tables/boot_tables.cmake)
rndbits_boot_tables(x86_64 x86/64 ELFCLASS64 EM_X86_64)

# QEMU's multiboot loader refuses ELF64: give it the same image as ELF32. The loader only uses
# the program headers' physical addresses and the entry point, which are all below 4 GiB (the
# 32-bit entry at 1 MiB); the high virtual addresses truncate harmlessly. Symbols and debug
# information would truncate the same way, so the copy has none: rndbits.elf, the ELF64, is the
# one for gdb.
set(RNDBITS_X86_64_MULTIBOOT ${CMAKE_BINARY_DIR}/rndbits-multiboot.elf)
add_custom_command(TARGET rndbits.elf POST_BUILD
  COMMAND ${CMAKE_OBJCOPY} -O elf32-i386 --strip-all $<TARGET_FILE:rndbits.elf> ${RNDBITS_X86_64_MULTIBOOT}
  BYPRODUCTS ${RNDBITS_X86_64_MULTIBOOT}
  COMMENT "Converting to ELF32 for multiboot: rndbits-multiboot.elf")
