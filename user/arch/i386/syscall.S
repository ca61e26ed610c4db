/* long __syscall(long nr, long a, long b, long c, long d, long e, long f) for i386:
 * int $0x80 with the number in eax and the arguments in ebx, ecx, edx, esi, edi, ebp; the
 * result comes back in eax. All arguments arrive on the stack (cdecl). */
	.text
	.globl	__syscall
	.hidden	__syscall
	.type	__syscall, @function
__syscall:
	pushl	%ebp			/* callee-saved registers the ABI takes arguments in */
	pushl	%edi
	pushl	%esi
	pushl	%ebx
	movl	20(%esp), %eax		/* nr, above the return address and the four saved */
	movl	24(%esp), %ebx
	movl	28(%esp), %ecx
	movl	32(%esp), %edx
	movl	36(%esp), %esi
	movl	40(%esp), %edi
	movl	44(%esp), %ebp
	int	$0x80
	popl	%ebx
	popl	%esi
	popl	%edi
	popl	%ebp
	ret
	.size	__syscall, . - __syscall

	.section .note.GNU-stack, "", @progbits
