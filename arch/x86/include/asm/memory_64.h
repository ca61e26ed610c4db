/* x86_64 address-space constants (include/arch/memory.h is the contract), with Linux's layout:
 * a 47-bit user half, the direct map of all RAM at PAGE_OFFSET and the kernel image in the top
 * 2 GiB (-mcmodel=kernel), linked at __START_KERNEL_map + its physical address. */
#ifndef RNDBITS_ASM_X86_MEMORY_64_H
#define RNDBITS_ASM_X86_MEMORY_64_H

#define PAGE_SHIFT CONFIG_PAGE_SHIFT

/* Physical load address of the image (multiboot loads it there; linker/x86_64.ld). */
#define X86_KERNEL_PHYS 0x00100000

#ifdef __ASSEMBLER__
#define PAGE_SIZE (1 << PAGE_SHIFT)
#define PAGE_OFFSET 0xFFFF888000000000
#define __START_KERNEL_map 0xFFFFFFFF80000000
#else
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_OFFSET ((uintptr_t)0xFFFF888000000000UL)
#define __START_KERNEL_map ((uintptr_t)0xFFFFFFFF80000000UL)

/* The direct map is 64 TiB in Linux; RAM beyond it could not be mapped. */
#define X86_DIRECT_MAP_SIZE (1UL << 46)

#define TASK_SIZE (((uintptr_t)1 << 47) - 4096)
#define STACK_TOP TASK_SIZE
#define STACK_RND_MASK 0x3fffffUL

/* ia32 tasks: the last page below 4 GiB stays free, like Linux's IA32_PAGE_OFFSET. */
#define TASK_SIZE_COMPAT ((uintptr_t)0xFFFFE000UL)
#define STACK_TOP_COMPAT TASK_SIZE_COMPAT
#define STACK_RND_MASK_COMPAT 0x7ffUL

#define __va(pa) ((void *)((uintptr_t)(pa) + PAGE_OFFSET))
/* The image has two aliases: its link address in the top 2 GiB and its direct-map address. */
#define __pa(va)                                                                            \
	((phys_addr_t)((uintptr_t)(va) >= __START_KERNEL_map                                \
			       ? (uintptr_t)(va) - __START_KERNEL_map                       \
			       : (uintptr_t)(va) - PAGE_OFFSET))
#endif

#endif
