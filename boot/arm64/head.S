/* arm64 entry: QEMU starts here at the physical load address, at EL1 (or EL2 with
 * virtualization=on), MMU off, DTB at PHYS_OFFSET. We drop to EL1, clear BSS, load MAIR, TCR
 * and the TTBRs with the kernel's page tables, which are in the image already (the
 * .boot_tables section below: final ones, kept for good), turn the MMU on, jump to the linked
 * (TTBR1) address, drop the identity map and call arch_start() on the kernel stack. */
#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>
#include <asm/trap_frame.h>

	.section .text.head, "ax"
	.globl _start
_start:
	/* The outermost frame for gdb: no return address (arch/arm64/entry.S says why). */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined x30
	msr	daifset, #0xf
	mov	x19, #0				/* 1 once we know we came from EL2 */
	mrs	x0, CurrentEL
	ubfx	x0, x0, #2, #2
	cmp	x0, #2
	b.ne	.Lat_el1

	/* EL2: run EL1 in AArch64, give it the physical timer, and return to it. */
	mov	x0, #(1 << 31)			/* HCR_EL2.RW */
	msr	hcr_el2, x0
	mov	x0, #3				/* CNTHCTL_EL2.EL1PCTEN | EL1PCEN */
	msr	cnthctl_el2, x0
	msr	cntvoff_el2, xzr
	mrs	x0, id_aa64pfr0_el1		/* GICv3 CPU interface: let EL1 use it */
	ubfx	x0, x0, #24, #4
	cbz	x0, 1f
	mrs	x0, s3_4_c12_c9_5		/* ICC_SRE_EL2 */
	mov	x1, #0x9			/* SRE | Enable */
	orr	x0, x0, x1
	msr	s3_4_c12_c9_5, x0
	isb
1:	mov	x0, #0x3c5			/* EL1h, D, A, I, F masked */
	msr	spsr_el2, x0
	adr	x0, .Lat_el1
	msr	elr_el2, x0
	mov	x19, #1
	eret

.Lat_el1:
	/* Everything below runs at the physical address: adrp/adr are PC-relative, so symbols
	 * resolve to their physical copies. Until the real vectors are installed, any exception
	 * says so on the UART and stops QEMU instead of spinning silently. */
	adrp	x0, __bss_start
	add	x0, x0, :lo12:__bss_start
	adrp	x1, __bss_end
	add	x1, x1, :lo12:__bss_end
	adr	x2, a64_early_vectors
	msr	vbar_el1, x2
	isb
	/* The image (BSS, stacks and boot tables included) must lie in RAM, which starts at
	 * PHYS_OFFSET: with too little (-m 2M puts the image's load address past RAM's end)
	 * stores vanish and nothing could report it. One word stored at the image's end and read
	 * back tells; RAM is one block from PHYS_OFFSET, so if that word is RAM all of it is. */
	adrp	x4, __kernel_end
	add	x4, x4, :lo12:__kernel_end
	ldr	x6, =0x52414d2050524f42		/* "BORP MAR": any value but 0 */
