/* x86_64's part of tools/boot_tables (see boot_tables.h): the page tables in the image's
 * .boot_tables section (asm/boot_tables_64.h), made by the kernel's own mapper.
 *   The kernel's root (x86_64_kernel_pml4), with what the link fixes: the image, page by page
 *     at __START_KERNEL_map + its physical address: text r-x, rodata r--, data, the tables and
 *     BSS rw-, each stack rw- without the guard page below it; all global. arch_mmu_init adds
 *     the direct map of RAM at run time.
 *   The boot root (x86_64_boot_pml4), until arch_mmu_init switches: 2 MiB pages, not global:
 *     the 32-bit entry at its own address (rwx, for the switch to long mode and the jump
 *     high), the first 4 GiB at PAGE_OFFSET (rw-) and the image at __START_KERNEL_map (rwx).
 * 1 GiB pages stay out: whether the CPU has them is known only at run time (CPUID), so the
 * mapper is told there are none here; the run-time direct map may use them. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/boot_tables_64.h>
#include <asm/memory.h>

#include "x86_64.h"

#define PD_SIZE 0x200000ull
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define RWX (PT_R | PT_W | PT_X)
#define ALIGN_UP_2M(x) (((x) + PD_SIZE - 1) & ~(PD_SIZE - 1))

#define POOL_DRY "out of page tables (X86_64_BOOT_PAGE_TABLES)"

extern bool x86_64_gbpages; /* arch/x86/64/pte.c */

static const char *check_placement(const struct x86_64_boot_layout *l, const char **what)
{
	*what = "x86_64_kernel_pml4";
	if (!boot_tables_lies_in(l->section, l->section_end, l->kernel_pml4, X86_64_TABLE_BYTES,
				 X86_64_TABLE_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	*what = "x86_64_boot_pml4";
	if (!boot_tables_lies_in(l->section, l->section_end, l->boot_pml4, X86_64_TABLE_BYTES,
				 X86_64_TABLE_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	*what = "x86_64_boot_page_tables";
	if (!boot_tables_lies_in(l->section, l->section_end, l->page_tables,
				 X86_64_BOOT_PAGE_TABLES * X86_64_TABLE_BYTES, X86_64_TABLE_BYTES))
		return "not inside the .boot_tables section, or not page aligned";
	*what = "the image";
	if (__pa(l->kernel_end) > X86_64_BOOT_DIRECT_MAP_SIZE)
		return "not below 4 GiB, where the 32-bit entry can reach it";
	return NULL;
}

const char *x86_64_boot_tables_build(const struct x86_64_boot_layout *l, uint8_t *bytes,
				     const char **what)
{
	const struct boot_mapping maps[] = {
		{ l->text_start, l->text_end, __pa(l->text_start), PT_R | PT_X | PT_GLOBAL,
		  PT_MAP_BLOCKS, "text" },
		{ l->rodata_start, l->data_start, __pa(l->rodata_start), PT_R | PT_GLOBAL,
		  PT_MAP_BLOCKS, "rodata" },
		{ l->data_start, l->bss_end, __pa(l->data_start), KERNEL_RW, PT_MAP_BLOCKS,
		  "data and BSS" },
		{ l->stack, l->stack_top, __pa(l->stack), KERNEL_RW, PT_MAP_BLOCKS,
		  "the boot stack" },
		{ l->ist_stack, l->ist_stack_top, __pa(l->ist_stack), KERNEL_RW, PT_MAP_BLOCKS,
		  "the IST stack" },
	};
	const struct boot_mapping boot_maps[] = {
		{ 0, ALIGN_UP_2M(l->boot_end), 0, RWX, PT_MAP_BLOCKS, "the boot identity map" },
		{ PAGE_OFFSET, PAGE_OFFSET + X86_64_BOOT_DIRECT_MAP_SIZE, 0, PT_R | PT_W,
		  PT_MAP_BLOCKS, "the boot direct map" },
		{ __START_KERNEL_map, __START_KERNEL_map + ALIGN_UP_2M(__pa(l->kernel_end)), 0, RWX,
		  PT_MAP_BLOCKS, "the boot image map" },
	};
	const char *why = check_placement(l, what);

	if (why)
		return why;
	x86_64_gbpages = false;
	boot_ram_init(bytes, __pa(l->section), l->section_end - l->section, __pa(l->page_tables),
		      X86_64_BOOT_PAGE_TABLES, X86_64_TABLE_BYTES);
	why = boot_tables_map(__pa(l->kernel_pml4), maps, ARRAY_SIZE(maps), POOL_DRY, what);
	if (!why)
		why = boot_tables_map(__pa(l->boot_pml4), boot_maps, ARRAY_SIZE(boot_maps),
				      POOL_DRY, what);
	if (!why)
		*what = NULL;
	return why;
}

const char *boot_tables_make(const struct boot_image *image, uint8_t *bytes, const char **what)
{
	const struct x86_64_boot_layout l = {
		.boot_end = image->symbol(image, "__boot_end"),
		.text_start = image->symbol(image, "__text_start"),
		.text_end = image->symbol(image, "__text_end"),
		.rodata_start = image->symbol(image, "__rodata_start"),
		.data_start = image->symbol(image, "__data_start"),
		.bss_end = image->symbol(image, "__bss_end"),
		.stack = image->symbol(image, "x86_64_boot_stack"),
		.stack_top = image->symbol(image, "x86_64_boot_stack_top"),
		.ist_stack = image->symbol(image, "x86_64_ist_stack"),
		.ist_stack_top = image->symbol(image, "x86_64_ist_stack_top"),
		.kernel_end = image->symbol(image, "__kernel_end"),
		.section = image->section,
		.section_end = image->section_end,
		.boot_pml4 = image->symbol(image, "x86_64_boot_pml4"),
		.kernel_pml4 = image->symbol(image, "x86_64_kernel_pml4"),
		.page_tables = image->symbol(image, "x86_64_boot_page_tables"),
	};

	return x86_64_boot_tables_build(&l, bytes, what);
}
