/* The system call numbers of AArch32 compat tasks: the ARM EABI's, kept in one place. */
#ifndef RNDBITS_ASM_ARM64_UNISTD32_H
#define RNDBITS_ASM_ARM64_UNISTD32_H

#include "../../../arm/include/asm/unistd.h"

#endif
