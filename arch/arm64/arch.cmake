# arm64: sources, the preprocessed linker script (the link address depends on VA_BITS) and link
# flags for rndbits.elf.
file(GLOB RNDBITS_ARM64_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/arch/arm64/*.c ${CMAKE_SOURCE_DIR}/arch/arm64/*.S
     ${CMAKE_SOURCE_DIR}/boot/arm64/*.S)
target_sources(rndbits.elf PRIVATE ${RNDBITS_ARM64_SOURCES})

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

# The boot page tables are made at build time (tools/arm64_boot_tables/boot_tables.h): a host
# tool, built here for this preset from the kernel's own mapper (mm/pgtable.c over
# arch/arm64/pte.c, with this preset's config.h), reads the linked image's symbols and writes
# the contents of its .boot_tables section, which objcopy puts in place. Both run after every
# link; if either fails, make deletes rndbits.elf (.DELETE_ON_ERROR), so no image without its
# tables survives. Three groups of sources, each with its own view: build.c and pte.c the
# kernel's address map (asm/memory.h); ram.c and pgtable.c the section as their RAM (the host
# tests' stand-in asm/memory.h); main.c the host's <elf.h>, which include/elf.h would hide.
find_program(RNDBITS_HOST_CC NAMES cc gcc REQUIRED)
set(A64_BT_SRC ${CMAKE_SOURCE_DIR}/tools/arm64_boot_tables)
set(A64_BT_DIR ${CMAKE_BINARY_DIR}/arm64_boot_tables)
set(A64_BT_TOOL ${A64_BT_DIR}/arm64_boot_tables)
set(A64_BT_FLAGS -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter
    -include ${RNDBITS_GEN}/config.h)
file(GLOB A64_BT_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/*.h
     ${CMAKE_SOURCE_DIR}/include/arch/*.h ${CMAKE_SOURCE_DIR}/include/lib/*.h
     ${CMAKE_SOURCE_DIR}/arch/arm64/include/asm/*.h ${CMAKE_SOURCE_DIR}/tests/host/fake/asm/*.h
     ${A64_BT_SRC}/*.h)
file(MAKE_DIRECTORY ${A64_BT_DIR})
add_custom_command(OUTPUT ${A64_BT_TOOL}
  COMMAND ${RNDBITS_HOST_CC} ${A64_BT_FLAGS}
          -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/arch/arm64/include
          -c ${A64_BT_SRC}/build.c ${CMAKE_SOURCE_DIR}/arch/arm64/pte.c
  COMMAND ${RNDBITS_HOST_CC} ${A64_BT_FLAGS}
          -I${CMAKE_SOURCE_DIR}/tests/host/fake -I${CMAKE_SOURCE_DIR}/include
          -c ${A64_BT_SRC}/ram.c ${CMAKE_SOURCE_DIR}/mm/pgtable.c
  COMMAND ${RNDBITS_HOST_CC} ${A64_BT_FLAGS} -idirafter ${CMAKE_SOURCE_DIR}/include
          -c ${A64_BT_SRC}/main.c
  COMMAND ${RNDBITS_HOST_CC} build.o pte.o ram.o pgtable.o main.o -o ${A64_BT_TOOL}
  DEPENDS ${A64_BT_SRC}/build.c ${A64_BT_SRC}/ram.c ${A64_BT_SRC}/main.c
          ${CMAKE_SOURCE_DIR}/arch/arm64/pte.c ${CMAKE_SOURCE_DIR}/mm/pgtable.c
          ${A64_BT_HEADERS} ${RNDBITS_GEN}/config.h
  WORKING_DIRECTORY ${A64_BT_DIR}
  COMMENT "Building the host tool arm64_boot_tables for ${RNDBITS_PRESET}"
  VERBATIM)
add_custom_target(rndbits_arm64_boot_tables DEPENDS ${A64_BT_TOOL})
add_dependencies(rndbits.elf rndbits_arm64_boot_tables)
# A new tool relinks the image, so that the tables in it are the new tool's.
set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${A64_BT_TOOL})
add_custom_command(TARGET rndbits.elf POST_BUILD
  COMMAND ${A64_BT_TOOL} $<TARGET_FILE:rndbits.elf> ${A64_BT_DIR}/boot_tables.bin
  COMMAND ${CMAKE_OBJCOPY} --update-section .boot_tables=${A64_BT_DIR}/boot_tables.bin
          $<TARGET_FILE:rndbits.elf>
  BYPRODUCTS ${A64_BT_DIR}/boot_tables.bin
  COMMENT "Writing the boot page tables into rndbits.elf"
  VERBATIM)
