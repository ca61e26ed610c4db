/* i386's part of tools/boot_tables (its table builder), on a synthetic image laid out as
 * linker/x86.ld and boot/x86/32/head.S lay out the real one. The tables it makes are read back
 * with the kernel's own walker (pt_walk), as `pt walk` reads the live ones:
 *  - the kernel's page directory: the first MiB's linear map rw-, text r-x (2-level paging has
 *    no NX: every page reads x, which the walk shows), rodata r--, data rw- up to the boot
 *    stack's guard page, which is unmapped, the stack rw- up to the image's end, each page at
 *    PAGE_OFFSET + its physical address; all global; nothing past the image (RAM above it is
 *    arch_mmu_init's to map);
 *  - the boot page directory: the first 4 MiB at their own address and the whole linear map
 *    window, in 4 MiB pages, and nothing else;
 *  - a layout that does not fit fails with a reason: an image over too many 4 MiB stretches
 *    (out of page tables), a part not page aligned, misplaced tables. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/boot_tables_32.h>
#include <asm/memory.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot_tables_assert.h"
#include "x86_32.h"

#define PAGE ((uint64_t)PAGE_SIZE)
#define MIB 0x100000ULL
#define PDE_SIZE (4 * MIB)
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
/* What every present page grants in this format (no NX, and a present page is readable). */
#define ALWAYS (PT_R | PT_X)
#define RWX (PT_R | PT_W | PT_X)

/* An image at 1 MiB as linker/x86.ld links it, a few pages a part but text_size of text, the
 * section (the two page directories, then the page tables) after a page of data, BSS, the
 * guard page and the stack after it. */
static struct x86_32_boot_layout layout_with(uint64_t text_size)
{
	struct x86_32_boot_layout l;

	l.text_start = PAGE_OFFSET + X86_KERNEL_PHYS;
	l.text_end = l.text_start + text_size;
	l.rodata_start = l.text_end;
	l.data_start = l.rodata_start + 2 * PAGE;
	l.section = l.data_start + PAGE;
	l.boot_pgdir = l.section;
	l.kernel_pgdir = l.boot_pgdir + X86_PD_BYTES;
	l.page_tables = l.kernel_pgdir + X86_PD_BYTES;
	l.section_end = l.page_tables + X86_BOOT_PAGE_TABLES * PAGE;
	l.stack_guard = l.section_end + PAGE;
	l.stack = l.stack_guard + PAGE;
	l.kernel_end = l.stack + 4 * PAGE;
	return l;
}

static struct x86_32_boot_layout layout(void)
{
	return layout_with(3 * PAGE);
}

static uint8_t *section;

static const char *build(const struct x86_32_boot_layout *l, const char **what)
{
	free(section);
	section = calloc(1, l->section_end - l->section);
	assert_non_null(section);
	*what = NULL;
	return x86_32_boot_tables_build(l, section, what);
}

static void build_ok(const struct x86_32_boot_layout *l)
{
	const char *what, *why = build(l, &what);

	assert_tables_built(why, what);
}

/* Every page of [va, end) maps to PAGE_OFFSET's offset with prot, in the kernel's tables. */
static void expect_pages(const struct x86_32_boot_layout *l, uint64_t va, uint64_t end,
			 unsigned prot)
{
	for (; va < end; va += PAGE)
		assert_table_maps(__pa(l->kernel_pgdir), va, va - PAGE_OFFSET, prot | ALWAYS, 1);
}

static void test_image(void **state)
{
	(void)state;
	const struct x86_32_boot_layout l = layout();

	build_ok(&l);
	expect_pages(&l, PAGE_OFFSET, l.text_start, KERNEL_RW);
	expect_pages(&l, l.text_start, l.text_end, PT_R | PT_X | PT_GLOBAL);
	expect_pages(&l, l.rodata_start, l.data_start, PT_R | PT_GLOBAL);
	expect_pages(&l, l.data_start, l.stack_guard, KERNEL_RW);
	assert_table_unmapped(__pa(l.kernel_pgdir), l.stack_guard);
	expect_pages(&l, l.stack, l.kernel_end, KERNEL_RW);
	/* RAM above the image is arch_mmu_init's to map; the user half is nobody's. */
	assert_table_unmapped(__pa(l.kernel_pgdir), l.kernel_end);
	assert_table_unmapped(__pa(l.kernel_pgdir), 0);
	assert_table_unmapped(__pa(l.kernel_pgdir), X86_KERNEL_PHYS);
}

/* One page table: the image lies in its first 4 MiB. */
static void test_page_tables_used(void **state)
{
	(void)state;
	const struct x86_32_boot_layout l = layout();

	build_ok(&l);
	assert_int_equal(boot_ram_pool_used(), 1);
}

static void test_boot_pgdir(void **state)
{
	(void)state;
	const struct x86_32_boot_layout l = layout();
	const phys_addr_t root = __pa(l.boot_pgdir);
	const unsigned expected = 1 + X86_LINEAR_MAP_SIZE / PDE_SIZE;
	unsigned entries = 0;

	build_ok(&l);
	assert_table_maps(root, 0, 0, RWX, 0);
	assert_table_maps(root, X86_KERNEL_PHYS + 0x123, X86_KERNEL_PHYS + 0x123, RWX, 0);
	assert_table_maps(root, PAGE_OFFSET, 0, RWX, 0);
	assert_table_maps(root, X86_LINEAR_MAP_END - PAGE, X86_LINEAR_MAP_SIZE - PAGE, RWX, 0);
	assert_table_unmapped(root, PDE_SIZE);
	assert_table_unmapped(root, X86_LINEAR_MAP_END);
	const uint32_t *pgd = boot_ram_va(root);
	for (unsigned i = 0; i < 1024; i++)
		entries += pgd[i] != 0;
	assert_int_equal(entries, expected);
}

/* Fails, with a reason that says why_has, about `what`. */
static void expect_failure(const struct x86_32_boot_layout *l, const char *why_has,
			   const char *what)
{
	const char *w, *why = build(l, &w);

	assert_tables_refused(why, w, why_has, what);
}

static void test_what_does_not_fit(void **state)
{
	(void)state;
	/* A part ending a page into each of the next four 4 MiB stretches (the whole stretches
	 * between are 4 MiB pages): five page tables, one more than there are. */
	struct x86_32_boot_layout l = layout_with(PDE_SIZE);
	l.data_start = l.rodata_start + PDE_SIZE;
	l.section = l.data_start + PAGE;
	l.boot_pgdir = l.section;
	l.kernel_pgdir = l.boot_pgdir + X86_PD_BYTES;
	l.page_tables = l.kernel_pgdir + X86_PD_BYTES;
	l.section_end = l.page_tables + X86_BOOT_PAGE_TABLES * PAGE;
	l.stack_guard = l.data_start + PDE_SIZE;
	l.stack = l.stack_guard + PAGE;
	l.kernel_end = l.stack_guard + PDE_SIZE;
	_Static_assert(X86_BOOT_PAGE_TABLES == 4, "the layout above needs one table too many");
	expect_failure(&l, "out of page tables", "the boot stack");

	l = layout();
	l.data_start += 8;
	expect_failure(&l, "not page aligned", "rodata");

	l = layout();
	l.kernel_pgdir += 1024;
	expect_failure(&l, "page aligned", "x86_kernel_pgdir");

	l = layout();
	l.section_end -= 8;
	expect_failure(&l, "not inside the .boot_tables section", "x86_boot_page_tables");
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
		cmocka_unit_test(test_boot_pgdir),
		cmocka_unit_test(test_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("x86_32_boot_tables." CONFIG_PRESET, tests, NULL,
					   teardown);
}
