/* sysfuzz's other way into the kernel (user/sysfuzz.c):
 *
 * long __syscall_sp(unsigned long sp, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call made with the stack pointer set to sp (NULL, unaligned, the kernel half...):
 *   the kernel must neither use it nor trip over it on the way back. */
	.syntax unified
	.arm
	.text
	.globl	__syscall_sp
	.hidden	__syscall_sp
	.type	__syscall_sp, %function
__syscall_sp:
	push	{r4, r5, r7, r8}	@ callee-saved; r8 holds the real stack pointer meanwhile
	mov	r8, sp
	mov	r12, r0			@ the stack pointer to use
	mov	r7, r1
	mov	r0, r2
	mov	r1, r3
	ldr	r2, [sp, #16]		@ c, d, e, f were passed on the stack, above the saved four
	ldr	r3, [sp, #20]
	ldr	r4, [sp, #24]
	ldr	r5, [sp, #28]
	mov	sp, r12
	svc	#0
	mov	sp, r8
	pop	{r4, r5, r7, r8}
	bx	lr
	.size	__syscall_sp, . - __syscall_sp

	.section .note.GNU-stack, "", %progbits
