# The kernel's first page tables made at build time (tools/boot_tables/boot_tables.h): a host
# tool, built here for this preset from the kernel's own mapper (mm/pgtable.c over the ISA's
# pte.c, with this preset's config.h) and the ISA's list of mappings (tools/boot_tables/<isa>.c),
# reads the linked image's symbols and writes the contents of its .boot_tables section, which
# objcopy puts in place. Both run after every link; if either fails, make deletes rndbits.elf
# (.DELETE_ON_ERROR), so no image without its tables survives. Three groups of sources, each
# with its own view: <isa>.c and pte.c the kernel's address map (asm/memory.h); ram.c and
# pgtable.c the section as their RAM (the host tests' stand-in asm/memory.h); main.c the
# host's <elf.h>, which include/kernel/elf.h would hide.
#
# rndbits_boot_tables(PART ISA_DIR ELF_CLASS ELF_MACHINE): PART names the ISA's part
# (tools/boot_tables/PART.c: arm, arm64, x86_32, x86_64), ISA_DIR the directory under arch/ that holds
# its pte.c (arm, arm64, x86/32, x86/64; the headers are those of arch/<ISA>/include); ELF_CLASS and
# ELF_MACHINE the <elf.h> constants the linked image must carry (ELFCLASS32 EM_ARM, ELFCLASS64
# EM_AARCH64, ELFCLASS32 EM_386, ELFCLASS64 EM_X86_64).
function(rndbits_boot_tables part isa_dir elf_class elf_machine)
  string(REGEX REPLACE "/.*" "" isa ${isa_dir})
  set(pte ${CMAKE_SOURCE_DIR}/arch/${isa_dir}/pte.c)
  find_program(RNDBITS_HOST_CC NAMES cc gcc REQUIRED)
  set(src ${CMAKE_SOURCE_DIR}/tools/boot_tables)
  set(dir ${CMAKE_BINARY_DIR}/boot_tables)
  set(tool ${dir}/boot_tables)
  set(flags -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter
      -include ${RNDBITS_GEN}/config.h)
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/*.h
       ${CMAKE_SOURCE_DIR}/include/arch/*.h ${CMAKE_SOURCE_DIR}/include/lib/*.h
       ${CMAKE_SOURCE_DIR}/arch/${isa}/include/asm/*.h ${CMAKE_SOURCE_DIR}/tests/host/fake/asm/*.h
       ${src}/*.h)
  file(MAKE_DIRECTORY ${dir})
  add_custom_command(OUTPUT ${tool}
    COMMAND ${RNDBITS_HOST_CC} ${flags}
            -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/arch/${isa}/include
            -c ${src}/${part}.c ${src}/map.c ${pte}
    COMMAND ${RNDBITS_HOST_CC} ${flags}
            -I${CMAKE_SOURCE_DIR}/tests/host/fake -I${CMAKE_SOURCE_DIR}/include
            -c ${src}/ram.c ${CMAKE_SOURCE_DIR}/mm/pgtable.c ${CMAKE_SOURCE_DIR}/kernel/printk.c
    COMMAND ${RNDBITS_HOST_CC} ${flags} -idirafter ${CMAKE_SOURCE_DIR}/include
            -DBOOT_TABLES_ELF_CLASS=${elf_class} -DBOOT_TABLES_ELF_MACHINE=${elf_machine}
            -c ${src}/main.c
    COMMAND ${RNDBITS_HOST_CC} ${part}.o map.o pte.o ram.o pgtable.o printk.o main.o -o ${tool}
    DEPENDS ${src}/${part}.c ${src}/map.c ${src}/ram.c ${src}/main.c
            ${pte} ${CMAKE_SOURCE_DIR}/mm/pgtable.c
            ${CMAKE_SOURCE_DIR}/kernel/printk.c
            ${headers} ${RNDBITS_GEN}/config.h
    WORKING_DIRECTORY ${dir}
    COMMENT "Building the host tool boot_tables for ${RNDBITS_PRESET}"
    VERBATIM)
  add_custom_target(rndbits_boot_tables DEPENDS ${tool})
  add_dependencies(rndbits.elf rndbits_boot_tables)
  # A new tool relinks the image, so that the tables in it are the new tool's.
  set_property(TARGET rndbits.elf APPEND PROPERTY LINK_DEPENDS ${tool})
  add_custom_command(TARGET rndbits.elf POST_BUILD
    COMMAND ${tool} $<TARGET_FILE:rndbits.elf> ${dir}/boot_tables.bin
    COMMAND ${CMAKE_OBJCOPY} --update-section .boot_tables=${dir}/boot_tables.bin
            $<TARGET_FILE:rndbits.elf>
    BYPRODUCTS ${dir}/boot_tables.bin
    COMMENT "Writing the boot page tables into rndbits.elf"
    VERBATIM)
endfunction()
