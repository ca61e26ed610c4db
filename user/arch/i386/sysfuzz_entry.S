/* sysfuzz's other way into the kernel (user/sysfuzz.c):
 *
 * long __syscall_flags(unsigned long set, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call with the EFLAGS bits in `set` (AC, DF, TF, NT) turned on at `int $0x80`,
 *   and off again right after it returns: the kernel must not trust user flags.
 * long __syscall_sp(unsigned long sp, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call made with the stack pointer set to sp (NULL, the kernel half...): the
 *   kernel must neither use it nor trip over it on the way back. Every register carries an
 *   argument, so the real stack pointer waits in memory (one thread: no race). */
#define FLAGS_FUZZED 0x44500	/* AC (bit 18), NT (14), DF (10), TF (8) */

	.text
	.globl	__syscall_flags
	.hidden	__syscall_flags
	.type	__syscall_flags, @function
__syscall_flags:
	pushl	%ebp			/* callee-saved registers the ABI takes arguments in */
	pushl	%edi
	pushl	%esi
	pushl	%ebx
	pushfl				/* the flags to enter with, while a register is still free */
	popl	%eax
	orl	20(%esp), %eax		/* set, above the return address and the four saved */
	pushl	%eax
	movl	28(%esp), %eax		/* nr (every offset is 4 more for the flags word) */
	movl	32(%esp), %ebx
	movl	36(%esp), %ecx
	movl	40(%esp), %edx
	movl	44(%esp), %esi
	movl	48(%esp), %edi
	movl	52(%esp), %ebp
	popfl
	int	$0x80
	pushfl
	andl	$~FLAGS_FUZZED, (%esp)
	popfl
	popl	%ebx
	popl	%esi
	popl	%edi
	popl	%ebp
	ret
	.size	__syscall_flags, . - __syscall_flags

	.globl	__syscall_sp
	.hidden	__syscall_sp
	.type	__syscall_sp, @function
__syscall_sp:
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%ebx
	movl	20(%esp), %eax		/* sp, above the return address and the four saved */
	movl	%eax, sysfuzz_new_sp
	movl	%esp, sysfuzz_saved_sp
	movl	24(%esp), %eax
	movl	28(%esp), %ebx
	movl	32(%esp), %ecx
	movl	36(%esp), %edx
	movl	40(%esp), %esi
	movl	44(%esp), %edi
	movl	48(%esp), %ebp
	movl	sysfuzz_new_sp, %esp
	int	$0x80
	movl	sysfuzz_saved_sp, %esp
	popl	%ebx
	popl	%esi
	popl	%edi
	popl	%ebp
	ret
	.size	__syscall_sp, . - __syscall_sp

	.bss
	.balign	4
sysfuzz_new_sp:
	.skip	4
sysfuzz_saved_sp:
	.skip	4

	.section .note.GNU-stack, "", @progbits
