/* i386 address-space constants (include/arch/memory.h is the contract): a 3G/1G split with the
 * kernel image inside the linear map, as Linux's i386 without HIGHMEM. */
#ifndef RNDBITS_ASM_X86_MEMORY_32_H
#define RNDBITS_ASM_X86_MEMORY_32_H

#define PAGE_SHIFT CONFIG_PAGE_SHIFT

#ifdef __ASSEMBLER__
#define PAGE_SIZE (1 << PAGE_SHIFT)
#define PAGE_OFFSET CONFIG_PAGE_OFFSET
#else
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_OFFSET ((uintptr_t)CONFIG_PAGE_OFFSET)
#endif

/* The linear map covers physical [0, X86_LINEAR_MAP_SIZE) at PAGE_OFFSET. 896 MiB like Linux's
 * lowmem: RAM above it is not used (there is no HIGHMEM), and the top 128 MiB of the address
 * space stay free so that no kernel range ends at 2^32 (va + size never wraps). */
#define X86_LINEAR_MAP_SIZE 0x38000000
#define X86_LINEAR_MAP_END (PAGE_OFFSET + X86_LINEAR_MAP_SIZE)

/* The kernel image is linked at PAGE_OFFSET + 1 MiB and loaded at 1 MiB (linker/x86.ld). */
#define X86_KERNEL_PHYS 0x00100000

#ifndef __ASSEMBLER__
#define TASK_SIZE ((uintptr_t)0xC0000000UL)
#define STACK_TOP TASK_SIZE
#define STACK_RND_MASK 0x7ffUL

/* The kernel image lies inside the linear map, so one offset serves both. */
#define __va(pa) ((void *)((uintptr_t)(pa) + PAGE_OFFSET))
#define __pa(va) ((phys_addr_t)((uintptr_t)(va) - PAGE_OFFSET))
#endif

#endif
