/* i386's part of tools/boot_tables (see boot_tables.h): the page tables in the image's
 * .boot_tables section (asm/boot_tables_32.h), made by the kernel's own mapper.
 *   The kernel's page directory (x86_kernel_pgdir), with what the link fixes: the image, page by
 *     page at PAGE_OFFSET + its load address (which is its place in the linear map): text
 *     r-x, rodata r--, data, the tables and BSS rw- up to the boot stack's guard page, left
 *     unmapped so that an overflow faults, the stack rw- up to the image's end; and the linear
 *     map below the image, rw-: the first MiB, whose RAM (and ISA hole, as on Linux's i386)
 *     every PC has, so that arch_mmu_init has only RAM above the image left to map; all global.
 *     (2-level paging has no NX: the walk shows every page x, and the boot's self-check says
 *     so.) Its page tables come from the pool, in order; arch_mmu_init adds RAM's linear map
 *     around the image at run time, into the same tables where RAM shares the image's 4 MiB.
 *   The boot page directory (boot_pgdir), until arch_mmu_init switches: 4 MiB pages, rwx, not
 *     global: the first 4 MiB at their own address, for the jump to the linked address (head.S
 *     clears that entry right after it), and the whole linear map window, as generic code reads
 *     the loader's data and the allocator's first frames through __va before arch_mmu_init. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/boot_tables_32.h>
#include <asm/memory.h>

#include "x86_32.h"

#define PAGE_TABLE_BYTES 4096u
#define PDE_SIZE 0x400000u
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define RWX (PT_R | PT_W | PT_X)

#define POOL_DRY "out of page tables for the image (X86_BOOT_PAGE_TABLES)"

const char *x86_32_boot_tables_build(const struct x86_32_boot_layout *l, uint8_t *bytes,
				     const char **what)
{
	const struct boot_mapping maps[] = {
		{ PAGE_OFFSET, l->text_start, 0, KERNEL_RW, PT_MAP_BLOCKS,
		  "the linear map below the image" },
		{ l->text_start, l->text_end, __pa(l->text_start), PT_R | PT_X | PT_GLOBAL,
		  PT_MAP_BLOCKS, "text" },
		{ l->rodata_start, l->data_start, __pa(l->rodata_start), PT_R | PT_GLOBAL,
		  PT_MAP_BLOCKS, "rodata" },
		{ l->data_start, l->stack_guard, __pa(l->data_start), KERNEL_RW, PT_MAP_BLOCKS,
		  "data and BSS below the stack guard" },
		{ l->stack, l->kernel_end, __pa(l->stack), KERNEL_RW, PT_MAP_BLOCKS,
		  "the boot stack" },
	};
	const struct boot_mapping boot_maps[] = {
		{ 0, PDE_SIZE, 0, RWX, PT_MAP_BLOCKS, "the boot identity map" },
		{ PAGE_OFFSET, X86_LINEAR_MAP_END, 0, RWX, PT_MAP_BLOCKS, "the boot linear map" },
	};

	*what = "x86_kernel_pgdir";
	if (!boot_tables_lies_in(l->section, l->section_end, l->kernel_pgdir, X86_PD_BYTES,
				 X86_PD_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	*what = "boot_pgdir";
	if (!boot_tables_lies_in(l->section, l->section_end, l->boot_pgdir, X86_PD_BYTES,
				 X86_PD_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	*what = "x86_boot_page_tables";
	if (!boot_tables_lies_in(l->section, l->section_end, l->page_tables,
				 X86_BOOT_PAGE_TABLES * PAGE_TABLE_BYTES, PAGE_TABLE_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	boot_ram_init(bytes, __pa(l->section), l->section_end - l->section, __pa(l->page_tables),
		      X86_BOOT_PAGE_TABLES, PAGE_TABLE_BYTES);
	const char *why = boot_tables_map(__pa(l->kernel_pgdir), maps, ARRAY_SIZE(maps),
					  POOL_DRY, what);
	if (why)
		return why;
	const unsigned image_tables = boot_ram_pool_used();

	why = boot_tables_map(__pa(l->boot_pgdir), boot_maps, ARRAY_SIZE(boot_maps), POOL_DRY,
			      what);
	if (why)
		return why;
	/* 4 MiB pages only: a page table here would be one of the kernel's. */
	*what = "boot_pgdir";
	if (boot_ram_pool_used() != image_tables)
		return "the boot mappings are not whole 4 MiB pages";
	*what = NULL;
	return NULL;
}

const char *boot_tables_make(const struct boot_image *image, uint8_t *bytes, const char **what)
{
	const struct x86_32_boot_layout l = {
		.text_start = image->symbol(image, "__text_start"),
		.text_end = image->symbol(image, "__text_end"),
		.rodata_start = image->symbol(image, "__rodata_start"),
		.data_start = image->symbol(image, "__data_start"),
		.stack_guard = image->symbol(image, "boot_stack_guard"),
		.stack = image->symbol(image, "boot_stack"),
		.kernel_end = image->symbol(image, "__kernel_end"),
		.section = image->section,
		.section_end = image->section_end,
		.boot_pgdir = image->symbol(image, "boot_pgdir"),
		.kernel_pgdir = image->symbol(image, "x86_kernel_pgdir"),
		.page_tables = image->symbol(image, "x86_boot_page_tables"),
	};

	return x86_32_boot_tables_build(&l, bytes, what);
}
