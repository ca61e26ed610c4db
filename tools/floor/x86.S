/* The floor image for the PC (i386 and x86_64 alike: both boot a multiboot v1 ELF32 in 32-bit
 * protected mode): the first instruction starts writing the shell's prompt to COM1, then the
 * CPU halts with interrupts off (see arm64.S). */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0

	.section .multiboot, "a"
	.balign 4
	.long	MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

	.text
	.code32
	.global _start
_start:
	mov	$prompt, %esi
	mov	$0x3f8, %dx		/* COM1 transmit register */
1:	lodsb
	test	%al, %al
	jz	2f
	outb	%al, %dx
	jmp	1b
2:	cli
	hlt
	jmp	2b
prompt:	.asciz	"rndbits# "
