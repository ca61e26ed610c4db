/* ARMv7-A early C entry, called by boot/arm/head.S on the boot stack with the boot mapping. */
#include <arch/console.h>
#include <arch/memory.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/fdt.h>
#include <kernel/sections.h>
#include <asm/cp15.h>
#include "arm.h"

/* QEMU puts the DTB at the start of RAM when the image is loaded at or above 0x40100000. */
#define ARM_DTB_PA ARM_PHYS_OFFSET
#define QEMU_VIRT_DEFAULT_RAM (128u << 20)

static struct boot_info arm_boot_info;

/* The kernel maps RAM only through the linear map: drop what lies below ARM_PHYS_OFFSET (a
 * region wholly below it ends up empty at its own end) and above ARM_LOWMEM_END (the boot
 * log's RAM size shows what is left). Bounds by MIN/MAX, so a region costs no branches. */
static void clamp_ram_to_lowmem(struct boot_info *bi)
{
	const uint64_t lowmem_end = ARM_LOWMEM_END - PAGE_OFFSET + ARM_PHYS_OFFSET;

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		struct mem_region *r = &bi->ram[i];
		uint64_t end = r->base + r->size;
		uint64_t base = MAX(r->base, MIN(end, (uint64_t)ARM_PHYS_OFFSET));
		uint64_t kept_end = MIN(end, lowmem_end);

		r->base = base;
		r->size = MAX(kept_end, base) - base; /* 0 if nothing is left */
	}
}

/* /psci's "method" names the conduit (the default is hvc). It is one string: exactly "smc" and
 * its NUL, or not smc. */
static void set_psci_conduit(const struct fdt_item *method)
{
	static const char *const smc[] = { "smc" };

	arm_set_psci_conduit(method->len == sizeof("smc") &&
			     fdt_name_index(method->value, smc, 1, false) == 0);
}

static const struct boot_dtb_request psci_request = { "psci", "method", set_psci_conduit };

/* As on Linux, user code may read the virtual counter (CNTKCTL.PL0VCTEN) but not the physical
 * one or the timers. */
static void allow_user_counter(void)
{
	arm_write_cntkctl((arm_read_cntkctl() & ~0x3ffu) | ARM_CNTKCTL_PL0VCTEN);
}

void arch_start(void)
{
	struct boot_info *bi = &arm_boot_info;

	arch_console_init();
	allow_user_counter();
	if (boot_parse_dtb(bi, __va(ARM_DTB_PA), ARM_DTB_PA, &psci_request) != 0) {
		printk("arm: no valid DTB at %#x, assuming %u MiB of RAM at %#x\n",
		       (unsigned)ARM_DTB_PA, QEMU_VIRT_DEFAULT_RAM >> 20, (unsigned)ARM_PHYS_OFFSET);
		boot_add_ram(bi, ARM_PHYS_OFFSET, QEMU_VIRT_DEFAULT_RAM);
	}
	clamp_ram_to_lowmem(bi);
	/* The image includes the boot translation table and the boot stacks. */
	boot_add_reserved(bi, __pa(__kernel_start), (uint64_t)(__kernel_end - __kernel_start));
	kernel_main(bi);
}
