/* arm's part of tools/boot_tables (its table builder), once per arm preset, on a synthetic
 * image laid out as linker/arm.ld and head.S lay out the real one. The tables it makes are read
 * back with the kernel's own walker (pt_walk), as `pt walk` reads the live ones:
 *  - the kernel half: the linear map below the image rw- in sections, text r-x, rodata r--, data rw- up to the kernel stack's guard page,
 *    which is unmapped, the stack and what follows rw- up to the image's end, each page at its
 *    load address; the PL011 and the GIC's two frames (Device, rw-); all global; three of the
 *    pool's L2 tables;
 *  - the boot L1 table: lowmem's linear map, the MiB of the image's start at its load address
 *    (unless the linear map holds it), the device MiBs, all in sections, and nothing else;
 *  - a layout that does not fit fails with a reason: an image over too many MiBs (out of L2
 *    tables), a part not page aligned, misplaced tables. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/kernel_tables.h>
#include <asm/memory.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arm.h"
#include "boot_tables_assert.h"

#define PAGE ((uint64_t)PAGE_SIZE)
#define MIB 0x100000ULL
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define DEVICE (KERNEL_RW | PT_DEVICE)
#define RWX (PT_R | PT_W | PT_X | PT_GLOBAL)

/* An image at the load address, a few pages a part but rodata_size of rodata, the section (the
 * kernel's tables, then the boot L1 table) after a page of data, the stacks right after it. */
static struct arm_boot_layout layout_with(uint64_t rodata_size)
{
	struct arm_boot_layout l;

	l.text_start = ARM_KERNEL_LOAD_PA + ARM_PV_OFFSET;
	l.text_end = l.text_start + 3 * PAGE;
	l.rodata_start = l.text_end;
	l.rodata_end = l.rodata_start + rodata_size;
	l.data_start = l.rodata_end;
	l.section = ALIGN_UP(l.data_start + PAGE, ARM_KERNEL_TABLES_ALIGN);
	l.tables = l.section;
	l.boot_pgd = ALIGN_UP(l.tables + ARM_KERNEL_TABLES_BYTES, 16384);
	l.section_end = l.boot_pgd + 16384;
	l.svc_stack = l.section_end;
	l.kernel_end = l.svc_stack + 3 * PAGE;
	return l;
}

_Static_assert(ARM_KERNEL_L2_TABLES == 4, "test_what_does_not_fit needs one table too many");

static struct arm_boot_layout layout(void)
{
	return layout_with(2 * PAGE);
}

static uint8_t *section;

static const char *build(const struct arm_boot_layout *l, const char **what)
{
	free(section);
	section = calloc(1, l->section_end - l->section);
	assert_non_null(section);
	*what = NULL;
	return arm_boot_tables_build(l, section, what);
}

static void build_ok(const struct arm_boot_layout *l)
{
	const char *what, *why = build(l, &what);

	assert_tables_built(why, what);
}

/* Every page of [va, end) maps to its load address with prot, in the kernel's tables. */
static void expect_pages(const struct arm_boot_layout *l, uint64_t va, uint64_t end,
			 unsigned prot)
{
	for (; va < end; va += PAGE)
		assert_table_maps(__pa(l->tables), va, __pa(va), prot, 1);
}

static void test_image(void **state)
{
	(void)state;
	const struct arm_boot_layout l = layout();
	const uint64_t guard = l.svc_stack - PAGE;

	build_ok(&l);
	expect_pages(&l, l.text_start, l.text_end, PT_R | PT_X | PT_GLOBAL);
	expect_pages(&l, l.rodata_start, l.rodata_end, PT_R | PT_GLOBAL);
	expect_pages(&l, l.data_start, guard, KERNEL_RW);
	assert_table_unmapped(__pa(l.tables), guard);
	expect_pages(&l, l.svc_stack, l.kernel_end, KERNEL_RW);
	/* RAM below the image is the build's too, in sections; above it arch_mmu_init's. */
	assert_table_maps(__pa(l.tables), PAGE_OFFSET, ARM_PHYS_OFFSET, KERNEL_RW, 0);
	assert_table_maps(__pa(l.tables), l.text_start - PAGE, __pa(l.text_start - PAGE),
			  KERNEL_RW, 0);
	assert_table_unmapped(__pa(l.tables), l.kernel_end);
}

