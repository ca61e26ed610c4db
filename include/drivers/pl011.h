/* The Arm PrimeCell PL011 UART (Arm DDI 0183), QEMU virt's UART0: the console driver arm and
 * arm64 share (drivers/pl011.c). It implements the console contract of <arch/console.h>; the
 * arch says where it maps the UART, as PL011_BASE in its <asm/pl011.h>.
 *
 * The registers and the bits the driver uses, at their offsets from the base: */
#ifndef RNDBITS_DRIVERS_PL011_H
#define RNDBITS_DRIVERS_PL011_H

#define PL011_DR 0x00           /* data: a write sends a byte, a read takes one */
#define PL011_FR 0x18           /* flags */
#define PL011_LCR_H 0x2c        /* line control */
#define PL011_CR 0x30           /* control */
#define PL011_IMSC 0x38         /* interrupt mask set/clear: 1 = raise the line */

#define PL011_FR_RXFE (1u << 4)         /* receive FIFO (or holding register) empty */
#define PL011_FR_TXFE (1u << 7)         /* transmit FIFO (or holding register) empty */
#define PL011_LCR_H_FEN (1u << 4)       /* FIFOs on */
#define PL011_LCR_H_WLEN8 (3u << 5)     /* 8 data bits */
#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE (1u << 8)
#define PL011_CR_RXE (1u << 9)
#define PL011_INT_RX (1u << 4)          /* receive: the FIFO holds bytes */
#define PL011_INT_RT (1u << 6)          /* receive timeout: fewer bytes, waiting a while */

/* The transmit FIFO holds 16 bytes (32 from r1p5 on: 16 is safe for both). */
#define PL011_TX_FIFO_DEPTH 16

#endif
