/* The Arm PrimeCell PL011 UART, polled: the register-level driver that arm and arm64 share.
 * Each arch passes the address it maps the UART at and keeps its own interrupt set-up
 * (arch/<isa>/uart.c). Inline: the base is a constant where it is used, and the console
 * path stays free of calls (under QEMU's TCG every call and return ends a translated block). */
#ifndef RNDBITS_DRIVERS_PL011_H
#define RNDBITS_DRIVERS_PL011_H

#include <types.h>

#define PL011_DR 0x00
#define PL011_FR 0x18
#define PL011_LCR_H 0x2c
#define PL011_CR 0x30
#define PL011_IMSC 0x38

#define PL011_FR_RXFE (1u << 4)
#define PL011_FR_TXFE (1u << 7)
#define PL011_LCR_H_FEN (1u << 4)
#define PL011_LCR_H_WLEN8 (3u << 5)
#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE (1u << 8)
#define PL011_CR_RXE (1u << 9)
#define PL011_INT_RX (1u << 4)
#define PL011_INT_RT (1u << 6)
/* The transmit FIFO holds 16 bytes (32 from r1p5 on: 16 is safe for both). */
#define PL011_TX_FIFO_DEPTH 16

/* Transmit bookkeeping: how many bytes may be written before FR is read again. Once FR reports
 * the transmit FIFO empty, a whole FIFO's worth fits: one FR read per 16 bytes instead of one
 * per byte (under QEMU every register access is an exit from translated code). Until the FIFO
 * is on, the holding register takes one byte at a time. The UART's address is passed apart, as
 * a constant, so that no access has to load it first. */
struct pl011_tx {
	unsigned burst, room;
};

#define PL011_TX_INIT { .burst = 1, .room = 0 }

static inline volatile uint32_t *pl011_reg(uintptr_t base, unsigned off)
{
	return (volatile uint32_t *)(base + off);
}

/* 8N1 with the FIFOs on (QEMU resets the PL011 with them off), unless input is already waiting.
 * QEMU hands the UART input from the moment it starts, and turning the FIFO on empties the
 * receive side (QEMU 7.2 only zeroes the count, so the waiting byte lingers until the next one
 * overwrites it; later versions drop it at once). Taking the byte out first is no cure: reading
 * DR lets QEMU deliver the next byte at once, and that one is lost instead. So when a script
 * piped input in before the kernel got here, the FIFO stays off and output goes one FR poll a
 * byte. Done once, at start-up. */
static inline void pl011_try_fifo_on(uintptr_t base, struct pl011_tx *tx)
{
	if (!(*pl011_reg(base, PL011_FR) & PL011_FR_RXFE))
		return;
	*pl011_reg(base, PL011_LCR_H) = PL011_LCR_H_WLEN8 | PL011_LCR_H_FEN;
	tx->burst = PL011_TX_FIFO_DEPTH;
	tx->room = 0;
}

static inline void pl011_putc(uintptr_t base, struct pl011_tx *tx, char c)
{
	if (!tx->room) {
		while (!(*pl011_reg(base, PL011_FR) & PL011_FR_TXFE))
			;
		tx->room = tx->burst;
	}
	tx->room--;
	*pl011_reg(base, PL011_DR) = (uint8_t)c;
}

/* One received byte, or -1 if none is waiting. */
static inline int pl011_getc(uintptr_t base)
{
	if (*pl011_reg(base, PL011_FR) & PL011_FR_RXFE)
		return -1;
	return (int)(*pl011_reg(base, PL011_DR) & 0xff);
}

#endif
