/* arch/arm private interfaces between its files. */
#ifndef RNDBITS_ARCH_ARM_PRIVATE_H
#define RNDBITS_ARCH_ARM_PRIVATE_H

#include <lib/types.h>

struct trap_frame;

void arm_gic_init(void);
/* Acknowledge and end the signalled interrupt: IRQ_TIMER, IRQ_CONSOLE or IRQ_NONE. */
unsigned arm_irq_acknowledge(void);
/* Timer interrupts taken since arch_timer_start (the arm selftest counts them). */
extern volatile uint32_t arm_timer_ticks;
void arm_set_psci_conduit(bool smc);
/* Is va in the unmapped page below the kernel stack? */
bool arm_is_stack_guard(uintptr_t va);
/* Called by entry.S for every exception, with the saved frame and ARM_VEC_*. */
void arm_trap_entry(struct trap_frame *f, unsigned vec);
void arch_start(void);

#endif
