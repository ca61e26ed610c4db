/* arm64's part of tools/boot_tables (its table builder), once per arm64 preset, on a
 * synthetic image laid out as linker/arm64.ld and head.S lay out the real one. The tables it
 * makes are read back with the kernel's own walker (pt_walk), as `pt walk` reads the live ones:
 *  - text r-x, rodata r--, data rw- up to the kernel stack's guard page, which is unmapped, and
 *    the stack and what follows rw- up to the image's end, each page at its load address;
 *  - the linear map below the image (rw-; one block with 4K pages, pages otherwise);
 *  - the PL011 in the device window (Device, rw-), and the GIC's last-level table made empty;
 *  - the identity root's one block, the empty root empty, the pool taken exactly;
 *  - a layout that does not fit fails with a reason: an image across two last-level tables'
 *    spans (the pool is too small), a part not page aligned, a misplaced root. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/arm64.h>
#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arm64.h"
#include "boot_tables_assert.h"

#define PAGE ((uint64_t)PAGE_SIZE)
#define LAST_LEVEL (A64_PT_LEVELS - 1)
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define ROOT_ALIGN(bytes) MAX(64, (bytes))

/* An image of a few pages a part starting at text_start, with head.S's .boot_tables section
 * (the pool, then the empty, kernel and identity roots) first in its data, as arm64.ld has it. */
static struct a64_boot_layout layout_at(uint64_t text_start)
{
	struct a64_boot_layout l;

	l.text_start = text_start;
	l.text_end = l.text_start + 3 * PAGE;
	l.rodata_end = l.text_end + 2 * PAGE;
	l.data_start = l.rodata_end;
	l.section = l.data_start;
	l.pool = l.section;
	l.empty_root = l.pool + A64_BOOT_POOL_TABLES * PAGE;
	l.kernel_root = ALIGN_UP(l.empty_root + A64_EMPTY_ROOT_BYTES, ROOT_ALIGN(A64_ROOT_BYTES));
	l.identity_root = ALIGN_UP(l.kernel_root + A64_ROOT_BYTES,
				   ROOT_ALIGN(A64_BOOT_ID_ROOT_BYTES));
	l.section_end = l.identity_root + A64_BOOT_ID_ROOT_BYTES;
	/* .data and BSS, a page of them, then the guard, the stack, and a page more. */
	l.kstack_guard = ALIGN_UP(l.section_end, PAGE) + PAGE;
	l.kstack_bottom = l.kstack_guard + PAGE;
	l.kernel_end = l.kstack_bottom + 2 * PAGE;
	return l;
}

static uint8_t *section;
static phys_addr_t kernel_root;

static const char *build(const struct a64_boot_layout *l, const char **what)
{
	free(section);
	section = calloc(1, l->section_end - l->section);
	assert_non_null(section);
	kernel_root = __pa(l->kernel_root);
	*what = NULL;
	return a64_boot_tables_build(l, section, what);
}

static void build_ok(const struct a64_boot_layout *l)
{
	const char *what, *why = build(l, &what);

	assert_tables_built(why, what);
}

static void expect_mapped(uint64_t va, phys_addr_t pa, unsigned prot, unsigned leaf_level)
{
	assert_table_maps(kernel_root, va, pa, prot, leaf_level);
}

/* Every page of [va, end) maps to its load address with prot. */
static void expect_pages(uint64_t va, uint64_t end, unsigned prot)
{
	for (; va < end; va += PAGE)
		expect_mapped(va, __pa(va), prot, LAST_LEVEL);
}

/* Not mapped; reached_last: whether the walk got as far as a last-level table. */
static void expect_unmapped(uint64_t va, bool reached_last)
{
	unsigned levels = assert_table_unmapped(kernel_root, va);

	if (reached_last)
		assert_int_equal(levels, A64_PT_LEVELS);
}

static void test_image(void **state)
{
	(void)state;
	const struct a64_boot_layout l = layout_at(KERNEL_VIRT_BASE);

	build_ok(&l);
	expect_pages(l.text_start, l.text_end, PT_R | PT_X | PT_GLOBAL);
	expect_pages(l.text_end, l.rodata_end, PT_R | PT_GLOBAL);
	expect_pages(l.data_start, l.kstack_guard, KERNEL_RW);
	expect_unmapped(l.kstack_guard, true);
	expect_pages(l.kstack_bottom, l.kernel_end, KERNEL_RW);
	expect_unmapped(l.kernel_end, true);
	assert_int_equal(boot_ram_pool_used(), A64_BOOT_POOL_TABLES);
}

