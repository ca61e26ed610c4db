/* arm's part of tools/boot_tables (see boot_tables.h): the kernel half's tables for the image
 * and the devices (asm/kernel_tables.h), which arch_mmu_init completes with the linear map. */
#ifndef RNDBITS_TOOLS_BOOT_TABLES_ARM_H
#define RNDBITS_TOOLS_BOOT_TABLES_ARM_H

#include "boot_tables.h"

/* What the tables are made from: the linked image's symbols (virtual addresses). */
struct arm_boot_layout {
	uint64_t text_start, text_end;     /* __text_start (the image's start), __text_end */
	uint64_t rodata_start, rodata_end; /* __rodata_start, __rodata_end */
	uint64_t data_start;               /* __data_start: data, the tables, BSS */
	uint64_t svc_stack;                /* boot_svc_stack: the page below it is left unmapped */
	uint64_t kernel_end;               /* __kernel_end */
	uint64_t section, section_end;     /* the .boot_tables section, which holds the tables */
	uint64_t tables;                   /* arm_kernel_tables */
	uint64_t boot_pgd;                 /* head.S's boot L1 table */
};

/* Fill `bytes`, the zeroed contents of the section (section_end - section bytes), with the
 * kernel half's tables for layout `l`. Returns NULL, or why the tables cannot be made (a
 * sentence that names what did not fit); *what then names the mapping or table concerned. */
const char *arm_boot_tables_build(const struct arm_boot_layout *l, uint8_t *bytes,
				  const char **what);

#endif
