/* x86_64 task switch (include/arch/task.h): the callee-saved registers go onto the old task's
 * kernel stack, the stack pointers change, and the new task's come off its own. A task that has
 * never run has a stack prepared by arch/x86/task.c that "returns" into one of the two entries
 * below. */

/* void x86_switch_stacks(uintptr_t *prev_sp, uintptr_t next_sp) */
	.text
	.globl	x86_switch_stacks
x86_switch_stacks:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	mov	%rsp, (%rdi)
	mov	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret

/* A new kernel task: %rbx = fn, %r12 = arg, %rsp 16-byte aligned. fn never returns. */
	.globl	x86_kernel_task_entry
x86_kernel_task_entry:
	mov	%r12, %rdi
	call	*%rbx
	call	x86_kernel_task_returned

/* A new user task: its trap frame is right above (16-byte aligned). A signal sent before it
 * ever ran acts first (sched_first_return_to_user), then it leaves through the trap-return path
 * (iretq). */
	.globl	x86_user_task_entry
x86_user_task_entry:
	mov	%rsp, %rdi
	call	sched_first_return_to_user
	jmp	x86_64_trap_return
