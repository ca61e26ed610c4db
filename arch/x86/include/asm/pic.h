/* The two 8259A PICs (arch/x86/pic.c): the PIT's tick (IRQ 0, arch/x86/timer.c) and the COM1
 * receive interrupt (IRQ 4). Everything else stays masked. */
#ifndef RNDBITS_ASM_X86_PIC_H
#define RNDBITS_ASM_X86_PIC_H

#include <lib/types.h>

#define X86_IRQ_BASE 0x20 /* IRQ n arrives at vector 0x20 + n, clear of the exceptions */
#define X86_NR_IRQS 16
#define X86_TIMER_IRQ 0

/* Which source (enum trap_irq) a PIC line is, for struct trap_info.irq. */
unsigned x86_irq_source(unsigned irq);

/* Remap both PICs to X86_IRQ_BASE and mask every line. */
void x86_pic_init(void);
void x86_pic_unmask(unsigned irq);
/* End of interrupt for a vector's IRQ; returns false for a spurious IRQ 7/15 (no EOI due). */
bool x86_pic_eoi(unsigned irq);

/* Set by the width's trap code once IRQ vectors, the PIC and the UART interrupt are ready:
 * arch_idle() then sleeps in `hlt` instead of returning at once. */
extern bool x86_idle_wakes_on_irq;

#endif
