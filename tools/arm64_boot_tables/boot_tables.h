/* arm64_boot_tables: the arm64 kernel's boot page tables, made at build time.
 *
 * The kernel's image holds its first page tables (head.S's .boot_tables section: the boot pool,
 * the three roots), and head.S only points the MMU at them. Their contents are known when the
 * kernel is linked, as the load address is fixed: this host tool reads the linked ELF's symbols,
 * builds the tables with the kernel's own mapper (mm/pgtable.c's pt_map over arch/arm64/pte.c's
 * descriptors, both compiled for the host with the preset's config.h), and the build writes
 * them into the ELF with objcopy --update-section.
 *
 * Two halves, compiled apart: build.c sees the kernel's real address map (asm/memory.h);
 * ram.c and mm/pgtable.c see the section's bytes as the RAM the tables live in, through the
 * host tests' stand-in <asm/memory.h> (tests/host/fake), whose __va checks every address. */
#ifndef RNDBITS_TOOLS_ARM64_BOOT_TABLES_H
#define RNDBITS_TOOLS_ARM64_BOOT_TABLES_H

#include <types.h>

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

/* ram.c: the section's bytes as the RAM the tables are in, and the boot pool as the page
 * allocator pt_map takes its tables from (in order, each once). */
void a64_boot_ram_init(uint8_t *bytes, phys_addr_t pa, uint64_t size, phys_addr_t pool,
		       unsigned pool_tables);
/* Where physical address pa is in the section's bytes (it must lie in the section). */
void *a64_boot_ram_va(phys_addr_t pa);
/* Tables taken from the pool so far. */
unsigned a64_boot_ram_pool_used(void);

#endif
