/* ARMv7-A entry: QEMU jumps to the physical address of _start with the MMU and caches off, in
 * SVC mode (HYP with virtualization=on). This code runs at its load address until the MMU is
 * on, so every address it uses before `ldr pc, =1f` is the linked (virtual) address minus
 * ARM_PV_OFFSET.
 *
 * Boot mapping (short descriptors, 1 MiB sections, TTBR0 only, TTBCR.N = 0):
 *   identity   the MiB holding _start, so the instructions after the MMU switch exist
 *   linear     PAGE_OFFSET .. ARM_LOWMEM_END -> 0x40000000 ..: all usable RAM, because generic
 *              code (pmm, pt_alloc_table) touches RAM through __va before arch_mmu_init
 *   devices    ARM_UART_VA, ARM_GIC_VA -> the MiBs holding the PL011 and the GIC, so printk
 *              works from arch_start on
 * With the 1G split the identity and the linear map are the same entries. arch_mmu_init replaces
 * all of this with the real tables. */
#include <asm/memory.h>
#include <asm/trap_frame.h>

	.syntax unified
	.arm
	.arch armv7-a
	.arch_extension virt
	.arch_extension sec

/* Section descriptor bits (see arch/arm/pte.c for the full layout). */
#define SECT_TYPE	0x2
#define SECT_B		(1 << 2)
#define SECT_C		(1 << 3)
#define SECT_XN		(1 << 4)
#define SECT_AP_KRW	(1 << 10)		/* APX=0 AP=01: PL1 RW, PL0 none */
#define SECT_TEX1	(1 << 12)
#define SECT_S		(1 << 16)
#define SECT_NORMAL	(SECT_TYPE | SECT_B | SECT_C | SECT_TEX1 | SECT_S | SECT_AP_KRW)
#define SECT_DEVICE	(SECT_TYPE | SECT_B | SECT_XN | SECT_AP_KRW)

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

/* Eight registers stored by one stm, 32 bytes a go: under TCG every executed instruction
 * counts, and the stores below run for every word of the boot table and of BSS. r4 (the boot
 * table) is not among them. */
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
 * range not empty (the test follows the first round). Each use sets its registers up before a
 * mode change, which ends a translated block: the loop then starts a block of its own instead
 * of being translated twice (inside the block that falls into it, and as the branch target). */
	.macro	zero_loop
1:	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	stmia	r0!, STM_REGS
	cmp	r0, r1
	blo	1b
	.endm

/* VA = PA for the MiB holding _start, in r11 (slot) and r12 (descriptor): only the few
 * instructions between the MMU switch and `ldr pc, =boot_high` run there, and they lie in the
 * image's first page. boot_map_linear's registers are set up before it. */
	.macro	boot_map_identity
	ldr	r11, =_start - ARM_PV_OFFSET
	lsr	r11, r11, #20
	ldr	r12, =SECT_NORMAL
	orr	r12, r12, r11, lsl #20
	str	r12, [r4, r11, lsl #2]
	.endm

/* PAGE_OFFSET .. ARM_LOWMEM_END -> ARM_PHYS_OFFSET .., eight sections a round: up to 2816 of
 * them (the 1G split), each the previous one plus a MiB. Entered by a branch, so that the loop
 * starts a translated block of its own rather than being translated twice, inside the block
 * that would fall into it and as the branch target (see zero_loop). */
#define LINEAR_FIRST	(PAGE_OFFSET >> 20)
#define LINEAR_END	(ARM_LOWMEM_END >> 20)
	.if	(LINEAR_END - LINEAR_FIRST) % 8
	.error	"boot_map_linear writes eight sections a round"
	.endif
	.macro	boot_map_linear_setup
	ldr	r0, =LINEAR_FIRST * 4
	ldr	r1, =LINEAR_END * 4
	add	r0, r0, r4
	add	r1, r1, r4
	ldr	r2, =ARM_PHYS_OFFSET | SECT_NORMAL
	add	r3, r2, #0x100000
	add	r5, r2, #0x200000
	add	r6, r2, #0x300000
	add	r7, r2, #0x400000
	add	r8, r2, #0x500000
	add	r9, r2, #0x600000
	add	r10, r2, #0x700000
	.endm

	.macro	boot_map_linear
	b	1f
1:	stmia	r0!, STM_REGS
	add	r2, r2, #0x800000
	add	r3, r3, #0x800000
	add	r5, r5, #0x800000
	add	r6, r6, #0x800000
	add	r7, r7, #0x800000
	add	r8, r8, #0x800000
	add	r9, r9, #0x800000
	add	r10, r10, #0x800000
	cmp	r0, r1
	blo	1b
	.endm

	.macro	boot_map_devices
	ldr	r0, =ARM_UART_VA >> 20
	ldr	r2, =ARM_UART_PA | SECT_DEVICE
	str	r2, [r4, r0, lsl #2]
	ldr	r0, =ARM_GIC_VA >> 20
	ldr	r2, =ARM_GIC_PA | SECT_DEVICE
	str	r2, [r4, r0, lsl #2]
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
	/* The boot table's clearing, set up here and run right after the switch to SVC (see
	 * zero_loop). The mode checks use r12, which the clearing leaves alone. */
	ldr	r4, =boot_pgd - ARM_PV_OFFSET	@ r4 = boot L1 table (physical)
	mov	r0, r4
	add	r1, r4, #16384
	zero_stm_regs
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

	/* The steps below are macros expanded in line rather than subroutines: under TCG every
	 * call return starts another translated block. */
	zero_loop				@ the boot table
	boot_map_linear_setup
	boot_map_identity
	boot_map_linear
	boot_map_devices
	boot_enable_mmu
	ldr	pc, =boot_high			@ leave the identity map

/* Running at the linked address from here on, in SVC. Each mode's stack, SVC's first: the BSS
 * clearing is set up in UND mode (which banks no register it uses) and runs right after the
 * switch back to SVC (see zero_loop). */
boot_high:
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

	/* 128 bytes a round (arm.ld aligns both ends). BSS is never empty (it holds the kernel's
	 * 16 KiB L1 table, arch/arm/mmu.c), so the test can follow the first round. */
	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	zero_stm_regs
	cps	#ARM_MODE_SVC
	zero_loop

	mov	fp, #0
	bl	arch_start
2:	wfi
	b	2b
	.ltorg

	.section .boot.pgd, "aw", %nobits
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
