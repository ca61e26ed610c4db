/* Arch interface: the serial console's raw bytes. Drivers touch registers only; echo, CR/LF and
 * line editing live in kernel/console.c. */
#ifndef RNDBITS_ARCH_CONSOLE_H
#define RNDBITS_ARCH_CONSOLE_H

#include <lib/types.h>

/* Make the UART usable (may be called before the MMU switch and again after it). */
void arch_console_init(void);
/* Send one byte, waiting while the transmit FIFO is full. No translation. */
void arch_console_putc(char c);
/* One received byte (0..255), or -1 if none is waiting. Never blocks. */
int arch_console_getc(void);

#endif
