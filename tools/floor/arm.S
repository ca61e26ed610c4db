/* The floor image for arm virt (cortex-a15): the first instruction starts writing the shell's
 * prompt to the PL011 (MMU off, no set-up needed), then the CPU sleeps (see arm64.S). */
	.syntax unified
	.arm
	.text
	.global _start
_start:
	mov	r1, #0x09000000		/* PL011 data register */
	adr	r2, prompt
1:	ldrb	r3, [r2], #1
	cmp	r3, #0
	beq	2f
	strb	r3, [r1]
	b	1b
2:	wfi
	b	2b
prompt:	.asciz	"rndbits# "
