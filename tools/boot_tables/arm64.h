/* arm64's part of tools/boot_tables (see boot_tables.h): the boot page tables.
 *
 * The kernel's image holds its first page tables (head.S's .boot_tables section: the boot pool,
 * the three roots), and head.S only points the MMU at them. arm64.c fills them from the linked
 * image's layout. */
#ifndef RNDBITS_TOOLS_BOOT_TABLES_ARM64_H
#define RNDBITS_TOOLS_BOOT_TABLES_ARM64_H

#include "boot_tables.h"

/* What the tables are made from: the linked image's symbols (virtual addresses). */
struct a64_boot_layout {
	uint64_t text_start, text_end;   /* __text_start (the image's start), __text_end */
	uint64_t rodata_end;             /* __rodata_end: rodata starts at __text_end */
	uint64_t data_start;             /* __data_start: data and BSS up to the stack guard */
	uint64_t kstack_guard;           /* a64_kstack_guard: left unmapped */
	uint64_t kstack_bottom;          /* a64_kstack_bottom: data again, up to the end */
	uint64_t kernel_end;             /* __kernel_end */
	uint64_t section, section_end;   /* the .boot_tables section, which holds the tables */
	uint64_t pool;                   /* a64_boot_pool: A64_BOOT_POOL_TABLES pages */
	uint64_t kernel_root;            /* a64_boot_kernel_root: TTBR1's, for good */
	uint64_t identity_root;          /* a64_boot_identity_root: TTBR0's until the MMU is on */
	uint64_t empty_root;             /* a64_boot_empty_root: stays empty */
};

/* Fill `bytes`, the zeroed contents of the section (section_end - section bytes), with the
 * boot tables for layout `l`. Returns NULL, or why the tables cannot be made (a sentence that
 * names what did not fit); *what then names the mapping or table concerned. */
const char *a64_boot_tables_build(const struct a64_boot_layout *l, uint8_t *bytes,
				  const char **what);

#endif
