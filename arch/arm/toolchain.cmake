# ARMv7-A kernel (and AArch32 user code) with Debian's gcc-arm-none-eabi.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/toolchain-common.cmake)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(RNDBITS_TARGET_FLAGS -march=armv7-a -marm -mfloat-abi=soft)
