/* arm64's boot tables' contents, from the linked image's layout, made by the kernel's own mapper.
 *   TTBR1: the image, page by page: text r-x, rodata r--, data and BSS rw-, the kernel stack's
 *            guard page left unmapped;
 *          the linear map below it, [PHYS_OFFSET, image): the DTB, and the room pmm_init puts
 *            the frame bitmap and owner counts in before arch_mmu_init maps the rest of RAM
 *            (blocks where the granule has blocks that small, 4K's 2 MiB, else pages);
 *          the PL011 at IO_ADDRESS(), Device-nGnRE, for printk until then, and the table the
 *            GIC's frames go in once the DTB has named its version (arch_mmu_init), so that the
 *            boot takes no table from the page allocator (with 16K and 64K it is the UART's).
 *   TTBR0: identity of the block holding the image, only until head.S's jump to the high
 *          address. The boot TCR gives TTBR0 a 32-bit range, whose walks start at the block
 *          level: its root holds the block, and needs no table below it.
 * The tables below the kernel root come from the boot pool, which they must take exactly. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/arm64.h>
#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>

#include "arm64.h"

#define LAST_LEVEL (A64_PT_LEVELS - 1)
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)

/* The generic level whose leaves are the identity map's blocks. */
#define BOOT_BLOCK_LEVEL (LAST_LEVEL - (A64_BOOT_BLOCK_SHIFT - PAGE_SHIFT) / A64_PT_BITS)
_Static_assert(A64_LEVEL_SHIFT(BOOT_BLOCK_LEVEL) == A64_BOOT_BLOCK_SHIFT,
	       "the identity map's block size is a level's");
_Static_assert(KERNEL_PHYS_BASE < 1ULL << A64_BOOT_ID_VA_BITS,
	       "the identity map's range must hold the image");

#define POOL_DRY "the boot pool is too small (A64_BOOT_POOL_TABLES)"

/* Each table where head.S's TTBRs want it: inside the section, aligned to its size (and to 64
 * bytes at least), the pool to pages. */
static const char *check_placement(const struct a64_boot_layout *l, const char **what)
{
	const struct {
		uint64_t va, size, align;
		const char *what;
	} tables[] = {
		{ l->pool, (uint64_t)A64_BOOT_POOL_TABLES * PAGE_SIZE, PAGE_SIZE, "a64_boot_pool" },
		{ l->kernel_root, A64_ROOT_BYTES, MAX(64, A64_ROOT_BYTES), "a64_boot_kernel_root" },
		{ l->identity_root, A64_BOOT_ID_ROOT_BYTES, MAX(64, A64_BOOT_ID_ROOT_BYTES),
		  "a64_boot_identity_root" },
		{ l->empty_root, A64_EMPTY_ROOT_BYTES, MAX(64, A64_EMPTY_ROOT_BYTES),
		  "a64_boot_empty_root" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		if (!boot_tables_lies_in(l->section, l->section_end, tables[i].va, tables[i].size,
					 tables[i].align)) {
			*what = tables[i].what;
			return "not inside the .boot_tables section, or not aligned to its size";
		}
	}
	return NULL;
}

/* The last-level table va's page would go in, made now but left empty: pt_map makes the
 * tables on a page's way down, and the page is then taken out of its slot again. */
static int reserve_table(phys_addr_t root, uint64_t va)
{
	struct pt_walk_result w;
	int err = pt_map(root, va, 0, PAGE_SIZE, PT_R | PT_GLOBAL, 0);

	if (err)
		return err;
	pt_walk(root, va, &w);
	const struct pt_step *leaf = &w.steps[w.nr_steps - 1];
	arch_pt_store(boot_ram_va(leaf->table_pa), leaf->index, 0);
	return 0;
}

const char *a64_boot_tables_build(const struct a64_boot_layout *l, uint8_t *bytes,
				  const char **what)
{
	/* The pool's tables go, in order, to the image's path down from the root (which the
	 * linear map below it shares), then to the device window's. */
	const struct boot_mapping maps[] = {
		{ l->text_start, l->text_end, __pa(l->text_start), PT_R | PT_X | PT_GLOBAL, 0,
		  "text" },
		{ PAGE_OFFSET, l->text_start, PHYS_OFFSET, KERNEL_RW, PT_MAP_BLOCKS,
		  "the linear map below the image" },
		{ l->text_end, l->rodata_end, __pa(l->text_end), PT_R | PT_GLOBAL, 0, "rodata" },
		{ l->data_start, l->kstack_guard, __pa(l->data_start), KERNEL_RW, 0,
		  "data and BSS below the stack guard" },
		{ l->kstack_bottom, l->kernel_end, __pa(l->kstack_bottom), KERNEL_RW, 0,
		  "the kernel stack and what follows it" },
		{ IO_ADDRESS(VIRT_UART_PA), IO_ADDRESS(VIRT_UART_PA) + PAGE_SIZE, VIRT_UART_PA,
		  PT_R | PT_W | PT_DEVICE | PT_GLOBAL, 0, "the PL011" },
	};
	const phys_addr_t kernel_root = __pa(l->kernel_root);
	const char *why = check_placement(l, what);

	if (why)
		return why;
	boot_ram_init(bytes, __pa(l->section), l->section_end - l->section, __pa(l->pool),
		      A64_BOOT_POOL_TABLES, PAGE_SIZE);
	why = boot_tables_map(kernel_root, maps, ARRAY_SIZE(maps), POOL_DRY, what);
	if (why)
		return why;
	*what = "the GIC's table";
	int err = reserve_table(kernel_root, IO_ADDRESS(VIRT_GICD_PA));
	if (err)
		return boot_tables_refusal(err, POOL_DRY);
	*what = "a64_boot_pool";
	if (boot_ram_pool_used() != A64_BOOT_POOL_TABLES)
		return "the mappings left tables of the boot pool unused (A64_BOOT_POOL_TABLES)";

	const phys_addr_t block = KERNEL_PHYS_BASE & ~((1ULL << A64_BOOT_BLOCK_SHIFT) - 1);
	arch_pt_store(boot_ram_va(__pa(l->identity_root)), block >> A64_BOOT_BLOCK_SHIFT,
		      arch_pte_make_leaf(BOOT_BLOCK_LEVEL, block, PT_R | PT_W | PT_X | PT_GLOBAL));
	*what = NULL;
	return NULL;
}

const char *boot_tables_make(const struct boot_image *image, uint8_t *bytes, const char **what)
{
	const struct a64_boot_layout l = {
		.text_start = image->symbol(image, "__text_start"),
		.text_end = image->symbol(image, "__text_end"),
		.rodata_end = image->symbol(image, "__rodata_end"),
		.data_start = image->symbol(image, "__data_start"),
		.kstack_guard = image->symbol(image, "a64_kstack_guard"),
		.kstack_bottom = image->symbol(image, "a64_kstack_bottom"),
		.kernel_end = image->symbol(image, "__kernel_end"),
		.section = image->section,
		.section_end = image->section_end,
		.pool = image->symbol(image, "a64_boot_pool"),
		.kernel_root = image->symbol(image, "a64_boot_kernel_root"),
		.identity_root = image->symbol(image, "a64_boot_identity_root"),
		.empty_root = image->symbol(image, "a64_boot_empty_root"),
	};

	return a64_boot_tables_build(&l, bytes, what);
}