static void test_linear_map_below_image(void **state)
{
	(void)state;
	const struct a64_boot_layout l = layout_at(KERNEL_VIRT_BASE);
	/* Blocks where KERNEL_LOAD_OFFSET is whole blocks of the granule (4K's 2 MiB). */
	const bool block = KERNEL_LOAD_OFFSET % (1ULL << A64_TABLE_SPAN_SHIFT) == 0;

	build_ok(&l);
	if (block) {
		expect_mapped(PAGE_OFFSET, PHYS_OFFSET, KERNEL_RW, LAST_LEVEL - 1);
		expect_mapped(l.text_start - PAGE, KERNEL_PHYS_BASE - PAGE, KERNEL_RW,
			      LAST_LEVEL - 1);
	} else {
		expect_pages(PAGE_OFFSET, l.text_start, KERNEL_RW);
	}
}

static void test_devices(void **state)
{
	(void)state;
	const struct a64_boot_layout l = layout_at(KERNEL_VIRT_BASE);

	build_ok(&l);
	expect_mapped(IO_ADDRESS(VIRT_UART_PA), VIRT_UART_PA, KERNEL_RW | PT_DEVICE, LAST_LEVEL);
	expect_unmapped(IO_ADDRESS(VIRT_UART_PA) + PAGE, true);
	/* The GIC's frames go in later (arch_mmu_init): their table is there, empty. */
	expect_unmapped(IO_ADDRESS(VIRT_GICD_PA), true);
}

static void test_roots(void **state)
{
	(void)state;
	const struct a64_boot_layout l = layout_at(KERNEL_VIRT_BASE);
	const unsigned block_shift = A64_BOOT_BLOCK_SHIFT;
	const unsigned block_level = LAST_LEVEL - (block_shift - PAGE_SHIFT) / A64_PT_BITS;
	const phys_addr_t block = KERNEL_PHYS_BASE & ~((1ULL << block_shift) - 1);
	struct pte_info info;

	build_ok(&l);
	const uint64_t *identity = boot_ram_va(__pa(l.identity_root));
	const uint64_t *empty = boot_ram_va(__pa(l.empty_root));
	for (unsigned i = 0; i < A64_BOOT_ID_ROOT_BYTES / 8; i++) {
		if (i == block >> block_shift)
			continue;
		assert_int_equal(identity[i], 0);
	}
	arch_pte_decode(block_level, identity[block >> block_shift], &info);
	assert_int_equal(info.kind, PTE_BLOCK);
	assert_int_equal(info.pa, block);
	assert_int_equal(info.prot, PT_R | PT_W | PT_X | PT_GLOBAL);
	for (unsigned i = 0; i < A64_EMPTY_ROOT_BYTES / 8; i++)
		assert_int_equal(empty[i], 0);
}

/* Fails, with a reason that says why_has, about `what` when not NULL. */
static void expect_failure(const struct a64_boot_layout *l, const char *why_has,
			   const char *what)
{
	const char *w, *why = build(l, &w);

	assert_tables_refused(why, w, why_has, what);
}

static void test_what_does_not_fit(void **state)
{
	(void)state;
	/* The image's last page in the next last-level table: one table more than the pool has,
	 * missed by whichever mapping comes to need one when the pool is out. */
	const uint64_t span = 1ULL << A64_TABLE_SPAN_SHIFT;
	struct a64_boot_layout l = layout_at(KERNEL_VIRT_BASE);
	const uint64_t shift = ALIGN_UP(l.kernel_end, span) - l.kernel_end + PAGE;

	l.kstack_bottom += shift;
	l.kernel_end += shift;
	expect_failure(&l, "pool is too small", NULL);

	l = layout_at(KERNEL_VIRT_BASE);
	l.rodata_end += 8;
	expect_failure(&l, "not page aligned", "rodata");

	l = layout_at(KERNEL_VIRT_BASE);
	l.kernel_root += 8;
	expect_failure(&l, "aligned to its size", "a64_boot_kernel_root");

	l = layout_at(KERNEL_VIRT_BASE);
	l.section_end -= 8;
	expect_failure(&l, "not inside the .boot_tables section", "a64_boot_identity_root");
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
		cmocka_unit_test(test_linear_map_below_image),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("arm64_boot_tables." CONFIG_PRESET, tests, NULL,
					   teardown);
}
