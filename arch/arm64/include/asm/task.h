/* arm64's per-task state (include/arch/task.h): what arch_switch_to saves and restores. The
 * offsets are used by entry.S (a64_switch_to); the static asserts in task.c keep them true. */
#ifndef RNDBITS_ASM_ARM64_TASK_H
#define RNDBITS_ASM_ARM64_TASK_H

#define TASK_X19 0      /* x19..x29, x30: the callee-saved registers and the return address */
#define TASK_SP 96
#define TASK_FPSR 104
#define TASK_FPCR 112
#define TASK_TPIDR 120  /* TPIDR_EL0 (AArch32's TPIDRURW) */
#define TASK_TPIDRRO 128 /* TPIDRRO_EL0 (AArch32's TPIDRURO) */
#define TASK_Q 144      /* q0..q31, 16-byte aligned */

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct arch_task {
	uint64_t x19_x30[12];
	uint64_t sp;
	uint64_t fpsr, fpcr;
	uint64_t tpidr, tpidrro;
	uint64_t pad;
	uint64_t q[64] __aligned(16); /* q0..q31, two words each */
	uintptr_t stack_bottom;       /* the kernel stack: [stack_bottom, stack_bottom + size) */
	uint64_t stack_size;
	uint64_t stack_pa;            /* its frames (0: the boot stack, never freed) */
};
#endif

#endif
