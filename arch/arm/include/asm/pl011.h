/* Where arm maps the PL011 (drivers/pl011.c): the fixed kernel address ARM_UART_VA, which the
 * boot tables and the kernel's own tables both provide. */
#ifndef RNDBITS_ASM_PL011_H
#define RNDBITS_ASM_PL011_H

#include <asm/memory.h>

#define PL011_BASE ((uintptr_t)ARM_UART_VA)

#endif
