/* x86_64's part of tools/boot_tables (its table builder), on a synthetic image laid out as
 * linker/x86_64.ld and boot/x86/64/head.S lay out the real one. The tables it makes are read
 * back with the kernel's own walker (pt_walk), as `pt walk` reads the live ones:
 *  - the kernel's root: text r-x, rodata r--, data and BSS rw-, each stack rw- with the guard
 *    page below it unmapped, each page at __START_KERNEL_map + its physical address; all
 *    global; nothing else (the direct map is arch_mmu_init's);
 *  - the boot root: the 32-bit entry at its own address, the first 4 GiB at PAGE_OFFSET and
 *    the image at __START_KERNEL_map, in 2 MiB pages, never 1 GiB ones (whether the CPU has
 *    them is known only at run time), and nothing else;
 *  - a layout that does not fit fails with a reason: an image over too many 2 MiB stretches
 *    (out of page tables), a part not page aligned, misplaced tables. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/boot_tables_64.h>
#include <asm/memory.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot_tables_assert.h"
#include "x86_64.h"

#define PAGE ((uint64_t)PAGE_SIZE)
#define MIB 0x100000ULL
#define GIB (1024 * MIB)
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define RWX (PT_R | PT_W | PT_X)
/* The walker's levels: PML4 0, PDPT 1, PD 2, PT 3. */
#define LEVEL_2M 2
#define LEVEL_4K 3

extern bool x86_64_gbpages; /* arch/x86/64/pte.c */

/* An image as linker/x86_64.ld links it: the 32-bit entry at 1 MiB (a page), then text_size of
 * text, `gap` of rodata, a page of data, the section (the two roots, then the tables), a page
 * of BSS, and the two stacks each above its guard page. */
static struct x86_64_boot_layout layout_with(uint64_t text_size, uint64_t gap)
{
	struct x86_64_boot_layout l;

	l.boot_end = X86_KERNEL_PHYS + PAGE;
	l.text_start = __START_KERNEL_map + l.boot_end;
	l.text_end = l.text_start + text_size;
	l.rodata_start = l.text_end;
	l.data_start = l.rodata_start + gap;
	l.section = l.data_start + PAGE;
	l.boot_pml4 = l.section;
	l.kernel_pml4 = l.boot_pml4 + X86_64_TABLE_BYTES;
	l.page_tables = l.kernel_pml4 + X86_64_TABLE_BYTES;
	l.section_end = l.page_tables + X86_64_BOOT_PAGE_TABLES * PAGE;
	l.bss_end = l.section_end + PAGE;
	l.stack = l.bss_end + PAGE;
	l.stack_top = l.stack + 4 * PAGE;
	l.ist_stack = l.stack_top + PAGE;
	l.ist_stack_top = l.ist_stack + 2 * PAGE;
	l.kernel_end = l.ist_stack_top;
	return l;
}

static struct x86_64_boot_layout layout(void)
{
	return layout_with(3 * PAGE, 2 * PAGE);
}

static uint8_t *section;

static const char *build(const struct x86_64_boot_layout *l, const char **what)
{
	free(section);
	section = calloc(1, l->section_end - l->section);
	assert_non_null(section);
	*what = NULL;
	return x86_64_boot_tables_build(l, section, what);
}

static void build_ok(const struct x86_64_boot_layout *l)
{
	const char *what, *why = build(l, &what);

	assert_tables_built(why, what);
}

/* Every page of [va, end) maps to its physical address with prot, in the kernel's root. */
static void expect_pages(const struct x86_64_boot_layout *l, uint64_t va, uint64_t end,
			 unsigned prot)
{
	for (; va < end; va += PAGE)
		assert_table_maps(__pa(l->kernel_pml4), va, __pa(va), prot, LEVEL_4K);
}

static void test_image(void **state)
{
	(void)state;
	const struct x86_64_boot_layout l = layout();
	const phys_addr_t root = __pa(l.kernel_pml4);

	build_ok(&l);
	expect_pages(&l, l.text_start, l.text_end, PT_R | PT_X | PT_GLOBAL);
	expect_pages(&l, l.rodata_start, l.data_start, PT_R | PT_GLOBAL);
	expect_pages(&l, l.data_start, l.bss_end, KERNEL_RW);
	assert_table_unmapped(root, l.stack - PAGE);
	expect_pages(&l, l.stack, l.stack_top, KERNEL_RW);
	assert_table_unmapped(root, l.ist_stack - PAGE);
	expect_pages(&l, l.ist_stack, l.ist_stack_top, KERNEL_RW);
	/* Not the 32-bit entry, nor the direct map (arch_mmu_init's), nor the user half. */
	assert_table_unmapped(root, l.kernel_end);
	assert_table_unmapped(root, __START_KERNEL_map + X86_KERNEL_PHYS);
	assert_table_unmapped(root, PAGE_OFFSET);
	assert_table_unmapped(root, X86_KERNEL_PHYS);
}

