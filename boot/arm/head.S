/* ARMv7-A entry: QEMU jumps to the physical address of _start with the MMU and caches off, in
 * SVC mode (HYP with virtualization=on). This code runs at its load address until the MMU is
 * on, so every address it uses before `ldr pc, =1f` is the linked (virtual) address minus
 * ARM_PV_OFFSET.
 *
 * Boot mapping (short descriptors, 1 MiB sections, TTBR0 only, TTBCR.N = 0), boot_pgd below,
 * made at build time (tools/boot_tables/arm.c), so that this code only points the MMU at it:
 *   identity   the MiB holding _start, so the instructions after the MMU switch exist
 *   linear     PAGE_OFFSET .. ARM_LOWMEM_END -> 0x40000000 ..: all usable RAM, because generic
 *              code (pmm, pt_alloc_table) touches RAM through __va before arch_mmu_init
 *   devices    ARM_UART_VA, ARM_GIC_VA -> the MiBs holding the PL011 and the GIC, so printk
 *              works from arch_start on
 * With the 1G split the identity and the linear map are the same entries. arch_mmu_init switches
 * to the kernel's own tables (arm_kernel_tables, below). */
#include <asm/kernel_tables.h>
#include <asm/memory.h>
#include <asm/trap_frame.h>

	.syntax unified
	.arm
	.arch armv7-a
	.arch_extension virt
	.arch_extension sec

/* TTBR0 walk attributes: inner and outer write-back write-allocate, shareable. */
#define TTBR_WALK	((1 << 6) | (1 << 3) | (1 << 1))

#define SCTLR_M		(1 << 0)
#define SCTLR_A		(1 << 1)
#define SCTLR_C		(1 << 2)
#define SCTLR_Z		(1 << 11)
#define SCTLR_I		(1 << 12)
#define SCTLR_V		(1 << 13)
#define SCTLR_UWXN	(1 << 20)
#define SCTLR_TRE	(1 << 28)
#define SCTLR_AFE	(1 << 29)
#define SCTLR_TE	(1 << 30)

#define BOOT_SVC_STACK	16384
#define BOOT_MODE_STACK	512

/* Eight registers stored by one stm, 32 bytes a go. */
#define STM_REGS	{r2, r3, r5-r10}

	.macro	zero_stm_regs
	mov	r2, #0
	mov	r3, #0
	mov	r5, #0
	mov	r6, #0
	mov	r7, #0
	mov	r8, #0
	mov	r9, #0
	mov	r10, #0
	.endm

/* Zero [r0, r1) with the STM_REGS zeroed, 128 bytes a round: both ends 128-byte aligned, the
 * range not empty (the test follows the first round). */
	.macro	zero_loop
1:	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	cmp	r0, r1
	blo	1b
	.endm

/* TTBR0 = r4, TTBCR = 0 (no TTBR1, short descriptors), domain 0 client, ASID 0, then M/C/I/Z
 * and UWXN: the kernel never executes memory a user can write (Virtualization Extensions;
 * short-descriptor small pages have no PXN bit of their own). The boot table maps nothing for
 * users, and arch_mmu_init's switch flushes the TLB, which may hold UWXN. QEMU 7.2 only models
 * UWXN for long descriptors, so under QEMU it is documentation. QEMU does not model caches;
 * real hardware would also need the D-cache invalidated by set/way before it is enabled. */
	.macro	boot_enable_mmu
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0		@ TLBIALL
	mcr	p15, 0, r0, c7, c5, 0		@ ICIALLU
	mcr	p15, 0, r0, c7, c5, 6		@ BPIALL
	mcr	p15, 0, r0, c2, c0, 2		@ TTBCR
	mcr	p15, 0, r0, c13, c0, 1		@ CONTEXTIDR
	mov	r0, #1
	mcr	p15, 0, r0, c3, c0, 0		@ DACR: domain 0 client, others no access
	orr	r0, r4, #TTBR_WALK
	mcr	p15, 0, r0, c2, c0, 0		@ TTBR0
	ldr	r0, =arm_vectors
	mcr	p15, 0, r0, c12, c0, 0		@ VBAR (virtual): faults from boot_high on get reported
	dsb
	isb
	mrc	p15, 0, r0, c1, c0, 0
	ldr	r1, =(SCTLR_A | SCTLR_V | SCTLR_TRE | SCTLR_AFE | SCTLR_TE)
	bic	r0, r0, r1
	ldr	r1, =(SCTLR_M | SCTLR_C | SCTLR_Z | SCTLR_I | SCTLR_UWXN)
	orr	r0, r0, r1
	mcr	p15, 0, r0, c1, c0, 0
	isb
	.endm

	.section .head.text, "ax"
	.global _start
	.type _start, %function
