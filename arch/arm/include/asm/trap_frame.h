/* The registers an ARMv7-A exception saves (arch/arm/entry.S), on the SVC stack, in this order.
 * sp and lr are those of the interrupted mode (user or SVC); pc and cpsr are the return state
 * (pc already adjusted to the faulting or next instruction, see entry.S). */
#ifndef RNDBITS_ASM_ARM_TRAP_FRAME_H
#define RNDBITS_ASM_ARM_TRAP_FRAME_H

#define TF_R0 0
#define TF_SP 52
#define TF_LR 56
#define TF_ORIG_R0 60
#define TF_PC 64
#define TF_CPSR 68
#define TF_SIZE 72

#define ARM_MODE_USR 0x10
#define ARM_MODE_FIQ 0x11
#define ARM_MODE_IRQ 0x12
#define ARM_MODE_SVC 0x13
#define ARM_MODE_ABT 0x17
#define ARM_MODE_HYP 0x1a
#define ARM_MODE_UND 0x1b
#define ARM_MODE_SYS 0x1f
#define ARM_MODE_MASK 0x1f
#define ARM_PSR_T (1u << 5)
#define ARM_PSR_F (1u << 6)
#define ARM_PSR_I (1u << 7)
#define ARM_PSR_A (1u << 8)

/* Which vector entry.S came through (second argument of arm_trap_entry). */
#define ARM_VEC_UNDEF 1
#define ARM_VEC_SVC 2
#define ARM_VEC_PABT 3
#define ARM_VEC_DABT 4
#define ARM_VEC_IRQ 6
#define ARM_VEC_FIQ 7

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct trap_frame {
	uint32_t r[13];
	uint32_t sp;
	uint32_t lr;
	uint32_t orig_r0; /* a syscall's first argument, which r0's result overwrites (restart) */
	uint32_t pc;
	uint32_t cpsr;
};

_Static_assert(__builtin_offsetof(struct trap_frame, sp) == TF_SP, "TF_SP");
_Static_assert(__builtin_offsetof(struct trap_frame, lr) == TF_LR, "TF_LR");
_Static_assert(__builtin_offsetof(struct trap_frame, orig_r0) == TF_ORIG_R0, "TF_ORIG_R0");
_Static_assert(__builtin_offsetof(struct trap_frame, pc) == TF_PC, "TF_PC");
_Static_assert(__builtin_offsetof(struct trap_frame, cpsr) == TF_CPSR, "TF_CPSR");
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "TF_SIZE");
#endif

#endif
