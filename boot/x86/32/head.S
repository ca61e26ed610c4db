/* i386 entry from a multiboot v1 loader: 32-bit protected mode, paging off, flat segments,
 * EAX = 0x2BADB002, EBX = physical address of the multiboot information. We are loaded at 1 MiB
 * but linked at 0xC0100000, so until paging is on every symbol is used through V2P(). */
#include <asm/boot_tables_32.h>
#include <asm/memory.h>
#include <asm/multiboot.h>
#include <asm/processor.h>
#include <asm/ram_probe.h>
#include <asm/segment.h>

#define V2P(x) ((x) - PAGE_OFFSET)
#define MB_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

#define BOOT_STACK_SIZE 16384

	.section .multiboot, "a"
	.balign 4
multiboot_header:
	.long MULTIBOOT_HEADER_MAGIC
	.long MB_FLAGS
	.long -(MULTIBOOT_HEADER_MAGIC + MB_FLAGS)

	.section .text.boot, "ax"
	.code32
	.globl _start
_start:
	/* The outermost frame for gdb: no return address (arch/x86/32/entry.S says why). */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined eip
	cli
	cld
	movl %eax, %esi			/* multiboot magic, for arch_start; EBX keeps the info */
	x86_ram_probe (__kernel_end - PAGE_OFFSET), PAGE_OFFSET	/* clobbers nothing if it returns */

	/* The boot page directory, made at build time (asm/boot_tables_32.h): 4 MiB pages, the
	 * first 4 MiB at their own address for the next few instructions, and the whole linear
	 * map at PAGE_OFFSET (it holds the kernel image, the multiboot data and every frame the
	 * page allocator hands out before arch_mmu_init). */
	movl %cr4, %eax
	orl $X86_CR4_PSE, %eax
	movl %eax, %cr4
	movl $V2P(boot_pgdir), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(X86_CR0_PG | X86_CR0_WP), %eax
	movl %eax, %cr0
	movl $1f, %eax
	jmp *%eax
1:
	/* Running at our linked address now: drop the identity page so that a NULL pointer
	 * faults from here on. */
	movl $0, boot_pgdir
	movl %cr3, %eax
	movl %eax, %cr3
	lgdt boot_gdt_desc
	ljmp $KERNEL_CS, $2f
2:
	movl $KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %fs
	movl %eax, %gs
	movl %eax, %ss

	/* QEMU zero-fills the ELF's BSS, but a loader need not. (The stack, in .kstack, needs no
	 * clearing.) */
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb

	movl $boot_stack_top, %esp
	/* Multiboot defines only IF and VM of EFLAGS: a loader may hand over NT, AC or TF set,
	 * and a kernel running with NT set would take its next iret for a task return. Start
	 * from all flags clear (Linux's head code does the same once it has a stack). */
	pushl $0
	popfl
	xorl %ebp, %ebp			/* end of the frame chain */
	pushl %ebx			/* arch_start(magic, info_pa) */
	pushl %esi
	call arch_start
3:	cli
	hlt
	jmp 3b
	.cfi_endproc

	.section .data, "aw"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00CF9B000000FFFF	/* KERNEL_CS: flat 4 GiB, DPL 0, code, accessed */
	.quad 0x00CF93000000FFFF	/* KERNEL_DS: flat 4 GiB, DPL 0, data, accessed */
boot_gdt_end:
	.balign 4
	.word 0				/* aligns the base below */
boot_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	/* The page tables made at build time (asm/boot_tables_32.h): tools/boot_tables writes
	 * their contents into the linked image, so they take no work at boot. Page aligned, and
	 * in the image's data, so that the kernel's tables map them rw- like the rest of it. */
	.section .boot_tables, "aw", @progbits
	.balign 4096
	.globl boot_pgdir, x86_kernel_pgdir, x86_boot_page_tables
boot_pgdir:
	.fill X86_PD_BYTES, 1, 0
x86_kernel_pgdir:
	.fill X86_PD_BYTES, 1, 0
x86_boot_page_tables:
	.fill X86_BOOT_PAGE_TABLES * 4096, 1, 0

	.section .kstack, "aw", @nobits
	.balign 4096
	.globl boot_stack_guard, boot_stack, boot_stack_top
boot_stack_guard:			/* left unmapped by arch_mmu_init: overflow faults */
	.skip 4096
boot_stack:
	.skip BOOT_STACK_SIZE
boot_stack_top:
