# AArch64 kernel with Debian's gcc-aarch64-linux-gnu (used freestanding).
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/toolchain-common.cmake)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
# The kernel never touches FP/SIMD (CPACR_EL1.FPEN stays 0), so gcc must not use those registers.
set(RNDBITS_TARGET_FLAGS -mgeneral-regs-only -fno-pic -mno-outline-atomics)