_start:
	ldr	r4, =boot_pgd - ARM_PV_OFFSET	@ r4 = boot L1 table (physical)
	mrs	r12, cpsr
	and	r12, r12, #ARM_MODE_MASK
	cmp	r12, #ARM_MODE_HYP
	bne	1f
	/* Started in HYP: continue in SVC with everything masked. */
	mov	r12, #(ARM_MODE_SVC | ARM_PSR_A | ARM_PSR_I | ARM_PSR_F)
	msr	spsr_cxsf, r12			@ SPSR_hyp: the current mode's SPSR
	adr	r12, 1f
	msr	elr_hyp, r12
	eret
1:	cpsid	aif, #ARM_MODE_SVC
	/* The image (its BSS, boot tables and stacks included) must lie in RAM, which starts at
	 * ARM_PHYS_OFFSET: with too little (-m 2M puts the load address past RAM's end) stores
	 * vanish, the boot table reads as zeroes and nothing could report it. One word stored at
	 * the image's end and read back tells; RAM is one block, so if that word is RAM all is. */
	adr	r0, .Learly_vectors		@ (virt's store to no RAM is a data abort)
	mcr	p15, 0, r0, c12, c0, 0		@ VBAR, physical while the MMU is off
	isb
	ldr	r5, =__kernel_end - ARM_PV_OFFSET
	ldr	r6, =0x52414d21			@ "!MAR": any value but 0
.Lram_probe:
	str	r6, [r5, #-4]
	ldr	r7, [r5, #-4]
	cmp	r6, r7
	bne	.Lno_ram
	boot_enable_mmu
	ldr	pc, =boot_high			@ leave the identity map

/* Vectors until the MMU is on: the probe's data abort means no RAM; anything else is reported
 * as what it is and stops QEMU with EXIT_EXCEPTION (4). */
	.balign	32
.Learly_vectors:
	.rept	8
	b	.Learly_exception
	.endr
.Learly_exception:
	sub	r0, lr, #8			@ a data abort's return address is 8 past it
	adr	r1, .Lram_probe
	cmp	r0, r1
	beq	.Lno_ram
	ldr	r2, =ARM_UART_PA
	adr	r1, .Learly_msg
	bl	.Lputs_phys
	mov	r0, #0x20			@ SYS_EXIT_EXTENDED
	adr	r1, .Learly_exit_block
	svc	0x123456
	b	.Lpower_off

/* RAM ends before the image does: a panic line naming the image's end (r5) on the UART at its
 * physical address, and power off with EXIT_PANIC through semihosting (PSCI without it). */
.Lno_ram:
	ldr	r2, =ARM_UART_PA
	adr	r1, .Lno_ram_msg
	bl	.Lputs_phys
	mov	r6, #28
2:	lsr	r3, r5, r6			@ the address, 8 hex digits
	and	r3, r3, #0xf
	cmp	r3, #10
	addlo	r3, r3, #'0'
	addhs	r3, r3, #('a' - 10)
	str	r3, [r2]
	subs	r6, r6, #4
	bpl	2b
	adr	r1, .Lno_ram_msg_end
	bl	.Lputs_phys
	mov	r0, #0x20			@ SYS_EXIT_EXTENDED
	adr	r1, .Lno_ram_exit_block
	svc	0x123456
.Lpower_off:
	ldr	r0, =0x84000008			@ no semihosting: PSCI SYSTEM_OFF
	hvc	#0
3:	wfi
	b	3b

/* The string at r1 on the UART at r2. Clobbers r1, r3. */
.Lputs_phys:
	ldrb	r3, [r1], #1
	cmp	r3, #0
	strne	r3, [r2]
	bne	.Lputs_phys
	bx	lr

.Lno_ram_msg:
	.asciz	"\r\nrndbits: kernel panic: arm boot: RAM ends before the kernel image, which needs RAM up to 0x"
.Lno_ram_msg_end:
	.asciz	" (give the machine more memory)\r\n"
	.balign	4
.Lno_ram_exit_block:
	.word	0x20026, 3			@ ADP_Stopped_ApplicationExit, EXIT_PANIC
.Learly_msg:
	.asciz	"\r\nrndbits: arm: exception before the MMU was on\r\n"
	.balign	4
.Learly_exit_block:
	.word	0x20026, 4			@ ADP_Stopped_ApplicationExit, EXIT_EXCEPTION
	.ltorg

/* Running at the linked address from here on, in SVC. Each mode's stack, SVC's first: the BSS
 * clearing is set up in UND mode (which banks no register it uses) and runs right after the
 * switch back to SVC (see zero_loop). */
boot_high:
	/* The outermost frame for gdb: no return address (arch/arm/entry.S says why). */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined lr
	ldr	sp, =boot_svc_stack + BOOT_SVC_STACK
	cps	#ARM_MODE_UND
	ldr	sp, =boot_und_stack + BOOT_MODE_STACK
	cps	#ARM_MODE_ABT
	ldr	sp, =boot_abt_stack + BOOT_MODE_STACK
	cps	#ARM_MODE_IRQ
	ldr	sp, =boot_irq_stack + BOOT_MODE_STACK
	cps	#ARM_MODE_FIQ
	ldr	sp, =boot_fiq_stack + BOOT_MODE_STACK
	cps	#ARM_MODE_UND

	/* 128 bytes a round (arm.ld aligns both ends). BSS is never empty (arm.ld asserts it), so
	 * the test can follow the first round. */
	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	zero_stm_regs
	cps	#ARM_MODE_SVC
	zero_loop

	mov	fp, #0
	bl	arch_start
2:	wfi
	b	2b
	.cfi_endproc
	.ltorg

/* The kernel half's tables (asm/kernel_tables.h), which arch_mmu_init switches to. Their
 * contents are made at build time (tools/boot_tables/arm.c: the image and the devices; the
 * build writes them into this section, arch/arm/arch.cmake), and arch_mmu_init adds the linear
 * map of RAM. Defined here, where no compiler can take them for the zeroes written below. */
	.section .boot_tables, "aw", %progbits
	.balign ARM_KERNEL_TABLES_ALIGN
	.global arm_kernel_tables
arm_kernel_tables:
	.space ARM_KERNEL_TABLES_BYTES

/* The boot L1 table, made at build time like the kernel's (see the top of this file), last in
 * the section: linker/arm.ld puts the stacks right after it. */
	.balign 16384
	.global boot_pgd
boot_pgd:
	.space 16384

/* boot_svc_stack is page aligned (linker/arm.ld): the page below it, the top of the boot L1
 * table, becomes the stack's guard page once arch_mmu_init has switched tables. */
	.section .boot.stack, "aw", %nobits
	.balign 8
	.global boot_svc_stack
boot_svc_stack:	.space BOOT_SVC_STACK
	.global arm_emergency_stack_top
arm_emergency_stack:	.space 4096
arm_emergency_stack_top:
boot_und_stack:	.space BOOT_MODE_STACK
boot_abt_stack:	.space BOOT_MODE_STACK
boot_irq_stack:	.space BOOT_MODE_STACK
boot_fiq_stack:	.space BOOT_MODE_STACK