/* The kernel's PDPT, PD and one page table (the image lies in one 2 MiB stretch); the boot
 * root's PDPT and PD for the identity map, PDPT and 4 PDs for the direct map, PDPT and PD for
 * the image. */
static void test_page_tables_used(void **state)
{
	(void)state;
	const struct x86_64_boot_layout l = layout();

	build_ok(&l);
	assert_int_equal(boot_ram_pool_used(), 3 + 2 + 5 + 2);
}

static void test_boot_root(void **state)
{
	(void)state;
	const struct x86_64_boot_layout l = layout();
	const phys_addr_t root = __pa(l.boot_pml4);
	unsigned entries = 0;

	/* Even on a host that says it has 1 GiB pages, the build makes none. */
	x86_64_gbpages = true;
	build_ok(&l);
	assert_table_maps(root, 0, 0, RWX, LEVEL_2M);
	assert_table_maps(root, X86_KERNEL_PHYS + 0x123, X86_KERNEL_PHYS + 0x123, RWX, LEVEL_2M);
	assert_table_unmapped(root, 2 * MIB);
	assert_table_maps(root, PAGE_OFFSET, 0, PT_R | PT_W, LEVEL_2M);
	assert_table_maps(root, PAGE_OFFSET + 4 * GIB - PAGE, 4 * GIB - PAGE, PT_R | PT_W,
			  LEVEL_2M);
	assert_table_unmapped(root, PAGE_OFFSET + 4 * GIB);
	assert_table_maps(root, l.text_start, __pa(l.text_start), RWX, LEVEL_2M);
	assert_table_maps(root, __START_KERNEL_map, 0, RWX, LEVEL_2M);
	assert_table_unmapped(root, __START_KERNEL_map + 2 * MIB);
	const uint64_t *pml4 = boot_ram_va(root);
	for (unsigned i = 0; i < 512; i++)
		entries += pml4[i] != 0;
	assert_int_equal(entries, 3);
}

/* Fails, with a reason that says why_has, about `what`. */
static void expect_failure(const struct x86_64_boot_layout *l, const char *why_has,
			   const char *what)
{
	const char *w, *why = build(l, &w);

	assert_tables_refused(why, w, why_has, what);
}

static void test_what_does_not_fit(void **state)
{
	(void)state;
	/* An image over more than 1 GiB (two PDs in each root) whose parts each end a page or
	 * two into a new 2 MiB stretch: a page table for each of six stretches, one more than
	 * the pool has left. */
	struct x86_64_boot_layout l = layout_with(GIB + 2 * PAGE, 2 * MIB);
	l.stack = l.bss_end + 2 * MIB + PAGE;
	l.stack_top = l.stack + PAGE;
	l.ist_stack = l.stack_top + 2 * MIB + PAGE;
	l.ist_stack_top = l.ist_stack + 2 * MIB + PAGE;
	l.kernel_end = l.ist_stack_top;
	expect_failure(&l, "out of page tables", NULL);
	l.ist_stack_top = l.ist_stack + PAGE;
	l.kernel_end = l.ist_stack_top;
	build_ok(&l);
	assert_int_equal(boot_ram_pool_used(), X86_64_BOOT_PAGE_TABLES);

	l = layout();
	l.data_start += 8;
	expect_failure(&l, "not page aligned", "rodata");

	l = layout();
	l.kernel_pml4 += 1024;
	expect_failure(&l, "page aligned", "x86_64_kernel_pml4");

	l = layout();
	l.section_end -= 8;
	expect_failure(&l, "not inside the .boot_tables section", "x86_64_boot_page_tables");
}

static int teardown(void **state)
{
	(void)state;
	free(section);
	section = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_page_tables_used),
		cmocka_unit_test(test_boot_root),
		cmocka_unit_test(test_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("x86_64_boot_tables." CONFIG_PRESET, tests, NULL,
					   teardown);
}
