/* The PC's 16550 COM1 (arch/x86/uart.c), beyond the console contract. */
#ifndef RNDBITS_ASM_X86_UART_H
#define RNDBITS_ASM_X86_UART_H

#define X86_COM1_BASE 0x3F8
#define X86_COM1_IRQ 4

/* Raise IRQ4 while received data is waiting, so that `sti; hlt` wakes on a keystroke. */
void x86_uart_enable_rx_irq(void);

#endif
