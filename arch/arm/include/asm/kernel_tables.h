/* The kernel half's translation tables, in the image's .boot_tables section (boot/arm/head.S):
 * the L1 table, and the L2 tables the kernel half's partially mapped MiBs take, in order.
 * What the link fixes (the image with its permissions, the device pages) is made at build time
 * by tools/boot_tables/arm.c, with pt_map; arch_mmu_init adds the linear map of RAM, which
 * only the DTB knows, at run time with the same pt_map (into the image's L2 tables where RAM
 * shares a MiB with the image, else into sections or tables from the page allocator). Also read
 * by the assembler, for the section's size. */
#ifndef RNDBITS_ASM_ARM_KERNEL_TABLES_H
#define RNDBITS_ASM_ARM_KERNEL_TABLES_H

#define ARM_L1_ENTRIES 4096
#define ARM_L2_ENTRIES 256
/* The image's MiBs (a page-granular MiB each: two for an image that crosses one boundary), the
 * UART's and the GIC's MiB. */
#define ARM_KERNEL_L2_TABLES 4
/* l1 and l2; the L1 table first, as TTBR0 wants it 16 KiB aligned. */
#define ARM_KERNEL_TABLES_BYTES (4 * (ARM_L1_ENTRIES + ARM_KERNEL_L2_TABLES * ARM_L2_ENTRIES))
#define ARM_KERNEL_TABLES_ALIGN 16384

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct arm_kernel_tables {
	uint32_t l1[ARM_L1_ENTRIES];
	uint32_t l2[ARM_KERNEL_L2_TABLES][ARM_L2_ENTRIES];
};
_Static_assert(sizeof(struct arm_kernel_tables) == ARM_KERNEL_TABLES_BYTES,
	       "ARM_KERNEL_TABLES_BYTES is the tables' size");
#endif

#endif
