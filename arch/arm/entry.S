/* ARMv7-A exception vectors (VBAR), the return to user mode and the task switch.
 *
 * Every exception is handled on the SVC stack: the vector adjusts lr to the return address,
 * pushes {lr, spsr} there with SRS, switches to SVC and saves r0-r12 below them (and slots for
 * sp, lr and the syscall's orig_r0), then fills in the interrupted mode's sp and lr (the user
 * bank through stm ^, or SVC's own). The exception
 * modes' stacks are never used, so an exception inside the SVC kernel nests naturally. The frame
 * layout is struct trap_frame (asm/trap_frame.h); arm_trap_entry(frame, vector) decodes it.
 *
 * Return-address adjustments (ARM state): undefined lr-4 (the instruction itself), svc lr (the
 * next one), prefetch abort lr-4, data abort lr-8 (re-execute), irq/fiq lr-4. */
#include <asm/memory.h>
#include <asm/task.h>
#include <asm/trap_frame.h>

	.syntax unified
	.arm
	.arch armv7-a
	.fpu neon

	.section .vectors, "ax"
	.balign 32
	.global arm_vectors
arm_vectors:
	b	.			@ reset: not reachable through VBAR
	b	vec_undef
	b	vec_svc
	b	vec_pabt
	b	vec_dabt
	b	.			@ hyp trap: not used
	b	vec_irq
	b	vec_fiq

.macro vector name, lr_adjust, vec
vec_\name:
	.if \lr_adjust
	sub	lr, lr, #\lr_adjust
	.endif
	srsdb	sp!, #ARM_MODE_SVC
	cps	#ARM_MODE_SVC
	sub	sp, sp, #12			@ sp, lr, orig_r0 slots
	stmdb	sp!, {r0-r12}
	mov	r1, #\vec
	b	trap_common
.endm

/* A data abort with the SVC stack in its last 512 bytes, or below them (in the guard page that
 * arch_mmu_init leaves unmapped under the boot stack; a task's stack from the pmm has none), is
 * a kernel stack overflow: pushing the frame there would abort again, forever. Peek at SVC's sp
 * (r0, r1 parked below sp_abt), compare it with the running task's stack (arm_kstack_bottom,
 * which arch_switch_to keeps) and move it to the emergency stack, so the report can still run. */
vec_dabt:
	sub	lr, lr, #8
	stmdb	sp, {r0, r1}
	cps	#ARM_MODE_SVC
	ldr	r1, =arm_kstack_bottom
	ldr	r1, [r1]
	add	r1, r1, #512
	mov	r0, sp
	cmp	r0, r1
	ldrlo	sp, =arm_emergency_stack_top
	cps	#ARM_MODE_ABT
	ldmdb	sp, {r0, r1}
	srsdb	sp!, #ARM_MODE_SVC
	cps	#ARM_MODE_SVC
	sub	sp, sp, #12
	stmdb	sp!, {r0-r12}
	mov	r1, #ARM_VEC_DABT
	b	trap_common

	vector undef, 4, ARM_VEC_UNDEF
	vector svc, 0, ARM_VEC_SVC
	vector pabt, 4, ARM_VEC_PABT
	vector irq, 4, ARM_VEC_IRQ
	vector fiq, 4, ARM_VEC_FIQ

/* Unwind information for gdb (docs/debugging.md): trap_common is the outermost frame of the
 * kernel code it calls, its return address (lr) undefined, so a backtrace ends here instead of
 * reading the interrupted context's registers as a caller's. In .debug_frame, like the C code's:
 * nothing of it is loaded. */
	.cfi_sections .debug_frame
