# arm64: sources, the preprocessed linker script (the link address depends on VA_BITS) and link
# flags for rndbits.elf.
file(GLOB RNDBITS_ARM64_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/arch/arm64/*.c ${CMAKE_SOURCE_DIR}/arch/arm64/*.S
     ${CMAKE_SOURCE_DIR}/boot/arm64/*.S)
target_sources(rndbits.elf PRIVATE ${RNDBITS_ARM64_SOURCES})
# The console: the PL011 driver arm and arm64 share.
target_sources(rndbits.elf PRIVATE ${CMAKE_SOURCE_DIR}/drivers/pl011.c)
# AArch32 compat tasks use the ARM EABI's system-call table, kept once in arch/arm.
target_sources(rndbits.elf PRIVATE ${CMAKE_SOURCE_DIR}/arch/arm/syscall_table_eabi.c)

set(RNDBITS_ARM64_LDS ${CMAKE_BINARY_DIR}/kernel.ld)
add_custom_command(OUTPUT ${RNDBITS_ARM64_LDS}
  COMMAND ${CMAKE_C_COMPILER} -E -P -x c -undef -DLINKER_SCRIPT
          -include ${RNDBITS_GEN}/config.h
          -I${CMAKE_SOURCE_DIR}/arch/arm64/include -I${CMAKE_SOURCE_DIR}/include
          ${CMAKE_SOURCE_DIR}/linker/arm64.ld -o ${RNDBITS_ARM64_LDS}
  DEPENDS ${CMAKE_SOURCE_DIR}/linker/arm64.ld
          ${CMAKE_SOURCE_DIR}/linker/tables.ld
          ${CMAKE_SOURCE_DIR}/arch/arm64/include/asm/memory.h
          ${CMAKE_SOURCE_DIR}/arch/arm64/include/asm/pgtable-hwdef.h
          ${RNDBITS_GEN}/config.h
  COMMENT "Preprocessing linker/arm64.ld for ${RNDBITS_PRESET}"
  VERBATIM)
add_custom_target(rndbits_arm64_lds DEPENDS ${RNDBITS_ARM64_LDS})
add_dependencies(rndbits.elf rndbits_arm64_lds)
target_link_options(rndbits.elf PRIVATE -T ${RNDBITS_ARM64_LDS})
set_target_properties(rndbits.elf PROPERTIES LINK_DEPENDS ${RNDBITS_ARM64_LDS})

# The boot page tables are made at build time (tools/boot_tables): the image, the linear map
# below it and the PL011, from the linked image's symbols (tools/boot_tables/arm64.c).
include(${CMAKE_SOURCE_DIR}/tools/boot_tables/boot_tables.cmake)
rndbits_boot_tables(arm64 arm64 ELFCLASS64 EM_AARCH64)
