/* long __syscall(long nr, long a, long b, long c, long d, long e, long f) for the ARM EABI:
 * svc #0 with the number in r7 and the arguments in r0-r5; the result comes back in r0. */
	.syntax unified
	.arm
	.text
	.globl	__syscall
	.hidden	__syscall
	.type	__syscall, %function
__syscall:
	push	{r4, r5, r7}		@ callee-saved registers the ABI takes arguments in
	mov	r7, r0
	mov	r0, r1
	mov	r1, r2
	mov	r2, r3
	ldr	r3, [sp, #12]		@ d, e, f were passed on the stack, above the saved three
	ldr	r4, [sp, #16]
	ldr	r5, [sp, #20]
	svc	#0
	pop	{r4, r5, r7}
	bx	lr
	.size	__syscall, . - __syscall

	.section .note.GNU-stack, "", %progbits
