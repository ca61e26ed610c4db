/* i386 task switch (include/arch/task.h): the callee-saved registers go onto the old task's
 * kernel stack, the stack pointers change, and the new task's come off its own. A task that has
 * never run has a stack prepared by arch/x86/task.c that "returns" into one of the two entries
 * below. */

/* void x86_switch_stacks(uintptr_t *prev_sp, uintptr_t next_sp) */
	.text
	.globl x86_switch_stacks
x86_switch_stacks:
	movl 4(%esp), %eax
	movl 8(%esp), %edx
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)
	movl %edx, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

/* A new kernel task: %ebx = fn, %esi = arg, %esp 16-byte aligned. fn never returns. */
	.globl x86_kernel_task_entry
x86_kernel_task_entry:
	subl $12, %esp
	pushl %esi
	call *%ebx
	call x86_kernel_task_returned

/* A new user task: its trap frame is right above. A signal sent before it ever ran acts first
 * (sched_first_return_to_user), then it leaves through the trap-return path (iret). */
	.globl x86_user_task_entry
x86_user_task_entry:
	pushl %esp
	call sched_first_return_to_user
	addl $4, %esp
	jmp x86_trap_return
