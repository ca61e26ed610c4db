# x86_64 kernel with the host gcc (used freestanding).
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/toolchain-common.cmake)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_ASM_COMPILER gcc)
set(CMAKE_OBJCOPY objcopy)
# No red zone (interrupts arrive on the same stack), no SSE (CR4.OSFXSR is 0), kernel code model.
set(RNDBITS_TARGET_FLAGS -m64 -mno-red-zone -mgeneral-regs-only -mcmodel=kernel -fno-pic -fno-pie)
