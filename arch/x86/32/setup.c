/* i386 early setup: called by boot/x86/32/head.S on the boot stack with the boot mapping (the
 * linear map at PAGE_OFFSET) active. */
#include <arch/console.h>
#include <arch/memory.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <kernel/sections.h>
#include <asm/multiboot.h>
#include <asm/x86_32.h>

static struct boot_info boot_info;

static void early_puts(const char *s)
{
	while (*s)
		arch_console_putc(*s++);
}

void arch_start(uint32_t magic, uint32_t mb_info_pa);

void arch_start(uint32_t magic, uint32_t mb_info_pa)
{
	struct boot_info *bi = &boot_info;

	arch_console_init();
	x86_early_traps_init();
	if (x86_multiboot_parse(bi, magic, mb_info_pa, X86_LINEAR_MAP_SIZE)) {
		/* Nothing to learn RAM from: say so on the raw UART and stop. */
		early_puts("rndbits: not started by a multiboot loader (EAX != 0x2BADB002)\r\n");
		for (;;)
			__asm__ volatile("cli; hlt");
	}
	/* The image holds the boot page directory and the boot stack; page 0 holds the real-mode
	 * IVT and BIOS data, and a zero frame number means "no memory" to the allocator. */
	boot_add_reserved(bi, __pa(__kernel_start), (uint64_t)(__kernel_end - __kernel_start));
	boot_add_reserved(bi, 0, PAGE_SIZE);
	kernel_main(bi);
}
