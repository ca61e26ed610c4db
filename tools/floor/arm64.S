/* The floor image for aarch64 virt: QEMU's own start-up cost, nothing else. The first
 * instruction starts writing the shell's prompt to the PL011 (MMU off, no set-up needed), then
 * the CPU sleeps with interrupts masked; tools/bench.py kills QEMU once the prompt arrived. */
	.text
	.global _start
_start:
	mov	x1, #0x09000000		/* PL011 data register */
	adr	x2, prompt
1:	ldrb	w3, [x2], #1
	cbz	w3, 2f
	strb	w3, [x1]
	b	1b
2:	wfi
	b	2b
prompt:	.asciz	"rndbits# "
