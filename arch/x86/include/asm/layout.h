/* x86 user address-space layout constants (Linux's processor.h / elf.h values). */
#ifndef RNDBITS_ASM_X86_LAYOUT_H
#define RNDBITS_ASM_X86_LAYOUT_H

#include <asm/memory.h>

#ifdef CONFIG_64BIT
#define ELF_MACHINE 62        /* EM_X86_64 */
#define ELF_MACHINE_COMPAT 3  /* EM_386 */
#else
#define ELF_MACHINE 3         /* EM_386 */
#endif

/* Bottom-up mmap starts a third of the way up the task's address space. */
#define TASK_UNMAPPED_BASE_FOR(task_size) ((((task_size) / 3) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
/* x86 keeps top-down even with an unlimited stack rlimit. */
#define MMAP_LEGACY_IF_UNLIMITED_STACK 0

/* ELF_ET_DYN_BASE (asm/elf.h), where a static PIE's brk starts: two thirds of the address space
 * for x86_64 tasks, 4 MiB on i386; an ia32 task on x86_64 gets COMPAT_ELF_ET_DYN_BASE,
 * TASK_UNMAPPED_BASE + 16 MiB (0x56555000, compat_binfmt_elf). */
#ifdef CONFIG_64BIT
#define ELF_ET_DYN_BASE_FOR(compat) \
	((compat) ? TASK_UNMAPPED_BASE_FOR(TASK_SIZE_COMPAT) + 0x1000000UL : TASK_SIZE / 3 * 2)
#define BRK_RND_RANGE(compat) ((compat) ? 32UL << 20 : 1UL << 30)
#else
#define ELF_ET_DYN_BASE_FOR(compat) 0x400000UL
#define BRK_RND_RANGE(compat) (32UL << 20)
#endif

/* arch_align_stack (Linux 6.1): with randomization, sp is lowered by a random amount below
 * this many bytes, then 16-byte aligned; 8 KiB on x86 (i386, x86_64 and ia32 compat alike). */
#define ARCH_ALIGN_STACK_RANGE 8192ULL

#endif
