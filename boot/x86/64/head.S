/* x86_64 first instructions. A multiboot v1 loader enters _start in 32-bit protected mode with
 * paging off, EAX = 0x2BADB002 and EBX = the physical address of the multiboot info. The boot
 * page tables come with the image, made at build time (asm/boot_tables_64.h): 2 MiB pages that
 * map this code at its own address until the jump, the first 4 GiB at PAGE_OFFSET (the direct
 * map, which pmm_init and the multiboot parser use) and the image at __START_KERNEL_map. We
 * enter long mode with CR3 at them and call arch_start(magic, info) at the kernel's linked
 * (high) address. arch_mmu_init later switches to the kernel's own tables. */
#include <asm/boot_tables_64.h>
#include <asm/memory.h>
#include <asm/ram_probe.h>

#define MB_MAGIC 0x1BADB002
#define MB_FLAGS 0x00000003 /* page-align modules, give us the memory map */

#define CR0_PE (1 << 0)
#define CR0_WP (1 << 16)
#define CR0_PG (1 << 31)
#define CR4_PAE (1 << 5)
#define MSR_EFER 0xC0000080
#define EFER_LME (1 << 8)
#define EFER_NXE (1 << 11)

#define COM1 0x3F8
#define DEBUG_EXIT_PORT 0xF4

	.section .boot.header, "a"
	.balign 4
multiboot_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	mov	%eax, %esi			/* multiboot magic, for arch_start */
	mov	%ebx, %ebp			/* multiboot info (physical) */

	/* Long mode and NX are required; say so instead of faulting on the way. */
	mov	$0x80000000, %eax
	cpuid
	cmp	$0x80000001, %eax
	jb	no_long_mode
	mov	$0x80000001, %eax
	cpuid
	test	$(1 << 29), %edx		/* LM */
	jz	no_long_mode
	test	$(1 << 20), %edx		/* NX */
	jz	no_long_mode

	x86_ram_probe (__kernel_end - __START_KERNEL_map), 0

	/* BSS, through its physical address (paging is off). */
	mov	$(__bss_start - __START_KERNEL_map), %edi
	mov	$(__bss_end - __START_KERNEL_map), %ecx
	sub	%edi, %ecx
	shr	$2, %ecx
	xor	%eax, %eax
	rep stosl

	/* Long mode: PAE, CR3, EFER.LME (+NXE: the tables' NX bits), then paging. */
	lgdt	boot_gdt_desc
	mov	%cr4, %eax
	or	$CR4_PAE, %eax
	mov	%eax, %cr4
	mov	$(x86_64_boot_pml4 - __START_KERNEL_map), %eax
	mov	%eax, %cr3
	mov	$MSR_EFER, %ecx
	rdmsr
	or	$(EFER_LME | EFER_NXE), %eax
	wrmsr
	mov	%cr0, %eax
	or	$(CR0_PE | CR0_WP | CR0_PG), %eax
	mov	%eax, %cr0
	ljmp	$0x08, $long_mode_entry

no_long_mode:
	mov	$no_long_mode_msg, %ebx
1:	mov	$(COM1 + 5), %dx
2:	inb	%dx, %al
	test	$0x20, %al
	jz	2b
	movb	(%ebx), %al
	test	%al, %al
	jz	3f
	mov	$COM1, %dx
	outb	%al, %dx
	inc	%ebx
	jmp	1b
3:	mov	$DEBUG_EXIT_PORT, %dx
	mov	$4, %eax			/* EXIT_EXCEPTION: QEMU exits with 9 */
	outl	%eax, %dx
4:	hlt
	jmp	4b

	.code64
long_mode_entry:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	xor	%eax, %eax
	mov	%eax, %fs
	mov	%eax, %gs
	movabs	$x86_64_start_kernel, %rax
	jmp	*%rax

	.section .boot.data, "a"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF		/* 0x08: 64-bit code, DPL0 */
	.quad 0x00CF92000000FFFF		/* 0x10: data, DPL0 */
boot_gdt_end:
boot_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

no_long_mode_msg:
	.asciz "rndbits: this x86_64 kernel needs a CPU with long mode and NX\r\n"

	/* The page tables made at build time (asm/boot_tables_64.h): tools/boot_tables writes
	 * their contents into the linked image, so they take no work at boot. Page aligned, and
	 * in the image's data, so that the kernel's tables map them rw- like the rest of it. */
	.section .boot_tables, "aw", @progbits
	.balign 4096
	.globl x86_64_boot_pml4, x86_64_kernel_pml4, x86_64_boot_page_tables
x86_64_boot_pml4:
	.fill X86_64_TABLE_BYTES, 1, 0
x86_64_kernel_pml4:
	.fill X86_64_TABLE_BYTES, 1, 0
x86_64_boot_page_tables:
	.fill X86_64_BOOT_PAGE_TABLES * X86_64_TABLE_BYTES, 1, 0

	/* From here on the kernel runs at its linked address. */
	.section .text.entry, "ax"
	.code64
x86_64_start_kernel:
	/* The outermost frame for gdb: no return address (arch/x86/64/entry.S says why). */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined rip
	movabs	$x86_64_boot_stack_top, %rsp
	/* Multiboot defines only IF and VM of EFLAGS: a loader may hand over NT, AC or TF set,
	 * and in long mode an iretq with NT set raises #GP. Start from all flags clear (Linux's
	 * head code does the same once it has a stack). */
	pushq	$0
	popfq
	mov	%esi, %edi			/* arch_start(magic, info_pa); 32-bit moves */
	mov	%ebp, %esi			/* zero-extend the values */
	xor	%ebp, %ebp			/* a zero frame pointer ends backtraces */
	call	arch_start
1:	cli
	hlt
	jmp	1b
	.cfi_endproc

	/* Kernel stacks, each above an unmapped guard page (linker/x86_64.ld). */
	.section .stacks, "aw", @nobits
	.balign 4096
	.skip 4096
	.globl x86_64_boot_stack, x86_64_boot_stack_top
x86_64_boot_stack:
	.skip 16384
x86_64_boot_stack_top:
	.skip 4096
	.globl x86_64_ist_stack, x86_64_ist_stack_top
x86_64_ist_stack:
	.skip 8192
x86_64_ist_stack_top:
