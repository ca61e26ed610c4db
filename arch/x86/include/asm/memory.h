/* x86 address-space constants: see include/arch/memory.h for the contract. */
#ifndef RNDBITS_ASM_X86_MEMORY_H
#define RNDBITS_ASM_X86_MEMORY_H

#ifdef CONFIG_64BIT
#include <asm/memory_64.h>
#else
#include <asm/memory_32.h>
#endif

#endif
