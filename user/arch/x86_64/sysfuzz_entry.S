/* sysfuzz's other ways into the kernel (user/sysfuzz.c):
 *
 * long __syscall_flags(unsigned long set, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call with the RFLAGS bits in `set` (AC, DF, TF, NT) turned on at the `syscall`
 *   instruction, and off again right after it returns: the kernel must not trust user flags.
 * long __syscall_int80(long nr, long a, long b, long c, long d, long e, long f)
 *   `int $0x80` from 64-bit code: Linux serves it with the ia32 table and 32-bit arguments.
 * long __syscall_sp(unsigned long sp, long nr, long a, long b, long c, long d, long e, long f)
 *   the system call made with the stack pointer set to sp (NULL, non-canonical, the kernel
 *   half...): the kernel must neither use it nor trip over it on the way back. */
#define FLAGS_FUZZED 0x44500	/* AC (bit 18), NT (14), DF (10), TF (8) */

	.text
	.globl	__syscall_flags
	.hidden	__syscall_flags
	.type	__syscall_flags, @function
__syscall_flags:
	movq	%rsi, %rax		/* nr */
	movq	%rdi, %r11		/* the bits to set; syscall overwrites r11 anyway */
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %r10
	movq	8(%rsp), %r8		/* e and f came on the stack */
	movq	16(%rsp), %r9
	pushfq
	orq	%r11, (%rsp)
	popfq
	syscall
	pushfq
	andq	$~FLAGS_FUZZED, (%rsp)
	popfq
	ret
	.size	__syscall_flags, . - __syscall_flags

	.globl	__syscall_int80
	.hidden	__syscall_int80
	.type	__syscall_int80, @function
__syscall_int80:
	pushq	%rbx			/* callee-saved: the ia32 ABI takes arguments in it and rbp */
	pushq	%rbp
	movq	%rdi, %rax
	movq	%rsi, %rbx
	xchgq	%rdx, %rcx		/* b to ecx, c to edx */
	movq	%r8, %rsi
	movq	%r9, %rdi
	movq	24(%rsp), %rbp		/* f, above the return address and the two saved */
	int	$0x80
	popq	%rbp
	popq	%rbx
	ret
	.size	__syscall_int80, . - __syscall_int80

	.globl	__syscall_sp
	.hidden	__syscall_sp
	.type	__syscall_sp, @function
__syscall_sp:
	pushq	%rbx			/* callee-saved: holds the real stack pointer meanwhile */
	movq	%rsp, %rbx
	movq	%rsi, %rax		/* nr */
	movq	%rdi, %r11		/* the stack pointer to use; syscall overwrites r11 anyway */
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %r10
	movq	16(%rsp), %r8		/* e and f, above the return address and rbx */
	movq	24(%rsp), %r9
	movq	%r11, %rsp
	syscall
	movq	%rbx, %rsp
	popq	%rbx
	ret
	.size	__syscall_sp, . - __syscall_sp

	.section .note.GNU-stack, "", @progbits