.Lram_probe:					/* virt: a store to no RAM aborts */
	stur	x6, [x4, #-8]
	ldur	x7, [x4, #-8]
	cmp	x6, x7
	b.ne	.Lno_ram
	/* 128 bytes a round (arm64.ld aligns both ends), the test at the bottom: BSS is never
	 * empty (arm64.ld asserts it), so the test can follow the first round. */
1:	stp	xzr, xzr, [x0]
	stp	xzr, xzr, [x0, #16]
	stp	xzr, xzr, [x0, #32]
	stp	xzr, xzr, [x0, #48]
	stp	xzr, xzr, [x0, #64]
	stp	xzr, xzr, [x0, #80]
	stp	xzr, xzr, [x0, #96]
	stp	xzr, xzr, [x0, #112]
	add	x0, x0, #128
	cmp	x0, x1
	b.lo	1b
	adrp	x0, a64_booted_at_el2
	str	x19, [x0, :lo12:a64_booted_at_el2]

	/* TCR for the boot: all but its output size (IPS) is the preset's; that comes from the
	 * CPU, as does whether it has this preset's granule at all. */
	mrs	x1, id_aa64mmfr0_el1
	ubfx	x0, x1, #ID_MMFR0_TGRAN_SHIFT, #4
	cmp	x0, #ID_MMFR0_TGRAN_NONE
	b.eq	.Lno_granule
	and	x1, x1, #0xf			/* PARange */
	mov	x2, #ID_MMFR0_PARANGE_48
	cmp	x1, x2
	csel	x1, x1, x2, lo
	ldr	x0, =TCR_EL1_BOOT
	orr	x0, x0, x1, lsl #TCR_IPS_SHIFT
	ldr	x1, =MAIR_EL1_VALUE
	adrp	x2, a64_boot_identity_root
	add	x2, x2, :lo12:a64_boot_identity_root
	adrp	x3, a64_boot_kernel_root
	add	x3, x3, :lo12:a64_boot_kernel_root
	/* No stale translation may survive (the TLB is flushed before the tables go live; the
	 * dsb completes that), and the registers take effect together at the isb. Every msr,
	 * tlbi and isb ends a block QEMU translates: no more of them than that. */
	tlbi	vmalle1
	dsb	nsh
	msr	mair_el1, x1
	msr	tcr_el1, x0
	msr	ttbr0_el1, x2
	msr	ttbr1_el1, x3
	isb

	ldr	x0, =SCTLR_EL1_MMU_ON
	dsb	sy
	msr	sctlr_el1, x0
	isb
	ldr	x0, =.Lhigh			/* the linked, virtual address */
	br	x0

.Lhigh:
	ldr	x0, =a64_kstack_top
	mov	sp, x0
	ldr	x0, =a64_vectors
	msr	vbar_el1, x0
	/* Drop the identity map: TTBR0 gets the empty root, then its range widens from the boot's
	 * 32 bits to the tasks' (the empty root is a whole root for both ranges). The isb between
	 * keeps a walk from ever reading the identity root as a root of the wider range. User
	 * addresses fault from now on; the last isb also makes VBAR take effect, before the TLB
	 * flush that drops the identity map's entries (under QEMU every msr and isb ends a block). */
	adrp	x0, a64_empty_root
	ldr	x0, [x0, :lo12:a64_empty_root]
	msr	ttbr0_el1, x0
	isb
	mrs	x0, tcr_el1
	mov	x1, #TCR_T0SZ_TASKS
	bfi	x0, x1, #0, #6
	msr	tcr_el1, x0
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	mov	x29, #0
	mov	x30, #0
	bl	arch_start
3:	wfi
	b	3b
	.cfi_endproc
	.ltorg

/* A CPU without this preset's granule: say so and power off, through PSCI SYSTEM_OFF on the
 * conduit QEMU advertises for the EL we booted at (smc from EL2, else hvc). */
.Lno_granule:
	adr	x1, .Lno_granule_msg
	bl	.Lputs_phys
	mov	x0, #0x0008			/* PSCI SYSTEM_OFF */
	movk	x0, #0x8400, lsl #16
	cbz	x19, 1f
	smc	#0
	b	2f
1:	hvc	#0
2:	wfi
	b	2b
.Lno_granule_msg:
#if CONFIG_PAGE_SHIFT == 12
	.asciz	"rndbits: arm64 boot: this CPU has no 4K granule\r\n"
#elif CONFIG_PAGE_SHIFT == 14
	.asciz	"rndbits: arm64 boot: this CPU has no 16K granule (use -cpu max)\r\n"
#else
	.asciz	"rndbits: arm64 boot: this CPU has no 64K granule\r\n"
#endif
	.balign	4

/* RAM ends before the image does: a panic line naming the image's end (x4), and power off
 * with EXIT_PANIC through semihosting (PSCI SYSTEM_OFF without it). */
.Lno_ram:
	adr	x1, .Lno_ram_msg
	bl	.Lputs_phys
	mov	x1, x4
	bl	.Lputhex_phys
	adr	x1, .Lno_ram_msg_end
	bl	.Lputs_phys
	mov	x0, #0x18			/* SYS_EXIT */
	adr	x1, .Lno_ram_exit_block
	hlt	#0xf000
	mov	x0, #0x0008			/* no semihosting: PSCI SYSTEM_OFF */
	movk	x0, #0x8400, lsl #16
	hvc	#0
1:	wfi
	b	1b
.Lno_ram_msg:
	.asciz	"\r\nrndbits: kernel panic: arm64 boot: RAM ends before the kernel image, which needs RAM up to 0x"
.Lno_ram_msg_end:
	.asciz	" (give the machine more memory)\r\n"
	.balign	8
.Lno_ram_exit_block:
	.quad	0x20026, 3			/* ADP_Stopped_ApplicationExit, EXIT_PANIC */

/* x1 as 16 hex digits on the UART, through its physical address. Clobbers x1-x3, x5. */
.Lputhex_phys:
	mov	x2, #0x09000000
	mov	x5, #60
1:	lsr	x3, x1, x5
	and	x3, x3, #0xf
	cmp	x3, #10
	add	x3, x3, #'0'
	b.lo	2f
	add	x3, x3, #('a' - '0' - 10)
2:	str	w3, [x2]
	subs	x5, x5, #4
	b.pl	1b
	ret

/* The string at x1 on the UART, through its physical address (MMU off). Clobbers x1-x3. */
.Lputs_phys:
	mov	x2, #0x09000000
1:	ldrb	w3, [x1], #1
	cbz	w3, 2f
	str	w3, [x2]
	b	1b
2:	ret

/* Vectors for the MMU-off stretch: the RAM probe's abort goes to .Lno_ram; anything else prints
 * a fixed line through the UART's physical address and exits through semihosting with
 * EXIT_EXCEPTION (4). */
	.balign	2048
a64_early_vectors:
	.rept	16
	.balign	0x80
	b	a64_early_exception
	.endr
a64_early_exception:
	mrs	x0, elr_el1			/* the RAM probe's abort: no RAM there */
	adr	x1, .Lram_probe
	cmp	x0, x1
	b.eq	.Lno_ram
	adr	x1, .Learly_msg
	bl	.Lputs_phys
	mov	x0, #0x18			/* SYS_EXIT */
	adr	x1, .Learly_exit_block
	hlt	#0xf000
	mov	x0, #0x0008			/* no semihosting: PSCI SYSTEM_OFF */
	movk	x0, #0x8400, lsl #16
	hvc	#0
3:	wfi
	b	3b
.Learly_msg:
	.asciz	"\r\nrndbits: arm64: exception before the MMU was on\r\n"
	.balign	8
.Learly_exit_block:
	.quad	0x20026, 4			/* ADP_Stopped_ApplicationExit, EXIT_EXCEPTION */

/* Memory the kernel initialises itself, so BSS clearing skips it (linker/arm64.ld .noclear.head):
 * the kernel stack with its guard below it (see trap_frame.h), and the emergency stack the
 * vectors switch to when the kernel stack has overflowed. */
	.section .noclear.head, "aw", %nobits
	.balign	(2 * KSTACK_SIZE)
	.globl	a64_kstack_guard, a64_kstack_bottom, a64_kstack_top
a64_kstack_guard:
	.space	KSTACK_SIZE
a64_kstack_bottom:
	.space	KSTACK_SIZE
a64_kstack_top:
	.globl	a64_emergency_stack_top
	.space	EMERGENCY_STACK_SIZE
a64_emergency_stack_top:

/* The boot page tables. Their contents are made at build time, when all they depend on is
 * known (the load address is fixed): tools/boot_tables reads the linked image's symbols,
 * maps it with the kernel's own mapper (mm/pgtable.c, arch/arm64/pte.c) and the build writes
 * the result into this section (arch/arm64/arch.cmake). QEMU's loader copies it in with the
 * image: nothing to clear or fill at boot. What the tables map is tools/boot_tables/
 * arm64.c's to say; the generic walker reads and extends them like any other (arch_mmu_init
 * adds what the DTB decides, with pt_map). The tables below the kernel root come from the
 * pool, which they take exactly (the tool checks it); the roots follow it, each aligned to its
 * size as TTBR wants (see asm/pgtable-hwdef.h), the largest first: after the pool's pages none
 * pads before another except with 16K pages and VA_BITS 48, where the identity root (1 KiB)
 * outgrows the kernel's (16 bytes). */
	.section .boot_tables, "aw", %progbits
	.balign	PAGE_SIZE
	.globl	a64_boot_pool, a64_boot_empty_root
	.globl	a64_boot_kernel_root, a64_boot_identity_root
a64_boot_pool:
	.space	A64_BOOT_POOL_TABLES * PAGE_SIZE
	.balign	64
	.balign	A64_EMPTY_ROOT_BYTES
a64_boot_empty_root:
	.space	A64_EMPTY_ROOT_BYTES
	.balign	64
	.balign	A64_ROOT_BYTES
a64_boot_kernel_root:
	.space	A64_ROOT_BYTES
	.balign	64
	.balign	A64_BOOT_ID_ROOT_BYTES
a64_boot_identity_root:
	.space	A64_BOOT_ID_ROOT_BYTES
