/* Output that bypasses printk, for the last words of a failing exception handler: straight to
 * the console driver (drivers/pl011.c), with nothing of the kernel's state in between. */
#include <arch/console.h>
#include <asm/arm64.h>

void a64_raw_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			arch_console_putc('\r');
		arch_console_putc(*s);
	}
}

void a64_raw_puthex(uint64_t v)
{
	a64_raw_puts("0x");
	for (int shift = 60; shift >= 0; shift -= 4)
		arch_console_putc("0123456789abcdef"[(v >> shift) & 0xf]);
}
