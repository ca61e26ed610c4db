/* Process entry for AArch64. Linux leaves sp pointing at argc, then argv[], NULL, envp[], NULL,
 * the auxiliary vector; nothing useful in registers. */
	.text
	.globl	_start
	.hidden	_start
	.type	_start, %function
_start:
	mov	x29, #0			/* the outermost frame, for backtraces */
	mov	x30, #0
	ldr	x0, [sp]		/* argc */
	add	x1, sp, #8		/* argv */
	mov	x2, sp
	and	x2, x2, #~15		/* AAPCS64: sp 16-byte aligned (the kernel should have) */
	mov	sp, x2
	bl	__start_main
1:	b	1b			/* __start_main never returns */
	.size	_start, . - _start

	.section .note.GNU-stack, "", %progbits
