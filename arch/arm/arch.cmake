# ARMv7-A (QEMU virt, cortex-a15): sources, the preprocessed linker script, link flags.
file(GLOB RNDBITS_ARM_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/arch/arm/*.c ${CMAKE_SOURCE_DIR}/arch/arm/*.S
     ${CMAKE_SOURCE_DIR}/boot/arm/*.S)
target_sources(rndbits.elf PRIVATE ${RNDBITS_ARM_SOURCES})
# The console: the PL011 driver arm and arm64 share.
target_sources(rndbits.elf PRIVATE ${CMAKE_SOURCE_DIR}/drivers/pl011.c)

# The link map depends on PAGE_OFFSET, so it goes through the preprocessor with config.h.
set(RNDBITS_ARM_LDS ${CMAKE_BINARY_DIR}/arm.ld)
add_custom_command(OUTPUT ${RNDBITS_ARM_LDS}
  COMMAND ${CMAKE_C_COMPILER} -E -P -x assembler-with-cpp
          -include ${RNDBITS_GEN}/config.h -I${CMAKE_SOURCE_DIR}/arch/arm/include
          ${CMAKE_SOURCE_DIR}/linker/arm.ld -o ${RNDBITS_ARM_LDS}
  DEPENDS ${CMAKE_SOURCE_DIR}/linker/arm.ld ${CMAKE_SOURCE_DIR}/linker/tables.ld
          ${CMAKE_SOURCE_DIR}/arch/arm/include/asm/memory.h
          ${RNDBITS_GEN}/config.h
  COMMENT "Preprocessing linker/arm.ld for ${RNDBITS_PRESET}"
  VERBATIM)
add_custom_target(rndbits_arm_lds DEPENDS ${RNDBITS_ARM_LDS})
add_dependencies(rndbits.elf rndbits_arm_lds)
set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${RNDBITS_ARM_LDS})
target_link_options(rndbits.elf PRIVATE -T ${RNDBITS_ARM_LDS})

# The kernel half's tables for the image and the devices are made at build time
# (tools/boot_tables/arm.c), into boot/arm/head.S's .boot_tables section.
include(${CMAKE_SOURCE_DIR}/tools/boot_tables/boot_tables.cmake)
rndbits_boot_tables(arm arm ELFCLASS32 EM_ARM)