static void test_devices(void **state)
{
	(void)state;
	const struct arm_boot_layout l = layout();
	const phys_addr_t root = __pa(l.tables);

	build_ok(&l);
	assert_table_maps(root, ARM_UART_VA, ARM_UART_PA, DEVICE, 1);
	assert_table_maps(root, ARM_GICD_VA, ARM_GICD_PA, DEVICE, 1);
	assert_table_maps(root, ARM_GICC_VA, ARM_GICC_PA, DEVICE, 1);
	assert_table_unmapped(root, ARM_UART_VA + PAGE);
	assert_table_unmapped(root, ARM_GICD_VA + PAGE);
	assert_table_unmapped(root, ARM_GICC_VA + PAGE);
}

/* One L2 table for the image's MiB, one each for the UART's and the GIC's. */
static void test_l2_used(void **state)
{
	(void)state;
	const struct arm_boot_layout l = layout();

	build_ok(&l);
	assert_int_equal(boot_ram_pool_used(), 3);
}

static void test_boot_pgd(void **state)
{
	(void)state;
	const struct arm_boot_layout l = layout();
	const phys_addr_t root = __pa(l.boot_pgd);
	const uint64_t identity = ALIGN_DOWN(__pa(l.text_start), MIB);
	const bool identity_apart = identity < PAGE_OFFSET;
	unsigned expected = (ARM_LOWMEM_END - PAGE_OFFSET) / MIB + 2 + identity_apart, entries = 0;

	build_ok(&l);
	assert_table_maps(root, PAGE_OFFSET, ARM_PHYS_OFFSET, RWX, 0);
	assert_table_maps(root, ARM_LOWMEM_END - MIB, ARM_LOWMEM_END - MIB - ARM_PV_OFFSET, RWX, 0);
	assert_table_maps(root, identity, identity, RWX, 0);
	assert_table_maps(root, ARM_UART_VA + 0x123, ARM_UART_PA + 0x123, DEVICE, 0);
	assert_table_maps(root, ARM_GIC_VA + 0x10000, ARM_GIC_PA + 0x10000, DEVICE, 0);
	assert_table_unmapped(root, ARM_LOWMEM_END);
	if (identity_apart)
		assert_table_unmapped(root, identity - MIB);
	const uint32_t *pgd = boot_ram_va(root);
	for (unsigned i = 0; i < ARM_L1_ENTRIES; i++)
		entries += pgd[i] != 0;
	assert_int_equal(entries, expected);
}

/* Fails, with a reason that says why_has, about `what`. */
static void expect_failure(const struct arm_boot_layout *l, const char *why_has,
			   const char *what)
{
	const char *w, *why = build(l, &w);

	assert_tables_refused(why, w, why_has, what);
}

static void test_what_does_not_fit(void **state)
{
	(void)state;
	/* Rodata into the image's second MiB, the stacks and what follows into its third: three
	 * L2 tables for the image (one a MiB: no MiB is whole) and two for the devices, one more
	 * than there are. */
	struct arm_boot_layout l = layout_with(MIB);
	l.kernel_end += MIB;
	expect_failure(&l, "out of kernel L2 tables", "the GIC distributor");

	l = layout();
	l.rodata_end += 8;
	expect_failure(&l, "not page aligned", "rodata");

	l = layout();
	l.tables += 1024;
	expect_failure(&l, "16 KiB aligned", "arm_kernel_tables");

	l = layout();
	l.section_end -= 8;
	expect_failure(&l, "not inside the .boot_tables section", "boot_pgd");
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
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_l2_used),
		cmocka_unit_test(test_boot_pgd),
		cmocka_unit_test(test_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("arm_boot_tables." CONFIG_PRESET, tests, NULL,
					   teardown);
}
