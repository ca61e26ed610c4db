/* Where arm64 maps the PL011 (drivers/pl011.c): its physical address in the fixed I/O window,
 * IO_ADDRESS(), which the boot tables map as device memory before any C code prints. */
#ifndef RNDBITS_ASM_PL011_H
#define RNDBITS_ASM_PL011_H

#include <asm/arm64.h>

#define PL011_BASE ((uintptr_t)IO_ADDRESS(VIRT_UART_PA))

#endif
