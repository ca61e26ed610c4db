# i386 kernel (and ia32 user code) with Debian's gcc-i686-linux-gnu (used freestanding).
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/toolchain-common.cmake)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER i686-linux-gnu-gcc)
# Debian's i686 gcc defaults to PIE; the kernel is linked at fixed addresses.
set(RNDBITS_TARGET_FLAGS -m32 -march=i686 -fno-pic -fno-pie -mgeneral-regs-only)
