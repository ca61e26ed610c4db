/* What the C code needs of head.S's boot page tables (the .boot_tables section, whose contents
 * tools/boot_tables makes at build time): the roots' physical addresses, known at link
 * time. In C rather than beside the tables in head.S, so that LTO places them with the
 * variables their readers (mmu.c) use, where one adrp reaches several: under QEMU every
 * translated instruction of the boot counts. */
#include <lib/types.h>
#include <asm/arm64.h>
#include <asm/memory.h>

extern uint64_t a64_boot_kernel_root[], a64_boot_empty_root[];

#define BOOT_PA(table) ((phys_addr_t)(uintptr_t)(table) - KERNEL_VIRT_BASE + KERNEL_PHYS_BASE)

/* TTBR1's root for good; TTBR0's whenever no task's root is. */
phys_addr_t a64_kernel_root = BOOT_PA(a64_boot_kernel_root);
phys_addr_t a64_empty_root = BOOT_PA(a64_boot_empty_root);
/* Set by head.S: 1 when QEMU started us at EL2, where PSCI calls go through smc (cpu.c). */
uint64_t a64_booted_at_el2;
