/* PL011 UART on QEMU virt, polled. Reached at the fixed kernel address ARM_UART_VA, which the
 * boot mapping (head.S) and the real tables (mmu.c) both provide. */
#include <arch/console.h>
#include <arch/memory.h>
#include <drivers/pl011.h>
#include "arm.h"

#define UART_BASE ((uintptr_t)ARM_UART_VA)
static struct pl011_tx uart_tx = PL011_TX_INIT;

void arch_console_init(void)
{
	pl011_try_fifo_on(UART_BASE, &uart_tx);
	*pl011_reg(UART_BASE, PL011_CR) = PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE;
}

void arch_console_putc(char c)
{
	pl011_putc(UART_BASE, &uart_tx, c);
}

int arch_console_getc(void)
{
	return pl011_getc(UART_BASE);
}

/* Raise the UART's interrupt line while received data waits (it ends arch_idle's WFI, and user
 * mode takes it: Ctrl-C). The
 * pending RX status is deliberately not cleared (no ICR write): a byte that arrived before this
 * call must still wake the first WFI. */
void arm_uart_enable_rx_irq(void)
{
	*pl011_reg(UART_BASE, PL011_IMSC) = PL011_INT_RX | PL011_INT_RT;
}
