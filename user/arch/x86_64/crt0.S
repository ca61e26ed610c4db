/* Process entry for x86_64. Linux leaves rsp pointing at argc, then argv[], NULL, envp[], NULL,
 * the auxiliary vector; nothing useful in registers. */
	.text
	.globl	_start
	.hidden	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp		/* the outermost frame, for backtraces */
	movq	(%rsp), %rdi		/* argc */
	leaq	8(%rsp), %rsi		/* argv */
	andq	$-16, %rsp		/* the psABI wants 16-byte alignment at calls */
	call	__start_main
	ud2				/* __start_main never returns */
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
