/* PL011 polling driver for QEMU virt's UART0, at IO_ADDRESS() (mapped as device memory by
 * boot_map.c, before any C code prints). */
#include <arch/console.h>
#include <asm/arm64.h>

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_IMSC 0x38
#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFF (1u << 5)
#define UART_IMSC_RXIM (1u << 4)
#define UART_IMSC_RTIM (1u << 6)

static inline volatile uint32_t *uart_reg(unsigned off)
{
	return (volatile uint32_t *)(IO_ADDRESS(VIRT_UART_PA) + off);
}

void arch_console_init(void)
{
	/* QEMU's PL011 is enabled at reset. Raise the RX interrupt line so that arch_idle's WFI
	 * wakes on input (it stays masked in PSTATE: nothing is ever delivered). */
	*uart_reg(UART_IMSC) = UART_IMSC_RXIM | UART_IMSC_RTIM;
}

void arch_console_putc(char c)
{
	while (*uart_reg(UART_FR) & UART_FR_TXFF)
		;
	*uart_reg(UART_DR) = (uint8_t)c;
}

int arch_console_getc(void)
{
	if (*uart_reg(UART_FR) & UART_FR_RXFE)
		return -1;
	return (int)(*uart_reg(UART_DR) & 0xff);
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
