/* The registers entry.S saves on every exception, in this order (offsets are used by the asm). */
#ifndef RNDBITS_ASM_ARM64_TRAP_FRAME_H
#define RNDBITS_ASM_ARM64_TRAP_FRAME_H

#define TF_X(n) ((n) * 8)
#define TF_SP (31 * 8)     /* SP_EL0 if taken from EL0, else the interrupted kernel sp */
#define TF_PC (32 * 8)     /* ELR_EL1 */
#define TF_PSTATE (33 * 8) /* SPSR_EL1 */
#define TF_ESR (34 * 8)
#define TF_FAR (35 * 8)
#define TF_ORIG_X0 (36 * 8) /* x0 at a system call, for a restart (set by trap.c, not the asm) */
#define TF_SIZE (38 * 8)   /* a multiple of 16: sp stays aligned */

/* The boot kernel stack (the shell's, init's): KSTACK_SIZE bytes above an unmapped guard of the
 * same size. Each other task has a TASK_KSTACK_SIZE stack of its own (arch/arm64/task.c). */
#define KSTACK_SHIFT 16
#define KSTACK_SIZE (1 << KSTACK_SHIFT)
#define EMERGENCY_STACK_SIZE 16384
#define TASK_KSTACK_SIZE 16384

#ifndef __ASSEMBLER__
#include <lib/types.h>

/* The bits of pstate (SPSR_EL1) the kernel sets for a new task (task.c) or tests in a saved
 * one: M[4:0] the mode (M[4] set: the context ran in AArch32), T AArch32's Thumb state, and
 * the D, A and F exception masks (debug, SError, FIQ). */
#define PSR_MODE_EL0T 0x0
#define PSR_MODE_USR32 0x10
#define PSR_MODE32 (1u << 4)
#define PSR_T (1u << 5)
#define PSR_F (1u << 6)
#define PSR_A (1u << 8)
#define PSR_D (1u << 9)

struct trap_frame {
	uint64_t x[31];
	uint64_t sp;
	uint64_t pc;
	uint64_t pstate;
	uint64_t esr;
	uint64_t far;
	uint64_t orig_x0;
	uint64_t pad;
};

_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "entry.S and trap_frame.h disagree");
#endif

#endif
