/* 8259A pair in the PC's classic cascade (shared by i386 and x86_64). */
#include <arch/trap.h>
#include <asm/io.h>
#include <asm/pic.h>
#include <asm/uart.h>

enum {
	PIC1_CMD = 0x20,
	PIC1_DATA = 0x21,
	PIC2_CMD = 0xA0,
	PIC2_DATA = 0xA1,
};

#define PIC_ICW1_INIT_ICW4 0x11
#define PIC_ICW4_8086 0x01
#define PIC_EOI 0x20
#define PIC_READ_ISR 0x0B
#define PIC_CASCADE_IRQ 2

bool x86_idle_wakes_on_irq;
static uint16_t pic_mask = 0xFFFF;

static void pic_write_masks(void)
{
	outb(PIC1_DATA, pic_mask & 0xFF);
	outb(PIC2_DATA, pic_mask >> 8);
}

void x86_pic_init(void)
{
	outb(PIC1_CMD, PIC_ICW1_INIT_ICW4);
	outb(PIC2_CMD, PIC_ICW1_INIT_ICW4);
	outb(PIC1_DATA, X86_IRQ_BASE);
	outb(PIC2_DATA, X86_IRQ_BASE + 8);
	outb(PIC1_DATA, 1u << PIC_CASCADE_IRQ); /* the slave hangs off IRQ 2 */
	outb(PIC2_DATA, PIC_CASCADE_IRQ);
	outb(PIC1_DATA, PIC_ICW4_8086);
	outb(PIC2_DATA, PIC_ICW4_8086);
	pic_mask = 0xFFFF;
	pic_write_masks();
}

void x86_pic_unmask(unsigned irq)
{
	pic_mask &= ~(1u << irq);
	if (irq >= 8)
		pic_mask &= ~(1u << PIC_CASCADE_IRQ);
	pic_write_masks();
}

/* A spurious IRQ 7 (15) is one whose in-service bit is clear. */
static bool pic_in_service(uint16_t cmd_port, unsigned line)
{
	outb(cmd_port, PIC_READ_ISR);
	return inb(cmd_port) & (1u << line);
}

bool x86_pic_eoi(unsigned irq)
{
	if (irq == 7 && !pic_in_service(PIC1_CMD, 7))
		return false;
	if (irq == 15 && !pic_in_service(PIC2_CMD, 7)) {
		outb(PIC1_CMD, PIC_EOI); /* the master did see the cascade */
		return false;
	}
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
	return true;
}

unsigned x86_irq_source(unsigned irq)
{
	switch (irq) {
	case X86_TIMER_IRQ:
		return IRQ_TIMER;
	case X86_COM1_IRQ:
		return IRQ_CONSOLE;
	default:
		return IRQ_NONE;
	}
}
