/* x86's per-task state (include/arch/task.h): the saved kernel stack pointer (the callee-saved
 * registers are pushed on the task's own stack by arch/x86/<width>/switch.S), the stack itself,
 * the x87/SSE registers in FXSAVE's layout, and the thread pointer(s): the three GDT TLS slots
 * set_thread_area fills (i386 tasks and ia32 tasks on x86_64), and on x86_64 the segment
 * selectors and the FS/GS bases arch_prctl writes. i386 keeps its selectors in the trap frame. */
#ifndef RNDBITS_ASM_X86_TASK_H
#define RNDBITS_ASM_X86_TASK_H

#include <lib/types.h>

#define X86_KSTACK_ORDER 2 /* 16 KiB, as the boot stack */
#define X86_KSTACK_SIZE (4096u << X86_KSTACK_ORDER)
#define X86_FPU_STATE_SIZE 512
#define X86_TLS_SLOTS 3

struct arch_task {
	uintptr_t sp;        /* kernel stack pointer while switched out */
	uintptr_t stack;     /* lowest address of the kernel stack (0: the boot stack, kept) */
	uintptr_t stack_top; /* TSS esp0/rsp0: a trap from user mode builds its frame below */
	uint64_t tls[X86_TLS_SLOTS];
#ifdef CONFIG_64BIT
	uint64_t fs_base, gs_base;
	uint16_t ds, es, fs, gs;
#endif
	uint8_t fpu[X86_FPU_STATE_SIZE] __aligned(16);
};

#endif
