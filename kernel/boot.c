/* The boot record (include/kernel/boot.h): RAM and reserved ranges as the firmware described them. The
 * arch's firmware reader fills it (kernel/boot_dtb.c for a device tree, arch/x86/multiboot.c),
 * the command line comes through kernel/cmdline.c, and kernel_main hands it to the rest. */
#include <kernel/boot.h>
#include <kernel/kernel.h>

static void add_region(struct mem_region *list, unsigned *nr, phys_addr_t base, uint64_t size)
{
	list[*nr].base = base;
	list[*nr].size = size;
	(*nr)++;
}

/* RAM past the list's room is left out: the kernel then uses less RAM than there is. */
void boot_add_ram(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	if (size != 0 && bi->nr_ram < BOOT_MAX_REGIONS)
		add_region(bi->ram, &bi->nr_ram, base, size);
}

/* A reservation can never be left out (a loader with many modules would have the page
 * allocator hand out their frames): past the list's room, the last entry grows to cover the
 * new range too, reserving whatever RAM lies between them as well. */
void boot_add_reserved(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	if (size == 0)
		return;
	if (bi->nr_reserved < BOOT_MAX_REGIONS) {
		add_region(bi->reserved, &bi->nr_reserved, base, size);
		return;
	}
	struct mem_region *last = &bi->reserved[BOOT_MAX_REGIONS - 1];
	uint64_t end = MAX(last->base + last->size, base + size);

	last->base = MIN(last->base, base);
	last->size = end - last->base;
}
