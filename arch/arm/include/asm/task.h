/* ARMv7-A per-task state (include/arch/task.h): what arch_switch_to (arch/arm/entry.S) saves
 * and restores. Also read by the assembler, for the offsets. */
#ifndef RNDBITS_ASM_ARM_TASK_H
#define RNDBITS_ASM_ARM_TASK_H

#include <asm/memory.h>

/* Each task's SVC stack: 16 KiB, as the boot stack (2^2 pages from the pmm). */
#define ARM_KSTACK_ORDER 2
#define ARM_KSTACK_SIZE (PAGE_SIZE << ARM_KSTACK_ORDER)

#define AT_SP 0
#define AT_STACK 4
#define AT_TPIDRURW 8
#define AT_TPIDRURO 12
#define AT_FPSCR 16
#define AT_VFP 24

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct arch_task {
	uint32_t sp;        /* SVC sp while switched out: r3-r11 and lr pushed below it */
	uintptr_t stack;    /* lowest address of the kernel stack (the boot task's: the boot stack) */
	uint32_t tpidrurw;  /* the user read/write thread ID (user mode may write it) */
	uint32_t tpidruro;  /* the thread pointer set_tls writes, user read-only */
	uint32_t fpscr;
	uint32_t pad;
	uint64_t vfp[32];   /* D0-D31 (VFPv4-D32 / NEON Q0-Q15) */
};

_Static_assert(__builtin_offsetof(struct arch_task, sp) == AT_SP, "AT_SP");
_Static_assert(__builtin_offsetof(struct arch_task, stack) == AT_STACK, "AT_STACK");
_Static_assert(__builtin_offsetof(struct arch_task, tpidrurw) == AT_TPIDRURW, "AT_TPIDRURW");
_Static_assert(__builtin_offsetof(struct arch_task, tpidruro) == AT_TPIDRURO, "AT_TPIDRURO");
_Static_assert(__builtin_offsetof(struct arch_task, fpscr) == AT_FPSCR, "AT_FPSCR");
_Static_assert(__builtin_offsetof(struct arch_task, vfp) == AT_VFP, "AT_VFP");
#endif

#endif
