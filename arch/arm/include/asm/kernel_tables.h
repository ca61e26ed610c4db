/* The kernel half's translation tables, in the image's .boot_tables section (boot/arm/head.S):
 * the L1 table, and the L2 tables the kernel half's partially mapped MiBs take, in order.
 * What the link fixes (the image with its permissions, the device pages) is made at build time
 * by tools/boot_tables/arm.c, which also says how many L2 tables that took (l2_used);
 * arch_mmu_init adds the linear map of RAM, which only the DTB knows, at run time. Also read
 * by the assembler, for the section's size. */
#ifndef RNDBITS_ASM_ARM_KERNEL_TABLES_H
#define RNDBITS_ASM_ARM_KERNEL_TABLES_H

#define ARM_L1_ENTRIES 4096
#define ARM_L2_ENTRIES 256
/* The image's MiBs (a page-granular MiB each), the UART's and the GIC's MiB, and room for a
 * partial MiB at an edge of RAM. */
#define ARM_KERNEL_L2_TABLES 4
/* l1, l2 and l2_used; the L1 table first, as TTBR0 wants it 16 KiB aligned. */
#define ARM_KERNEL_TABLES_BYTES (4 * (ARM_L1_ENTRIES + ARM_KERNEL_L2_TABLES * ARM_L2_ENTRIES + 1))
#define ARM_KERNEL_TABLES_ALIGN 16384

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct arm_kernel_tables {
	uint32_t l1[ARM_L1_ENTRIES];
	uint32_t l2[ARM_KERNEL_L2_TABLES][ARM_L2_ENTRIES];
	uint32_t l2_used; /* L2 tables taken so far, from l2[0] on */
};
_Static_assert(sizeof(struct arm_kernel_tables) == ARM_KERNEL_TABLES_BYTES,
	       "ARM_KERNEL_TABLES_BYTES is the tables' size");
#endif

#endif
