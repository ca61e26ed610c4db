/* arm's part of tools/boot_tables (see boot_tables.h): the translation tables in the image's
 * .boot_tables section, made by the kernel's own mapper. First the kernel half's
 * (asm/kernel_tables.h), with what the link fixes:
 *   the linear map below the image, rw-, in sections: RAM's first MiBs, up to the load address;
 *   the image, page by page at its load address: text r-x, rodata r--, data, BSS and the boot
 *     tables rw- up to the kernel stack's guard page, left unmapped (the boot L1 table's top
 *     page, which nothing uses once arch_mmu_init has switched to these tables), the stacks
 *     rw- up to the image's end;
 *   the device pages at their fixed addresses (asm/memory.h), Device, rw-: the PL011 and the
 *     GIC's distributor and CPU interface.
 * All global (the kernel half is every address space's). L2 tables come from the pool in
 * kernel_tables.h, in order; arch_mmu_init's pt_map adds RAM's linear map into them where RAM
 * shares a MiB with the image.
 * Then head.S's boot L1 table (boot_pgd), in sections, global, until arch_mmu_init switches:
 *   the linear map of all lowmem rwx, as generic code touches RAM through __va before
 *     arch_mmu_init has learnt from the DTB where RAM is;
 *   the MiB holding _start at its load address (rwx), for the few instructions between the
 *     MMU switch and the jump to the linked address; with the 1G split the linear map has it;
 *   the MiBs of the PL011 and the GIC at their fixed addresses, Device, rw-. */
#include <arch/mmu.h>
#include <mm/pgtable.h>
#include <asm/kernel_tables.h>
#include <asm/memory.h>

#include "arm.h"

#define L2_TABLE_BYTES (ARM_L2_ENTRIES * sizeof(uint32_t))
#define KERNEL_RW (PT_R | PT_W | PT_GLOBAL)
#define DEVICE (PT_R | PT_W | PT_DEVICE | PT_GLOBAL)
#define RWX (PT_R | PT_W | PT_X | PT_GLOBAL)

#define SECTION_SIZE 0x100000u
#define BOOT_PGD_BYTES (ARM_L1_ENTRIES * sizeof(uint32_t))

#define POOL_DRY "out of kernel L2 tables (ARM_KERNEL_L2_TABLES)"
/* Blocks are allowed everywhere: a whole MiB is a section, as arch_mmu_init makes it. */
#define BLOCKS PT_MAP_BLOCKS

const char *arm_boot_tables_build(const struct arm_boot_layout *l, uint8_t *bytes,
				  const char **what)
{
	const uint64_t guard = l->svc_stack - PAGE_SIZE;
	const struct boot_mapping maps[] = {
		{ PAGE_OFFSET, l->text_start, ARM_PHYS_OFFSET, KERNEL_RW, BLOCKS,
		  "the linear map below the image" },
		{ l->text_start, l->text_end, __pa(l->text_start), PT_R | PT_X | PT_GLOBAL, BLOCKS,
		  "text" },
		{ l->rodata_start, l->rodata_end, __pa(l->rodata_start), PT_R | PT_GLOBAL, BLOCKS,
		  "rodata" },
		{ l->data_start, guard, __pa(l->data_start), KERNEL_RW, BLOCKS,
		  "data and BSS below the stack guard" },
		{ l->svc_stack, l->kernel_end, __pa(l->svc_stack), KERNEL_RW, BLOCKS,
		  "the kernel stack and what follows it" },
		{ ARM_UART_VA, ARM_UART_VA + PAGE_SIZE, ARM_UART_PA, DEVICE, BLOCKS, "the PL011" },
		{ ARM_GICD_VA, ARM_GICD_VA + PAGE_SIZE, ARM_GICD_PA, DEVICE, BLOCKS,
		  "the GIC distributor" },
		{ ARM_GICC_VA, ARM_GICC_VA + PAGE_SIZE, ARM_GICC_PA, DEVICE, BLOCKS,
		  "the GIC CPU interface" },
	};

	const uint64_t identity = ALIGN_DOWN(__pa(l->text_start), SECTION_SIZE);
	const struct boot_mapping boot_maps[] = {
		{ PAGE_OFFSET, ARM_LOWMEM_END, ARM_PHYS_OFFSET, RWX, BLOCKS,
		  "the boot linear map" },
		{ ARM_UART_VA, ARM_UART_VA + SECTION_SIZE, ARM_UART_PA, DEVICE, BLOCKS,
		  "the PL011's MiB" },
		{ ARM_GIC_VA, ARM_GIC_VA + SECTION_SIZE, ARM_GIC_PA, DEVICE, BLOCKS,
		  "the GIC's MiB" },
		/* Last: left out where the linear map holds it. */
		{ identity, identity + SECTION_SIZE, identity, RWX, BLOCKS,
		  "the boot identity map" },
	};
	const bool identity_in_linear = identity >= PAGE_OFFSET && identity < ARM_LOWMEM_END;

	*what = "arm_kernel_tables";
	if (!boot_tables_lies_in(l->section, l->section_end, l->tables, ARM_KERNEL_TABLES_BYTES,
				 ARM_KERNEL_TABLES_ALIGN))
		return "not inside the .boot_tables section, or not 16 KiB aligned";
	*what = "boot_pgd";
	if (!boot_tables_lies_in(l->section, l->section_end, l->boot_pgd, BOOT_PGD_BYTES,
				 BOOT_PGD_BYTES))
		return "not inside the .boot_tables section, or not 16 KiB aligned";
	const phys_addr_t tables = __pa(l->tables);
	boot_ram_init(bytes, __pa(l->section), l->section_end - l->section,
		      tables + offsetof(struct arm_kernel_tables, l2), ARM_KERNEL_L2_TABLES,
		      L2_TABLE_BYTES);
	const char *why = boot_tables_map(tables + offsetof(struct arm_kernel_tables, l1), maps,
					  ARRAY_SIZE(maps), POOL_DRY, what);
	if (why)
		return why;
	const unsigned kernel_l2_tables = boot_ram_pool_used();

	why = boot_tables_map(__pa(l->boot_pgd), boot_maps,
			      ARRAY_SIZE(boot_maps) - identity_in_linear, POOL_DRY, what);
	if (why)
		return why;
	/* Sections only: an L2 table here would be one of the kernel's. */
	*what = "boot_pgd";
	if (boot_ram_pool_used() != kernel_l2_tables)
		return "the boot mappings are not whole MiBs";
	*what = NULL;
	return NULL;
}

const char *boot_tables_make(const struct boot_image *image, uint8_t *bytes, const char **what)
{
	const struct arm_boot_layout l = {
		.text_start = image->symbol(image, "__text_start"),
		.text_end = image->symbol(image, "__text_end"),
		.rodata_start = image->symbol(image, "__rodata_start"),
		.rodata_end = image->symbol(image, "__rodata_end"),
		.data_start = image->symbol(image, "__data_start"),
		.svc_stack = image->symbol(image, "boot_svc_stack"),
		.kernel_end = image->symbol(image, "__kernel_end"),
		.section = image->section,
		.section_end = image->section_end,
		.tables = image->symbol(image, "arm_kernel_tables"),
		.boot_pgd = image->symbol(image, "boot_pgd"),
	};

	return arm_boot_tables_build(&l, bytes, what);
}
