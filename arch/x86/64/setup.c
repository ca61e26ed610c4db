/* x86_64 early setup: head.S calls arch_start() in long mode, on the boot stack, with the boot
 * tables (identity + direct map + kernel image, first 4 GiB) active. */
#include <arch/console.h>
#include <arch/memory.h>
#include <asm/multiboot.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <kernel/sections.h>

/* linker/x86_64.ld: the identity-linked multiboot header and 32-bit entry. */
extern char __boot_start[];

void x86_64_gdt_init(void); /* trap.c */
__noreturn void arch_start(uint32_t magic, uint32_t info_pa);


/* Below 1 MiB: the real-mode IVT, BIOS data, EBDA and option ROMs; and frame 0 would read as
 * "no memory" from pmm_alloc_pages(). */
#define X86_LOW_MEMORY_END 0x100000

static struct boot_info boot_info;

__noreturn void arch_start(uint32_t magic, uint32_t info_pa)
{
	struct boot_info *bi = &boot_info;

	arch_console_init();
	x86_64_gdt_init();
	/* The parser reads the loader's data below 4 GiB, all of which the boot root maps, and
	 * takes RAM as far as the direct map reaches. pmm_init's bitmap and arch_mmu_init's tables
	 * take the lowest free frames, in the first RAM range that fits: QEMU lists them in
	 * address order, and 1 MiB to 3 GiB comes first. */
	if (x86_multiboot_parse(bi, magic, info_pa, X86_DIRECT_MAP_SIZE) < 0)
		panic("not started by a multiboot loader (eax %#x)", magic);
	boot_add_reserved(bi, 0, X86_LOW_MEMORY_END);
	boot_add_reserved(bi, (phys_addr_t)(uintptr_t)__boot_start,
			  __pa(__kernel_end) - (phys_addr_t)(uintptr_t)__boot_start);
	kernel_main(bi);
}
