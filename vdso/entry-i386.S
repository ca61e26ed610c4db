/* i386's system-call entry and signal return trampolines (Linux 6.1's vdso32 code bytes for a
 * CPU entering through int $0x80, the only way in here). glibc's i386 start-up takes
 * __kernel_vsyscall from AT_SYSINFO and makes every system call through it. */
	.text
	.globl __kernel_vsyscall
	.type __kernel_vsyscall, @function
	.p2align 4
__kernel_vsyscall:
	pushl	%ecx
	pushl	%edx
	pushl	%ebp
	int	$0x80
	popl	%ebp
	popl	%edx
	popl	%ecx
	ret
	.size __kernel_vsyscall, . - __kernel_vsyscall

	nop
	.globl __kernel_sigreturn
	.type __kernel_sigreturn, @function
	.p2align 4
__kernel_sigreturn:
	popl	%eax
	movl	$119, %eax	/* sigreturn */
	int	$0x80
	nop
	.size __kernel_sigreturn, . - __kernel_sigreturn

	.globl __kernel_rt_sigreturn
	.type __kernel_rt_sigreturn, @function
	.p2align 4
__kernel_rt_sigreturn:
	movl	$173, %eax	/* rt_sigreturn */
	int	$0x80
	nop
	.size __kernel_rt_sigreturn, . - __kernel_rt_sigreturn

	.section .note.GNU-stack, "", %progbits
