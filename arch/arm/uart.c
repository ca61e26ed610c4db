/* PL011 UART on QEMU virt, polled. Reached at the fixed kernel address ARM_UART_VA, which the
 * boot mapping (head.S) and the real tables (mmu.c) both provide. */
#include <arch/console.h>
#include <arch/memory.h>
#include "arm.h"

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_LCR_H 0x2c
#define UART_CR 0x30
#define UART_IMSC 0x38

#define FR_RXFE (1u << 4)
#define FR_TXFE (1u << 7)
#define LCR_H_FEN (1u << 4)
#define LCR_H_WLEN8 (3u << 5)
#define CR_UARTEN (1u << 0)
#define CR_TXE (1u << 8)
#define CR_RXE (1u << 9)
#define INT_RX (1u << 4)
#define INT_RT (1u << 6)
/* The PL011's transmit FIFO holds 16 bytes (32 from r1p5 on: 16 is safe for both). */
#define TX_FIFO_DEPTH 16

static inline volatile uint32_t *uart_reg(unsigned off)
{
	return (volatile uint32_t *)(ARM_UART_VA + off);
}

/* How many bytes may be written before FR is read again: once FR reports the transmit FIFO
 * empty, a whole FIFO's worth fits. One FR read per 16 bytes instead of one per byte: under
 * QEMU every register access is an exit from translated code. Until the FIFO is on, the
 * holding register takes one byte at a time. */
static unsigned tx_burst = 1, tx_room;

void arch_console_init(void)
{
	/* 8N1 with the FIFOs on (QEMU resets the PL011 with them off; turning them on empties the
	 * receive side, harmless before the first prompt). */
	*uart_reg(UART_LCR_H) = LCR_H_WLEN8 | LCR_H_FEN;
	*uart_reg(UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
	tx_burst = TX_FIFO_DEPTH;
	tx_room = 0;
}

void arch_console_putc(char c)
{
	if (!tx_room) {
		while (!(*uart_reg(UART_FR) & FR_TXFE))
			;
		tx_room = tx_burst;
	}
	tx_room--;
	*uart_reg(UART_DR) = (uint8_t)c;
}

int arch_console_getc(void)
{
	if (*uart_reg(UART_FR) & FR_RXFE)
		return -1;
	return (int)(*uart_reg(UART_DR) & 0xff);
}

/* Raise the UART's interrupt line while received data waits (used by arch_idle's WFI). The
 * pending RX status is deliberately not cleared (no ICR write): a byte that arrived before this
 * call must still wake the first WFI. */
void arm_uart_enable_rx_irq(void)
{
	*uart_reg(UART_IMSC) = INT_RX | INT_RT;
}
