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

/* The same start in Thumb state, for hello-thumb (user/thumb_entry.py points its e_entry here
 * with bit 0 set, as a Thumb-2 C library's _start is): exec must enter it with CPSR.T set. It
 * goes on in ARM state at _start, reached PC-relative so the image needs no relocation. */
	.thumb
	.globl	_start_thumb
	.hidden	_start_thumb
	.type	_start_thumb, %function
	.thumb_func
_start_thumb:
	ldr	r0, 1f
2:	add	r0, pc			@ pc reads as this instruction's address + 4
	bx	r0			@ bit 0 clear: ARM state
	.balign	4
1:	.word	_start - (2b + 4)
	.size	_start_thumb, . - _start_thumb

	.section .note.GNU-stack, "", %progbits
