/* The PL011 console of arm and arm64 (QEMU virt's UART0), polled, with its receive interrupt
 * raised while input waits: the console contract of <arch/console.h>. Registers and bits:
 * <drivers/pl011.h>; where the arch maps the UART: PL011_BASE in <asm/pl011.h>. */
#include <arch/console.h>
#include <asm/pl011.h>
#include <drivers/pl011.h>
#include <lib/types.h>

static volatile uint32_t *reg(unsigned off)
{
	return (volatile uint32_t *)(PL011_BASE + off);
}

/* Bytes that may be written before FR is read again. Once FR says the transmit FIFO is empty a
 * whole FIFO's worth fits, so with the FIFO on FR is read once per 16 bytes, not per byte (a
 * device register read is slow: an uncached bus access, and an exit to the emulator under
 * QEMU). Until the FIFO is on, the holding register takes one byte at a time. */
static unsigned tx_burst = 1, tx_room;

/* 8N1 with the FIFOs on (the UART resets with them off), unless input is already waiting.
 * QEMU hands the UART input from the moment it starts, and turning the FIFO on empties the
 * receive side (QEMU 7.2 only zeroes the count, so the waiting byte lingers until the next one
 * overwrites it; later versions drop it at once). Taking the byte out first is no cure: reading
 * DR lets QEMU deliver the next byte at once, and that one is lost instead. So when a script
 * piped input in before the kernel got here, the FIFO stays off and output polls FR for every
 * byte (qemu/tests/typeahead.py checks that such input is kept). */
static void fifo_on_unless_input_waits(void)
{
	if (!(*reg(PL011_FR) & PL011_FR_RXFE))
		return;
	*reg(PL011_LCR_H) = PL011_LCR_H_WLEN8 | PL011_LCR_H_FEN;
	tx_burst = PL011_TX_FIFO_DEPTH;
	tx_room = 0;
}

/* Raise the UART's interrupt line while received bytes wait: it ends arch_idle's WFI, and a
 * user program takes it (Ctrl-C). The line stays low at the CPU until the arch's interrupt
 * controller routes it; a byte that arrived before this call still raises it, since the
 * pending receive status is not cleared (no ICR write). */
void arch_console_init(void)
{
	fifo_on_unless_input_waits();
	*reg(PL011_CR) = PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE;
	*reg(PL011_IMSC) = PL011_INT_RX | PL011_INT_RT;
}

void arch_console_putc(char c)
{
	if (!tx_room) {
		while (!(*reg(PL011_FR) & PL011_FR_TXFE))
			;
		tx_room = tx_burst;
	}
	tx_room--;
	*reg(PL011_DR) = (uint8_t)c;
}

int arch_console_getc(void)
{
	if (*reg(PL011_FR) & PL011_FR_RXFE)
		return -1;
	return (int)(*reg(PL011_DR) & 0xff);
}
