/* Process entry for i386 (and ia32 tasks on x86_64). Linux leaves esp pointing at argc, then
 * argv[], NULL, envp[], NULL, the auxiliary vector; nothing useful in registers. */
	.text
	.globl	_start
	.hidden	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp		/* the outermost frame, for backtraces */
	movl	(%esp), %eax		/* argc */
	leal	4(%esp), %edx		/* argv */
	andl	$-16, %esp		/* the i386 psABI wants 16-byte alignment at calls */
	subl	$8, %esp
	pushl	%edx
	pushl	%eax
	call	__start_main
	ud2				/* __start_main never returns */
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
