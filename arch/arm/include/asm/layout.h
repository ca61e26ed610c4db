/* ARM user address-space layout constants (Linux's processor.h / elf.h values). */
#ifndef RNDBITS_ASM_ARM_LAYOUT_H
#define RNDBITS_ASM_ARM_LAYOUT_H

#include <asm/memory.h>

#define ELF_MACHINE 40 /* EM_ARM */

/* Bottom-up mmap starts a third of the way up, 16 MiB aligned. */
#define TASK_UNMAPPED_BASE_FOR(task_size) ((((task_size) / 3) + (16UL << 20) - 1) & ~((16UL << 20) - 1))
/* ELF_ET_DYN_BASE (asm/elf.h): 4 MiB, where a static PIE's brk starts. */
#define ELF_ET_DYN_BASE_FOR(compat) 0x400000UL
/* Generic (arm, arm64) code falls back to bottom-up when the stack rlimit is unlimited. */
#define MMAP_LEGACY_IF_UNLIMITED_STACK 1
#define BRK_RND_RANGE(compat) (32UL << 20)

/* arch_align_stack (Linux 6.1): none on 32-bit ARM (the generic one leaves sp as it is), so
 * the initial sp keeps the strings' alignment and only STACK_ROUND's 16 bytes apply. */
#define ARCH_ALIGN_STACK_RANGE 0ULL

#endif
