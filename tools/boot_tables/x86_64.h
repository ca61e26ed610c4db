/* x86_64's part of tools/boot_tables (see boot_tables.h): the boot root, the kernel's root with
 * the image, and their tables (asm/boot_tables_64.h). */
#ifndef RNDBITS_TOOLS_BOOT_TABLES_X86_64_H
#define RNDBITS_TOOLS_BOOT_TABLES_X86_64_H

#include "boot_tables.h"

/* What the tables are made from: the linked image's symbols (virtual addresses). */
struct x86_64_boot_layout {
	uint64_t boot_end;                 /* __boot_end: the 32-bit entry ends (identity) */
	uint64_t text_start, text_end;     /* __text_start, __text_end */
	uint64_t rodata_start;             /* __rodata_start: rodata up to __data_start */
	uint64_t data_start, bss_end;      /* __data_start .. __bss_end: data, tables, BSS */
	uint64_t stack, stack_top;         /* x86_64_boot_stack .. _top */
	uint64_t ist_stack, ist_stack_top; /* x86_64_ist_stack .. _top */
	uint64_t kernel_end;               /* __kernel_end */
	uint64_t section, section_end;     /* the .boot_tables section, which holds the tables */
	uint64_t boot_pml4;                /* x86_64_boot_pml4: head.S's */
	uint64_t kernel_pml4;              /* x86_64_kernel_pml4: the kernel's, for good */
	uint64_t page_tables;              /* x86_64_boot_page_tables */
};

/* Fill `bytes`, the zeroed contents of the section (section_end - section bytes), with the
 * tables for layout `l`. Returns NULL, or why the tables cannot be made (a sentence that names
 * what did not fit); *what then names the mapping or table concerned. */
const char *x86_64_boot_tables_build(const struct x86_64_boot_layout *l, uint8_t *bytes,
				     const char **what);

#endif
