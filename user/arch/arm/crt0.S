/* Process entry for the ARM EABI (arm, and AArch32 tasks on arm64). Linux leaves sp pointing at
 * argc, then argv[], NULL, envp[], NULL, the auxiliary vector; nothing useful in registers. */
	.syntax unified
	.arm
	.text
	.globl	_start
	.hidden	_start
	.type	_start, %function
_start:
	mov	fp, #0			@ the outermost frame, for backtraces
	mov	lr, #0
	ldr	r0, [sp]		@ argc
	add	r1, sp, #4		@ argv
	mov	r2, sp
	bic	r2, r2, #7		@ AAPCS: sp 8-byte aligned at public interfaces
	mov	sp, r2
	bl	__start_main
1:	b	1b			@ __start_main never returns
	.size	_start, . - _start

	.section .note.GNU-stack, "", %progbits
