/* PL011 polling driver for QEMU virt's UART0, at IO_ADDRESS() (mapped as device memory by
 * boot_map.c, before any C code prints). */
#include <arch/console.h>
#include <asm/arm64.h>

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_LCR_H 0x2c
#define UART_IMSC 0x38
#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFE (1u << 7)
#define UART_LCR_H_FEN (1u << 4)
#define UART_LCR_H_WLEN8 (3u << 5)
/* The PL011's transmit FIFO holds 16 bytes (32 from r1p5 on: 16 is safe for both). */
#define UART_TX_FIFO_DEPTH 16
#define UART_IMSC_RXIM (1u << 4)
#define UART_IMSC_RTIM (1u << 6)

static inline volatile uint32_t *uart_reg(unsigned off)
{
	return (volatile uint32_t *)(IO_ADDRESS(VIRT_UART_PA) + off);
}

/* How many bytes may be written before FR is read again: once FR reports the transmit FIFO
 * empty, a whole FIFO's worth fits. One FR read per 16 bytes instead of one per byte: under
 * QEMU every register access is an exit from translated code. Until the FIFO is on, the
 * holding register takes one byte at a time. */
static unsigned tx_burst = 1, tx_room;

void arch_console_init(void)
{
	/* 8N1 with the FIFOs on (QEMU resets the PL011 with them off; turning them on empties the
	 * receive side, harmless before the first prompt). Raise the RX interrupt line so that
	 * arch_idle's WFI wakes on input (it stays masked in PSTATE: nothing is ever delivered). */
	*uart_reg(UART_LCR_H) = UART_LCR_H_WLEN8 | UART_LCR_H_FEN;
	*uart_reg(UART_IMSC) = UART_IMSC_RXIM | UART_IMSC_RTIM;
	tx_burst = UART_TX_FIFO_DEPTH;
	tx_room = 0;
}

void arch_console_putc(char c)
{
	if (!tx_room) {
		while (!(*uart_reg(UART_FR) & UART_FR_TXFE))
			;
		tx_room = tx_burst;
	}
	tx_room--;
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
