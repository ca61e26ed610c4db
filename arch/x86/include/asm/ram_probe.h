/* The RAM probe both x86 entry points (boot/x86/32 and 64 head.S) run first, paging off: the
 * kernel image, BSS and stacks included, must lie in RAM. With too little (-m 1280K ends RAM
 * inside the image, which is loaded at 1 MiB) its stores vanish, its stack with them, and the
 * CPU would triple-fault without a word (QEMU, -no-reboot, then exits 0). One word stored at the
 * image's end and read back tells (a PC drops stores to no RAM and reads them as all ones); RAM
 * is one block from 1 MiB, so if that word is RAM all of the image is. */
#ifndef RNDBITS_ASM_X86_RAM_PROBE_H
#define RNDBITS_ASM_X86_RAM_PROBE_H

#ifdef __ASSEMBLER__

#define RAM_PROBE_COM1 0x3F8
#define RAM_PROBE_EXIT_PORT 0xF4 /* isa-debug-exit: QEMU exits with (value << 1) | 1 */
#define RAM_PROBE_EXIT_PANIC 3   /* include/kernel/kernel.h EXIT_PANIC */

/* The NUL-terminated string at %ebx on COM1, by polling (no stack, no interrupts). Clobbers
 * %eax, %ebx, %ecx, %edx. */
.macro x86_early_puts
1:	movb	(%ebx), %cl
	test	%cl, %cl
	jz	3f
	mov	$(RAM_PROBE_COM1 + 5), %dx	/* LSR: wait for THR empty */
2:	inb	%dx, %al
	test	$0x20, %al
	jz	2b
	mov	%cl, %al
	mov	$RAM_PROBE_COM1, %dx
	outb	%al, %dx
	inc	%ebx
	jmp	1b
3:
.endm

/* 32-bit code, paging off. end: the image's physical end; to_phys: what to subtract from this
 * code's linked addresses for their physical ones (0 where it is identity-linked). Falls through
 * when the image is in RAM (clobbering no register); otherwise prints a panic line naming the
 * end and powers off with EXIT_PANIC through isa-debug-exit. */
.macro x86_ram_probe end, to_phys
	movl	$0x52414d21, (\end - 4)	/* "!MAR": any value but 0 or ~0 */
	cmpl	$0x52414d21, (\end - 4)
	je	.Lram_ok\@
	mov	$(.Lno_ram_msg\@ - \to_phys), %ebx
	x86_early_puts
	mov	$(\end), %edi			/* the end, in 8 hex digits */
	mov	$8, %esi
4:	rol	$4, %edi
	mov	%edi, %ecx
	and	$0xf, %ecx
	add	$'0', %cl
	cmp	$'9', %cl
	jbe	5f
	add	$('a' - '9' - 1), %cl
5:	mov	$(RAM_PROBE_COM1 + 5), %dx
6:	inb	%dx, %al
	test	$0x20, %al
	jz	6b
	mov	%cl, %al
	mov	$RAM_PROBE_COM1, %dx
	outb	%al, %dx
	dec	%esi
	jnz	4b
	mov	$(.Lno_ram_end\@ - \to_phys), %ebx
	x86_early_puts
	mov	$RAM_PROBE_EXIT_PORT, %dx
	mov	$RAM_PROBE_EXIT_PANIC, %eax
	outl	%eax, %dx
7:	hlt
	jmp	7b
.Lno_ram_msg\@:
	.asciz	"\r\nrndbits: kernel panic: x86 boot: RAM ends before the kernel image, which needs RAM up to 0x"
.Lno_ram_end\@:
	.asciz	" (give the machine more memory)\r\n"
.Lram_ok\@:
.endm

#endif /* __ASSEMBLER__ */

#endif
