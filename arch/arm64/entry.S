/* Exception vectors (VBAR_EL1) and the user-mode entry/exit trampolines.
 *
 * Every slot saves a full struct trap_frame (asm/trap_frame.h) on the kernel stack and calls
 * a64_trap_entry(frame, slot); when that returns, the frame (possibly edited: syscall results)
 * is restored and the interrupted context resumes. Kernel-mode slots first check that the frame
 * still fits on the kernel stack and otherwise report the overflow from the emergency stack. */
#include <asm/task.h>
#include <asm/trap_frame.h>

/* Unwind information for gdb (docs/debugging.md): each entry is the outermost frame of the
 * kernel code it calls, its return address (x30) undefined, so a backtrace ends here instead
 * of taking the interrupted context's x30 for a caller. In .debug_frame, like the C code's:
 * nothing of it is loaded. */
	.cfi_sections .debug_frame

.macro entry_cfi
	.cfi_startproc
	.cfi_undefined x30
.endm

.macro save_frame el
	sub	sp, sp, #TF_SIZE
	.cfi_adjust_cfa_offset TF_SIZE
	stp	x0, x1, [sp, #TF_X(0)]
	stp	x2, x3, [sp, #TF_X(2)]
	stp	x4, x5, [sp, #TF_X(4)]
	stp	x6, x7, [sp, #TF_X(6)]
	stp	x8, x9, [sp, #TF_X(8)]
	stp	x10, x11, [sp, #TF_X(10)]
	stp	x12, x13, [sp, #TF_X(12)]
	stp	x14, x15, [sp, #TF_X(14)]
	stp	x16, x17, [sp, #TF_X(16)]
	stp	x18, x19, [sp, #TF_X(18)]
	stp	x20, x21, [sp, #TF_X(20)]
	stp	x22, x23, [sp, #TF_X(22)]
	stp	x24, x25, [sp, #TF_X(24)]
	stp	x26, x27, [sp, #TF_X(26)]
	stp	x28, x29, [sp, #TF_X(28)]
	.if \el == 0
	mrs	x21, sp_el0
	.else
	add	x21, sp, #TF_SIZE
	.endif
	stp	x30, x21, [sp, #TF_X(30)]
	mrs	x22, elr_el1
	mrs	x23, spsr_el1
	stp	x22, x23, [sp, #TF_PC]
	mrs	x24, esr_el1
	mrs	x25, far_el1
	stp	x24, x25, [sp, #TF_ESR]
.endm

.macro restore_frame el
	ldp	x22, x23, [sp, #TF_PC]
	msr	elr_el1, x22
	msr	spsr_el1, x23
	.if \el == 0
	ldr	x21, [sp, #TF_SP]
	msr	sp_el0, x21
	.endif
	ldp	x0, x1, [sp, #TF_X(0)]
	ldp	x2, x3, [sp, #TF_X(2)]
	ldp	x4, x5, [sp, #TF_X(4)]
	ldp	x6, x7, [sp, #TF_X(6)]
	ldp	x8, x9, [sp, #TF_X(8)]
	ldp	x10, x11, [sp, #TF_X(10)]
	ldp	x12, x13, [sp, #TF_X(12)]
	ldp	x14, x15, [sp, #TF_X(14)]
	ldp	x16, x17, [sp, #TF_X(16)]
	ldp	x18, x19, [sp, #TF_X(18)]
	ldp	x20, x21, [sp, #TF_X(20)]
	ldp	x22, x23, [sp, #TF_X(22)]
	ldp	x24, x25, [sp, #TF_X(24)]
	ldp	x26, x27, [sp, #TF_X(26)]
	ldp	x28, x29, [sp, #TF_X(28)]
	ldr	x30, [sp, #TF_X(30)]
	add	sp, sp, #TF_SIZE
	.cfi_adjust_cfa_offset -TF_SIZE
	eret
.endm

/* Kernel-mode entry: overflow check using x0 only (parked in TPIDR_EL1), then the frame. Every
 * task has its own kernel stack (arch/arm64/task.c), so the check compares sp with the running
 * task's limit, its stack's bottom plus one frame, which arch_switch_to keeps in
 * a64_kstack_limit: two loads and a compare instead of the one bit a single, specially aligned
 * stack allowed. (Only the entry is checked: C code overflowing between traps is not caught.) */
.macro el1_entry slot
a64_el1_entry_\slot:
	entry_cfi
	msr	tpidr_el1, x0
	adrp	x0, a64_kstack_limit
	ldr	x0, [x0, :lo12:a64_kstack_limit]
	cmp	sp, x0
	b.lo	1f
	mrs	x0, tpidr_el1
	save_frame 1
	mov	x0, sp
	mov	x1, #\slot
	bl	a64_trap_entry
	restore_frame 1
1:	mov	x0, sp
	msr	sp_el0, x0			/* the overflowed sp; we never return from here */
	mov	x0, #\slot
	b	a64_kstack_overflow
	.cfi_endproc
.endm

.macro el0_entry slot
a64_el0_entry_\slot:
	entry_cfi
	save_frame 0
	mov	x0, sp
	mov	x1, #\slot
	bl	a64_trap_entry
	restore_frame 0
	.cfi_endproc
.endm

.macro vslot target
	.balign	0x80
	b	\target
.endm

	.section .text.vectors, "ax"
	.balign	2048
	.globl	a64_vectors
a64_vectors:
	vslot	a64_el1_entry_0		/* current EL, SP_EL0 (never used by rndbits) */
	vslot	a64_el1_entry_1
	vslot	a64_el1_entry_2
	vslot	a64_el1_entry_3
	vslot	a64_el1_entry_4		/* current EL, SP_EL1: the kernel */
	vslot	a64_el1_entry_5
	vslot	a64_el1_entry_6
	vslot	a64_el1_entry_7
	vslot	a64_el0_entry_8		/* lower EL, AArch64 */
	vslot	a64_el0_entry_9
	vslot	a64_el0_entry_10
	vslot	a64_el0_entry_11
	vslot	a64_el0_entry_12	/* lower EL, AArch32 */
	vslot	a64_el0_entry_13
	vslot	a64_el0_entry_14
	vslot	a64_el0_entry_15

	.text
	el1_entry 0
	el1_entry 1
	el1_entry 2
	el1_entry 3
	el1_entry 4
	el1_entry 5
	el1_entry 6
	el1_entry 7
	el0_entry 8
	el0_entry 9
	el0_entry 10
	el0_entry 11
	el0_entry 12
	el0_entry 13
	el0_entry 14
	el0_entry 15

/* x0 = slot, TPIDR_EL1 = the interrupted x0, SP_EL0 = the overflowed sp. Build a frame on the
 * emergency stack and let C report it; a64_stack_overflow never returns. */
a64_kstack_overflow:
	entry_cfi
	msr	tpidrro_el0, x0
	ldr	x0, =a64_emergency_stack_top
	mov	sp, x0
	mrs	x0, tpidr_el1
	save_frame 0				/* "el 0": sp field from SP_EL0, the bad sp */
	mov	x0, sp
	mrs	x1, tpidrro_el0
	bl	a64_stack_overflow
2:	wfi
	b	2b
	.cfi_endproc
	.ltorg

/* FP/SIMD registers and thread pointers of a task, to and from struct arch_task (asm/task.h's
 * offsets); \t holds the task, x9 and x10 are clobbered. */
.macro task_state_save t
	mrs	x9, fpsr
	mrs	x10, fpcr
	stp	x9, x10, [\t, #TASK_FPSR]
	mrs	x9, tpidr_el0
	mrs	x10, tpidrro_el0
	stp	x9, x10, [\t, #TASK_TPIDR]
	add	x9, \t, #TASK_Q
	stp	q0, q1, [x9, #0]
	stp	q2, q3, [x9, #32]
	stp	q4, q5, [x9, #64]
	stp	q6, q7, [x9, #96]
	stp	q8, q9, [x9, #128]
	stp	q10, q11, [x9, #160]
	stp	q12, q13, [x9, #192]
	stp	q14, q15, [x9, #224]
	stp	q16, q17, [x9, #256]
	stp	q18, q19, [x9, #288]
	stp	q20, q21, [x9, #320]
	stp	q22, q23, [x9, #352]
	stp	q24, q25, [x9, #384]
	stp	q26, q27, [x9, #416]
	stp	q28, q29, [x9, #448]
	stp	q30, q31, [x9, #480]
.endm

.macro task_state_load t
	ldp	x9, x10, [\t, #TASK_FPSR]
	msr	fpsr, x9
	msr	fpcr, x10
	ldp	x9, x10, [\t, #TASK_TPIDR]
	msr	tpidr_el0, x9
	msr	tpidrro_el0, x10
	add	x9, \t, #TASK_Q
	ldp	q0, q1, [x9, #0]
	ldp	q2, q3, [x9, #32]
	ldp	q4, q5, [x9, #64]
	ldp	q6, q7, [x9, #96]
	ldp	q8, q9, [x9, #128]
	ldp	q10, q11, [x9, #160]
	ldp	q12, q13, [x9, #192]
	ldp	q14, q15, [x9, #224]
	ldp	q16, q17, [x9, #256]
	ldp	q18, q19, [x9, #288]
	ldp	q20, q21, [x9, #320]
	ldp	q22, q23, [x9, #352]
	ldp	q24, q25, [x9, #384]
	ldp	q26, q27, [x9, #416]
	ldp	q28, q29, [x9, #448]
	ldp	q30, q31, [x9, #480]
.endm

/* void a64_switch_to(struct arch_task *prev, struct arch_task *next): save prev's callee-saved
 * registers, sp, FP/SIMD registers and thread pointers, load next's, and return on next's stack
 * to where next called a64_switch_to (or to its first function: a64_ret_to_user,
 * a64_kernel_task_start). The kernel never uses FP/SIMD (-mgeneral-regs-only), so q0-q31 and
 * FPSR/FPCR still hold prev's user values here. */
	.globl	a64_switch_to
a64_switch_to:
	stp	x19, x20, [x0, #TASK_X19 + 0]
	stp	x21, x22, [x0, #TASK_X19 + 16]
	stp	x23, x24, [x0, #TASK_X19 + 32]
	stp	x25, x26, [x0, #TASK_X19 + 48]
	stp	x27, x28, [x0, #TASK_X19 + 64]
	stp	x29, x30, [x0, #TASK_X19 + 80]
	mov	x9, sp
	str	x9, [x0, #TASK_SP]
	task_state_save x0
	ldp	x19, x20, [x1, #TASK_X19 + 0]
	ldp	x21, x22, [x1, #TASK_X19 + 16]
	ldp	x23, x24, [x1, #TASK_X19 + 32]
	ldp	x25, x26, [x1, #TASK_X19 + 48]
	ldp	x27, x28, [x1, #TASK_X19 + 64]
	ldp	x29, x30, [x1, #TASK_X19 + 80]
	ldr	x9, [x1, #TASK_SP]
	mov	sp, x9
	task_state_load x1
	ret

/* void a64_task_state_save(struct arch_task *t): the running task's FP/SIMD registers and
 * thread pointers into t (fork's child starts with its parent's). */
	.globl	a64_task_state_save
a64_task_state_save:
	task_state_save x0
	ret

/* void a64_task_state_load(const struct arch_task *t): load them (execve's reset values). */
	.globl	a64_task_state_load
a64_task_state_load:
	task_state_load x0
	ret

/* A new user task's first return from a64_switch_to: its trap frame is at sp (task.c put it
 * at the top of its kernel stack); leave through the common exit path. */
	.globl	a64_ret_to_user
a64_ret_to_user:
	entry_cfi
	mov	x0, sp
	bl	sched_first_return_to_user
	restore_frame 0
	.cfi_endproc

/* A new kernel task's first return from a64_switch_to: fn in x19, its argument in x20. */
	.globl	a64_kernel_task_start
a64_kernel_task_start:
	entry_cfi
	mov	x0, x20
	blr	x19
1:	wfi
	b	1b
	.cfi_endproc
