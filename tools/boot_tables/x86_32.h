/* i386's part of tools/boot_tables (see boot_tables.h): the boot page directory, the kernel's
 * page directory with the image, and their page tables (asm/boot_tables_32.h). */
#ifndef RNDBITS_TOOLS_BOOT_TABLES_X86_32_H
#define RNDBITS_TOOLS_BOOT_TABLES_X86_32_H

#include "boot_tables.h"

/* What the tables are made from: the linked image's symbols (virtual addresses). */
struct x86_32_boot_layout {
	uint64_t text_start, text_end; /* __text_start (the image's start), __text_end */
	uint64_t rodata_start;         /* __rodata_start: rodata up to __data_start */
	uint64_t data_start;           /* __data_start: data, the tables, BSS */
	uint64_t stack_guard;          /* boot_stack_guard: left unmapped */
	uint64_t stack;                /* boot_stack: the stack, up to the end */
	uint64_t kernel_end;           /* __kernel_end */
	uint64_t section, section_end; /* the .boot_tables section, which holds the tables */
	uint64_t boot_pgdir;           /* head.S's boot page directory */
	uint64_t kernel_pgdir;         /* x86_kernel_pgdir: the kernel's, for good */
	uint64_t page_tables;          /* x86_boot_page_tables: X86_BOOT_PAGE_TABLES pages */
};

/* Fill `bytes`, the zeroed contents of the section (section_end - section bytes), with the
 * tables for layout `l`. Returns NULL, or why the tables cannot be made (a sentence that names
 * what did not fit); *what then names the mapping or table concerned. */
const char *x86_32_boot_tables_build(const struct x86_32_boot_layout *l, uint8_t *bytes,
				     const char **what);

#endif
