/* arm64 address-space constants: see include/arch/memory.h for the contract.
 *
 * The kernel half is TTBR1's range, [PAGE_OFFSET, 2^64). Its bottom is the linear map of RAM
 * (VA = PAGE_OFFSET + (PA - PHYS_OFFSET)), and the kernel image sits inside it at its load
 * address, so one formula serves both __pa(image symbol) and __pa(linear address). The top 1 GiB
 * is the device window: PA [0, 1 GiB) of the virt machine's MMIO at IO_VIRT_BASE + PA.
 *
 * Usable from C, assembly and the preprocessed linker script (no casts outside C). */
#ifndef RNDBITS_ASM_ARM64_MEMORY_H
#define RNDBITS_ASM_ARM64_MEMORY_H

#if defined(__ASSEMBLER__) || defined(LINKER_SCRIPT)
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (_UL(1) << PAGE_SHIFT)
#define VA_BITS CONFIG_VA_BITS

/* Start of the TTBR1 range: 0xFFFF...FFFF << VA_BITS. */
#define PAGE_OFFSET (_UL(0xffffffffffffffff) << VA_BITS)
/* Where RAM starts on QEMU virt; QEMU puts the DTB here when the image loads above 1 MiB. */
#define PHYS_OFFSET _UL(0x40000000)
/* The image loads 4 MiB into RAM, 2 MiB aligned for the boot blocks. Below it the boot tables
 * map the DTB (at most 1 MiB: QEMU's) and the room pmm_init puts the frame bitmap and owner
 * counts in before arch_mmu_init maps the rest of RAM: up to 2.125 MiB for the 4 GiB of 4K
 * frames LINEAR_MAP_MAX allows (1 bit and 2 bytes a frame). At 2 MiB, 2 GiB of RAM was enough
 * to put them above the image, where nothing was mapped yet. */
#define KERNEL_LOAD_OFFSET _UL(0x400000)
#define KERNEL_PHYS_BASE (PHYS_OFFSET + KERNEL_LOAD_OFFSET)
#define KERNEL_VIRT_BASE (PAGE_OFFSET + KERNEL_LOAD_OFFSET)

/* The linear map never grows past this (the boot mapping covers exactly this much), which keeps
 * it clear of the device window even with VA_BITS 36. */
#define LINEAR_MAP_MAX (_UL(4) << 30)
/* Device window: the top 1 GiB of the address space maps PA [0, 1 GiB) as device memory. */
#define IO_VIRT_BASE _UL(0xffffffffc0000000)
#define IO_WINDOW_SIZE (_UL(1) << 30)
#define IO_ADDRESS(pa) (IO_VIRT_BASE + (pa))

/* Native tasks: the whole TTBR0 range. */
#define TASK_SIZE (_UL(1) << VA_BITS)
#define STACK_TOP TASK_SIZE
#define STACK_RND_MASK (_UL(0x3ffff) >> (PAGE_SHIFT - 12))

/* AArch32 tasks: 4 GiB less a page; the stack ends below the AArch32 vectors page. */
#define TASK_SIZE_COMPAT (_UL(0x100000000) - PAGE_SIZE)
#define STACK_TOP_COMPAT _UL(0xffff0000)
#define STACK_RND_MASK_COMPAT (_UL(0x7ff) >> (PAGE_SHIFT - 12))

#if !defined(__ASSEMBLER__) && !defined(LINKER_SCRIPT)
#define __pa(va) ((phys_addr_t)((uintptr_t)(va) - PAGE_OFFSET + PHYS_OFFSET))
#define __va(pa) ((void *)(uintptr_t)((phys_addr_t)(pa) - PHYS_OFFSET + PAGE_OFFSET))
#endif

#endif
