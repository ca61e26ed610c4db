/* arch/arm private interfaces between its files. */
#ifndef RNDBITS_ARCH_ARM_PRIVATE_H
#define RNDBITS_ARCH_ARM_PRIVATE_H

#include <lib/types.h>

struct trap_frame;

void arm_gic_init(void);
void arm_gic_acknowledge(void);
void arm_set_psci_conduit(bool smc);
/* Is va in the unmapped page below the kernel stack? */
bool arm_is_stack_guard(uintptr_t va);
/* Called by entry.S for every exception, with the saved frame and ARM_VEC_*. */
void arm_trap_entry(struct trap_frame *f, unsigned vec);
void arch_start(void);

#endif
