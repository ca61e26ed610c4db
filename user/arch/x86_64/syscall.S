/* long __syscall(long nr, long a, long b, long c, long d, long e, long f) for x86_64:
 * `syscall` with the number in rax and the arguments in rdi, rsi, rdx, r10, r8, r9 (r10, not
 * rcx: the instruction overwrites rcx and r11); the result comes back in rax. */
	.text
	.globl	__syscall
	.hidden	__syscall
	.type	__syscall, @function
__syscall:
	movq	%rdi, %rax
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	movq	%rcx, %rdx
	movq	%r8, %r10
	movq	%r9, %r8
	movq	8(%rsp), %r9		/* f, the seventh argument, came on the stack */
	syscall
	ret
	.size	__syscall, . - __syscall

	.section .note.GNU-stack, "", @progbits
