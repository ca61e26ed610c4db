# x86: shared files in arch/x86/, the rest per width in arch/x86/32 (i386) or arch/x86/64 (x86_64).
# Each width's sources.cmake adds its sources, linker script and post-link steps to rndbits.elf.
if(RNDBITS_BITS EQUAL 64)
  set(RNDBITS_X86_DIR ${CMAKE_SOURCE_DIR}/arch/x86/64)
else()
  set(RNDBITS_X86_DIR ${CMAKE_SOURCE_DIR}/arch/x86/32)
endif()
file(GLOB RNDBITS_X86_COMMON CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/arch/x86/*.c ${CMAKE_SOURCE_DIR}/arch/x86/*.S)
target_sources(rndbits.elf PRIVATE ${RNDBITS_X86_COMMON})
include(${RNDBITS_X86_DIR}/sources.cmake)
