/* ARMv7-A address-space constants: see include/arch/memory.h for the contract.
 *
 * The kernel's linear map puts RAM (physical 0x40000000 on QEMU virt) at PAGE_OFFSET, so
 * VA = PAGE_OFFSET + (PA - ARM_PHYS_OFFSET). With the 1G/3G split PAGE_OFFSET equals the RAM base
 * and the kernel runs at VA = PA. This header is also included by assembly and the linker script,
 * so it holds only macros. */
#ifndef RNDBITS_ASM_ARM_MEMORY_H
#define RNDBITS_ASM_ARM_MEMORY_H

#ifdef __ASSEMBLER__
#define ARM_UL(x) x
#else
#define ARM_UL_(x) x##UL
#define ARM_UL(x) ARM_UL_(x)
#endif

#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (ARM_UL(1) << PAGE_SHIFT)
#define PAGE_OFFSET ARM_UL(CONFIG_PAGE_OFFSET)

/* Where RAM starts on QEMU virt, and where the ELF image is loaded (at or above 0x40100000 so that
 * QEMU places the DTB at the start of RAM). */
#define ARM_PHYS_OFFSET ARM_UL(0x40000000)
#define ARM_KERNEL_LOAD_PA ARM_UL(0x40200000)
/* Constant distance between a linear-map address and its physical address. */
#define ARM_PV_OFFSET (PAGE_OFFSET - ARM_PHYS_OFFSET)

/* End of the linear map: RAM above (ARM_LOWMEM_END - PAGE_OFFSET) is not used (no highmem).
 * The 256 MiB above it hold fixed kernel mappings such as the devices. */
#define ARM_LOWMEM_END ARM_UL(0xF0000000)
/* Fixed kernel virtual addresses of the devices, the same on every split (on the 1G split the
 * physical 0x09000000 lies in the user half). Each device MiB keeps its offsets, so head.S can
 * map them with sections and mmu.c with pages at the same addresses. */
#define ARM_IO_BASE ARM_UL(0xFF000000)
#define ARM_UART_PA ARM_UL(0x09000000)
#define ARM_UART_VA ARM_IO_BASE
#define ARM_GIC_PA ARM_UL(0x08000000)
#define ARM_GIC_VA (ARM_IO_BASE + 0x100000)
#define ARM_GICD_PA ARM_GIC_PA
#define ARM_GICD_VA ARM_GIC_VA
#define ARM_GICC_PA (ARM_GIC_PA + 0x10000)
#define ARM_GICC_VA (ARM_GIC_VA + 0x10000)

/* arch/arm/include/asm/memory.h in Linux: the 16 MiB below PAGE_OFFSET are the modules area. */
#define TASK_SIZE (PAGE_OFFSET - ARM_UL(0x01000000))
#define STACK_TOP TASK_SIZE
#define STACK_RND_MASK ARM_UL(0x7ff)

#ifndef __ASSEMBLER__
#define __va(pa) ((void *)(uintptr_t)((phys_addr_t)(pa) - ARM_PHYS_OFFSET + PAGE_OFFSET))
#define __pa(va) ((phys_addr_t)((uintptr_t)(va) - PAGE_OFFSET + ARM_PHYS_OFFSET))
#endif

#endif
