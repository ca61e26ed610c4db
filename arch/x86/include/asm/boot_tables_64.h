/* x86_64's page tables made at build time, in the image's .boot_tables section
 * (boot/x86/64/head.S), by tools/boot_tables/x86_64.c with the kernel's own pt_map:
 *   x86_64_boot_pml4, the root head.S enters long mode with (2 MiB pages, not global): the
 *     32-bit entry at its own address (for the jump to 64-bit code), the first 4 GiB of
 *     physical memory at PAGE_OFFSET (the boot reads the loader's data and the allocator's
 *     first frames through __va before arch_mmu_init) and the image at __START_KERNEL_map;
 *   x86_64_kernel_pml4, the kernel's root for good: the image page by page with its
 *     permissions (text r-x, rodata r--, data and BSS rw-, the two stacks rw- without their
 *     guard pages), all global. arch_mmu_init adds the direct map of RAM with pt_map at run
 *     time (1 GiB pages where the CPU has them) and switches to it;
 *   the tables those take, X86_64_BOOT_PAGE_TABLES at most.
 * The tables are physical data below 4 GiB, so the 32-bit entry can load CR3 with them.
 * Also read by the assembler, for the section's size. */
#ifndef RNDBITS_ASM_X86_BOOT_TABLES_64_H
#define RNDBITS_ASM_X86_BOOT_TABLES_64_H

#define X86_64_TABLE_BYTES 4096
/* What the boot root maps at PAGE_OFFSET: physical [0, 4 GiB), where the multiboot parser reads
 * the loader's data and pmm_init and arch_mmu_init's table allocations reach their frames. */
#define X86_64_BOOT_DIRECT_MAP_SIZE 0x100000000
/* The boot root: identity (PDPT + PD), 4 GiB of direct map (PDPT + 4 PDs), the image (PDPT +
 * PD); the kernel's: PDPT + PD + a page table per 2 MiB the image touches (up to 8). */
#define X86_64_BOOT_PAGE_TABLES 18

#ifndef __ASSEMBLER__
#include <lib/types.h>

extern uint64_t x86_64_boot_pml4[512], x86_64_kernel_pml4[512];
extern uint64_t x86_64_boot_page_tables[X86_64_BOOT_PAGE_TABLES][512];
#endif

#endif
