/* x87/SSE state per task (arch/x86/fpu.c). The kernel is built with -mgeneral-regs-only and
 * never touches these registers, so while a task is in the kernel they hold its user values;
 * arch_switch_to saves them into the task leaving and loads the next one's (eagerly: no lazy
 * CR0.TS trap). */
#ifndef RNDBITS_ASM_X86_FPU_H
#define RNDBITS_ASM_X86_FPU_H

#include <lib/types.h>

/* Set by the width's FPU setup once CR4.OSFXSR is on: FXSAVE/FXRSTOR (with SSE) are usable.
 * Without it (an i386 CPU without FXSR) the x87 state alone moves with FNSAVE/FRSTOR. */
extern bool x86_fpu_fxsr;

/* The state a task starts with (FXSAVE layout): FCW 0x37F, MXCSR 0x1F80, every exception
 * masked, all registers zero, as Linux's init_fpstate. */
extern const uint8_t x86_fpu_init_state[512];

void x86_fpu_save(uint8_t state[512]);
void x86_fpu_restore(const uint8_t state[512]);
/* Load x86_fpu_init_state into the registers (exec, a new process). */
void x86_fpu_reset(void);
/* A new task's saved state: the reset values, in the layout x86_fpu_restore reads. */
void x86_fpu_init_task(uint8_t state[512]);

#endif
