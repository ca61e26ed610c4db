/* arm64 user address-space layout constants (Linux's processor.h / elf.h values). */
#ifndef RNDBITS_ASM_ARM64_LAYOUT_H
#define RNDBITS_ASM_ARM64_LAYOUT_H

#include <asm/memory.h>

#define ELF_MACHINE 183        /* EM_AARCH64 */
#define ELF_MACHINE_COMPAT 40  /* EM_ARM */

/* Bottom-up mmap starts a quarter of the way up the task's own address space. */
#define TASK_UNMAPPED_BASE_FOR(task_size) (((task_size) / 4 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
/* ELF_ET_DYN_BASE (asm/elf.h): two thirds of the native task size; COMPAT_ELF_ET_DYN_BASE
 * 4 MiB, as on 32-bit ARM. A static PIE's brk starts there. */
#define ELF_ET_DYN_BASE_FOR(compat) ((compat) ? _UL(0x400000) : 2 * TASK_SIZE / 3)
/* brk randomization range (arch_randomize_brk). */
/* Generic (arm, arm64) code falls back to bottom-up when the stack rlimit is unlimited. */
#define MMAP_LEGACY_IF_UNLIMITED_STACK 1
#define BRK_RND_RANGE(compat) ((compat) ? _UL(32) << 20 : _UL(1) << 30)

/* arch_align_stack (Linux 6.1): with randomization, sp is lowered by a random amount below
 * this many bytes, then 16-byte aligned; on arm64 the kernel's page (native and compat alike:
 * 4, 16 or 64 KiB). */
#define ARCH_ALIGN_STACK_RANGE ((uint64_t)PAGE_SIZE)

#endif
