/* The periodic tick (include/arch/task.h): the 8254 PIT's channel 0 through the 8259's IRQ 0,
 * shared by i386 and x86_64. QEMU's PIT runs on the virtual clock, so HZ ticks a second of
 * guest time. The width's trap code acknowledges the IRQ (EOI) and reports it as IRQ_TIMER. */
#include <arch/task.h>
#include <asm/io.h>
#include <asm/pic.h>

#define PIT_INPUT_HZ 1193182u /* the PC's 14.31818 MHz crystal / 12 */
#define PIT_CH0_DATA 0x40
#define PIT_MODE 0x43
/* Channel 0, low byte then high byte of the divisor, mode 2 (rate generator), binary. */
#define PIT_CH0_RATE_GENERATOR 0x34

void arch_timer_start(unsigned hz)
{
	unsigned divisor = (PIT_INPUT_HZ + hz / 2) / hz;

	if (divisor > 0xFFFF) /* below 19 Hz: the slowest rate the 16-bit counter gives */
		divisor = 0xFFFF;
	outb(PIT_MODE, PIT_CH0_RATE_GENERATOR);
	outb(PIT_CH0_DATA, divisor & 0xFF);
	outb(PIT_CH0_DATA, divisor >> 8);
	x86_pic_unmask(X86_TIMER_IRQ);
}
