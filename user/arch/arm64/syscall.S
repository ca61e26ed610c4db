/* long __syscall(long nr, long a, long b, long c, long d, long e, long f) for AArch64:
 * svc #0 with the number in x8 and the arguments in x0-x5; the result comes back in x0. */
	.text
	.globl	__syscall
	.hidden	__syscall
	.type	__syscall, %function
__syscall:
	mov	x8, x0
	mov	x0, x1
	mov	x1, x2
	mov	x2, x3
	mov	x3, x4
	mov	x4, x5
	mov	x5, x6
	svc	#0
	ret
	.size	__syscall, . - __syscall

	.section .note.GNU-stack, "", %progbits
