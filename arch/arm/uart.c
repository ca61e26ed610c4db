/* PL011 UART on QEMU virt, polled. Reached at the fixed kernel address ARM_UART_VA, which the
 * boot mapping (head.S) and the real tables (mmu.c) both provide. */
#include <arch/console.h>
#include <arch/memory.h>
#include "arm.h"

#define UART_DR 0x00
#define UART_FR 0x18
#define UART_CR 0x30
#define UART_IMSC 0x38

#define FR_RXFE (1u << 4)
#define FR_TXFF (1u << 5)
#define CR_UARTEN (1u << 0)
#define CR_TXE (1u << 8)
#define CR_RXE (1u << 9)
#define INT_RX (1u << 4)
#define INT_RT (1u << 6)

static inline volatile uint32_t *uart_reg(unsigned off)
{
	return (volatile uint32_t *)(ARM_UART_VA + off);
}

void arch_console_init(void)
{
	*uart_reg(UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

void arch_console_putc(char c)
{
	while (*uart_reg(UART_FR) & FR_TXFF)
		;
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
