/* sysfuzz's other way into the kernel (user/sysfuzz.c):
 *
 * long __syscall_sp(unsigned long sp, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call made with the stack pointer set to sp (NULL, unaligned, the kernel half...):
 *   the kernel must neither use it nor trip over it on the way back. */
	.text
	.globl	__syscall_sp
	.hidden	__syscall_sp
	.type	__syscall_sp, %function
__syscall_sp:
	str	x19, [sp, #-16]!	/* callee-saved: holds the real stack pointer meanwhile */
	mov	x19, sp
	mov	x9, x0			/* the stack pointer to use */
	mov	x8, x1
	mov	x0, x2
	mov	x1, x3
	mov	x2, x4
	mov	x3, x5
	mov	x4, x6
	mov	x5, x7
	mov	sp, x9
	svc	#0
	mov	sp, x19
	ldr	x19, [sp], #16
	ret
	.size	__syscall_sp, . - __syscall_sp

	.section .note.GNU-stack, "", %progbits
