/* arch_start: the first C code at the kernel's virtual address (boot mapping active). */
#include <arch/console.h>
#include <arch/memory.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <kernel/sections.h>
#include <asm/arm64.h>

void arch_start(void);

static struct boot_info boot_info;
/* The interrupt controller's version, from its node's "compatible" (gic.c): QEMU's virt calls
 * it intc@8000000, GICv2 or GICv3. */
static const struct boot_dtb_request gic_request = { "intc", "compatible", a64_gic_probe };

/* A region that does not fit the linear map: RAM outside it is ignored, RAM running past its
 * end is cut there. */
static void fit_region_to_linear_map(struct mem_region *r, phys_addr_t limit)
{
	if (r->base < PHYS_OFFSET || r->base >= limit) {
		printk("arm64: ignoring RAM at %#llx outside the linear map\n",
		       (unsigned long long)r->base);
		r->size = 0;
	} else {
		printk("arm64: using only %llu MiB of RAM (linear map limit)\n",
		       (unsigned long long)((limit - r->base) >> 20));
		r->size = limit - r->base;
	}
}

/* The linear map never grows past LINEAR_MAP_MAX (that keeps it clear of the device window with
 * VA_BITS 36), so RAM beyond it cannot be used. */
static void clamp_ram_to_linear_map(struct boot_info *bi)
{
	const phys_addr_t limit = PHYS_OFFSET + LINEAR_MAP_MAX;

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		struct mem_region *r = &bi->ram[i];
		if (r->base < PHYS_OFFSET || r->base + r->size > limit)
			fit_region_to_linear_map(r, limit);
	}
}

void arch_start(void)
{
	struct boot_info *bi = &boot_info;

	arch_console_init();
	if (boot_parse_dtb(bi, __va(PHYS_OFFSET), PHYS_OFFSET, &gic_request) != 0)
		panic("arm64: no valid DTB at %#lx (load the ELF at or above 0x40100000)",
		      (unsigned long)PHYS_OFFSET);
	clamp_ram_to_linear_map(bi);
	/* The image includes BSS, the boot tables and the kernel stack. */
	boot_add_reserved(bi, __pa(__kernel_start), (uint64_t)(__kernel_end - __kernel_start));
	kernel_main(bi);
}
