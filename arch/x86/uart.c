/* 16550 UART on COM1, polled (shared by i386 and x86_64). QEMU's 16550 transmits at once, so
 * the transmit wait is for real hardware's sake.
 *
 * The FIFOs stay as the firmware left them (off, after QEMU's reset): writing FCR to switch them
 * on flushes the receive side, losing whatever the host already pushed (a piped transcript
 * arrives before we are up). Without the FIFO QEMU hands over one byte per read of RBR and
 * holds the rest, so nothing is dropped. */
#include <arch/console.h>
#include <asm/io.h>
#include <asm/uart.h>

enum {
	UART_RBR = 0, /* receive buffer (read) / transmit holding (write) */
	UART_IER = 1,
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
	UART_DLL = 0, /* divisor latch, with LCR.DLAB set */
	UART_DLM = 1,
};

#define UART_LCR_8N1 0x03
#define UART_LCR_DLAB 0x80
#define UART_MCR_DTR_RTS_OUT2 0x0B /* OUT2 gates the IRQ line on PC boards */
#define UART_LSR_DR 0x01
#define UART_LSR_THRE 0x20
#define UART_IER_RDI 0x01

static uint8_t uart_ier;
static bool uart_ready;

static inline void uart_write(unsigned reg, uint8_t v)
{
	outb(X86_COM1_BASE + reg, v);
}

static inline uint8_t uart_read(unsigned reg)
{
	return inb(X86_COM1_BASE + reg);
}

/* Port I/O does not care about the MMU switch: later calls keep the line (and any typed-ahead
 * bytes in the receive FIFO) as they are. */
void arch_console_init(void)
{
	if (uart_ready)
		return;
	uart_ready = true;
	uart_write(UART_IER, 0);
	uart_write(UART_LCR, UART_LCR_DLAB);
	uart_write(UART_DLL, 1); /* 115200 baud */
	uart_write(UART_DLM, 0);
	uart_write(UART_LCR, UART_LCR_8N1);
	uart_write(UART_MCR, UART_MCR_DTR_RTS_OUT2);
	uart_write(UART_IER, uart_ier);
}

void x86_uart_enable_rx_irq(void)
{
	uart_ier = UART_IER_RDI;
	uart_write(UART_IER, uart_ier);
}

void arch_console_putc(char c)
{
	while (!(uart_read(UART_LSR) & UART_LSR_THRE))
		;
	uart_write(UART_RBR, (uint8_t)c);
}

int arch_console_getc(void)
{
	if (!(uart_read(UART_LSR) & UART_LSR_DR))
		return -1;
	return uart_read(UART_RBR);
}
