/* i386's page tables made at build time, in the image's .boot_tables section
 * (boot/x86/32/head.S), by tools/boot_tables/x86_32.c with the kernel's own pt_map:
 *   boot_pgdir, the page directory head.S turns paging on with: the first 4 MiB at their own
 *     address (for the jump to the linked address; head.S clears that entry right after it)
 *     and the whole linear map window in 4 MiB pages, as the boot reads the loader's data and
 *     the allocator's first frames through __va before the memory map is known;
 *   x86_kernel_pgdir, the kernel's page directory for good: the image page by page with its
 *     permissions (text r-x, rodata r--, data rw- up to the boot stack's guard page, left
 *     unmapped, the stack rw-), all global. arch_mmu_init adds the rest of RAM's linear map
 *     with pt_map at run time and switches to it;
 *   the page tables those take, X86_BOOT_PAGE_TABLES at most (the image's 4 MiB stretches).
 * Also read by the assembler, for the section's size. */
#ifndef RNDBITS_ASM_X86_BOOT_TABLES_32_H
#define RNDBITS_ASM_X86_BOOT_TABLES_32_H

#define X86_PD_BYTES 4096
/* An image of up to 12 MiB (it is about 1 MiB), in any alignment. */
#define X86_BOOT_PAGE_TABLES 4

#ifndef __ASSEMBLER__
#include <lib/types.h>

extern uint32_t boot_pgdir[1024], x86_kernel_pgdir[1024];
extern uint32_t x86_boot_page_tables[X86_BOOT_PAGE_TABLES][1024];
#endif

#endif
