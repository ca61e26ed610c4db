/* PL011 polling driver for QEMU virt's UART0, at IO_ADDRESS() (mapped as device memory by the
 * boot tables, tools/boot_tables, before any C code prints). */
#include <arch/console.h>
#include <asm/arm64.h>
#include <drivers/pl011.h>

#define UART_BASE ((uintptr_t)IO_ADDRESS(VIRT_UART_PA))
static struct pl011_tx uart_tx = PL011_TX_INIT;

void arch_console_init(void)
{
	pl011_try_fifo_on(UART_BASE, &uart_tx);
	/* Raise the RX interrupt line while received bytes wait: it ends arch_idle's WFI, and a
	 * user program takes it (Ctrl-C). */
	*pl011_reg(UART_BASE, PL011_IMSC) = PL011_INT_RX | PL011_INT_RT;
}

void arch_console_putc(char c)
{
	pl011_putc(UART_BASE, &uart_tx, c);
}

int arch_console_getc(void)
{
	return pl011_getc(UART_BASE);
}

/* Output that bypasses printk, for the last words of a failing exception handler. */
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