trap_common:
	.cfi_startproc
	.cfi_undefined lr
	mov	r4, sp				@ r4 = frame (callee-saved across the C call)
	ldr	r0, [r4, #TF_CPSR]
	and	r0, r0, #ARM_MODE_MASK
	cmp	r0, #ARM_MODE_USR
	add	r2, r4, #TF_SP
	stmeq	r2, {sp, lr}^			@ user sp, lr
	nop
	addne	r0, r4, #TF_SIZE		@ SVC: sp before the exception
	strne	r0, [r4, #TF_SP]
	strne	lr, [r4, #TF_LR]
	mov	r0, r4
	bic	sp, sp, #7			@ AAPCS: 8-byte aligned at the call
	bl	arm_trap_entry
	mov	sp, r4
/* Return from the frame at sp, which ends at the top of the stack when it holds user
 * registers. A new user task starts here (arch_task_create_user). */
	.global arm_trap_return
arm_trap_return:
	ldr	r0, [sp, #TF_CPSR]
	and	r0, r0, #ARM_MODE_MASK
	cmp	r0, #ARM_MODE_USR
	add	r2, sp, #TF_SP
	ldmeq	r2, {sp, lr}^
	nop					@ no banked access right after ldm ^
	ldrne	lr, [sp, #TF_LR]
	ldmia	sp!, {r0-r12}
	add	sp, sp, #12
	rfeia	sp!
	.cfi_endproc

	.text
/* void arch_switch_to(struct arch_task *prev, struct arch_task *next)
 * The callee-saved registers and the return address stay on prev's stack (10 words, so sp
 * stays 8-byte aligned), its sp and user state go into *prev; next's come back the same way.
 * Switching sp_svc is what makes a trap from user mode save its registers on the stack of the
 * task that was running: the vectors push onto whatever sp_svc holds. */
	.global arch_switch_to
	.type arch_switch_to, %function
arch_switch_to:
	push	{r3-r11, lr}
	str	sp, [r0, #AT_SP]
	mov	r4, r1
	bl	arm_user_state_save
	mov	r0, r4
	bl	arm_user_state_load
	ldr	r0, [r4, #AT_STACK]
	ldr	r1, =arm_kstack_bottom
	str	r0, [r1]
	ldr	sp, [r4, #AT_SP]
	pop	{r3-r11, pc}

/* void arm_user_state_save(struct arch_task *t): the registers the kernel never uses but user
 * code does (VFP/NEON D0-D31, FPSCR, the thread-ID registers), from the CPU into *t. */
	.global arm_user_state_save
	.type arm_user_state_save, %function
arm_user_state_save:
	mrc	p15, 0, r1, c13, c0, 2		@ TPIDRURW
	mrc	p15, 0, r2, c13, c0, 3		@ TPIDRURO
	vmrs	r3, fpscr
	str	r1, [r0, #AT_TPIDRURW]
	str	r2, [r0, #AT_TPIDRURO]
	str	r3, [r0, #AT_FPSCR]
	add	r0, r0, #AT_VFP
	vstmia	r0!, {d0-d15}
	vstmia	r0, {d16-d31}
	bx	lr

/* void arm_user_state_load(const struct arch_task *t): the reverse, from *t into the CPU. */
	.global arm_user_state_load
	.type arm_user_state_load, %function
arm_user_state_load:
	ldr	r1, [r0, #AT_TPIDRURW]
	ldr	r2, [r0, #AT_TPIDRURO]
	ldr	r3, [r0, #AT_FPSCR]
	mcr	p15, 0, r1, c13, c0, 2
	mcr	p15, 0, r2, c13, c0, 3
	vmsr	fpscr, r3
	add	r0, r0, #AT_VFP
	vldmia	r0!, {d0-d15}
	vldmia	r0, {d16-d31}
	bx	lr

/* A new user task's first arch_switch_to returns here, with sp at its frame (the top of its
 * stack): the scheduler sees it before it leaves (signals sent meanwhile), then the frame is
 * restored as a trap's would be. */
	.global arm_task_start_user
	.type arm_task_start_user, %function
arm_task_start_user:
	mov	r0, sp
	bl	sched_first_return_to_user
	b	arm_trap_return

/* A new kernel task's first arch_switch_to returns here with r4 = fn, r5 = arg. */
	.global arm_task_start_kernel
	.type arm_task_start_kernel, %function
arm_task_start_kernel:
	.cfi_startproc
	.cfi_undefined lr
	mov	r0, r5
	blx	r4
	b	.				@ fn never returns
	.cfi_endproc
	.ltorg

	.data
	.balign 4
/* The lowest address of the running task's SVC stack (vec_dabt's overflow check); the boot
 * stack until the first switch. */
	.global arm_kstack_bottom
arm_kstack_bottom:
	.word	boot_svc_stack
