/* Exception vectors (VBAR_EL1) and the user-mode entry/exit trampolines.
 *
 * Every slot saves a full struct trap_frame (asm/trap_frame.h) on the kernel stack and calls
 * a64_trap_entry(frame, slot); when that returns, the frame (possibly edited: syscall results)
 * is restored and the interrupted context resumes. Kernel-mode slots first check that the frame
 * still fits on the kernel stack and otherwise report the overflow from the emergency stack. */
#include <asm/trap_frame.h>

/* Unwind information for gdb (docs/debugging.md): each entry is the outermost frame of the
 * kernel code it calls, its return address (x30) undefined, so a backtrace ends here instead
 * of taking the interrupted context's x30 for a caller. In .debug_frame, like the C code's:
 * nothing of it is loaded. */
	.cfi_sections .debug_frame

.macro entry_cfi
	.cfi_startproc
	.cfi_undefined x30
.endm

.macro save_frame el
	sub	sp, sp, #TF_SIZE
	.cfi_adjust_cfa_offset TF_SIZE
	stp	x0, x1, [sp, #TF_X(0)]
	stp	x2, x3, [sp, #TF_X(2)]
	stp	x4, x5, [sp, #TF_X(4)]
	stp	x6, x7, [sp, #TF_X(6)]
	stp	x8, x9, [sp, #TF_X(8)]
	stp	x10, x11, [sp, #TF_X(10)]
	stp	x12, x13, [sp, #TF_X(12)]
	stp	x14, x15, [sp, #TF_X(14)]
	stp	x16, x17, [sp, #TF_X(16)]
	stp	x18, x19, [sp, #TF_X(18)]
	stp	x20, x21, [sp, #TF_X(20)]
	stp	x22, x23, [sp, #TF_X(22)]
	stp	x24, x25, [sp, #TF_X(24)]
	stp	x26, x27, [sp, #TF_X(26)]
	stp	x28, x29, [sp, #TF_X(28)]
	.if \el == 0
	mrs	x21, sp_el0
	.else
	add	x21, sp, #TF_SIZE
	.endif
	stp	x30, x21, [sp, #TF_X(30)]
	mrs	x22, elr_el1
	mrs	x23, spsr_el1
	stp	x22, x23, [sp, #TF_PC]
	mrs	x24, esr_el1
	mrs	x25, far_el1
	stp	x24, x25, [sp, #TF_ESR]
.endm

.macro restore_frame el
	ldp	x22, x23, [sp, #TF_PC]
	msr	elr_el1, x22
	msr	spsr_el1, x23
	.if \el == 0
	ldr	x21, [sp, #TF_SP]
	msr	sp_el0, x21
	.endif
	ldp	x0, x1, [sp, #TF_X(0)]
	ldp	x2, x3, [sp, #TF_X(2)]
	ldp	x4, x5, [sp, #TF_X(4)]
	ldp	x6, x7, [sp, #TF_X(6)]
	ldp	x8, x9, [sp, #TF_X(8)]
	ldp	x10, x11, [sp, #TF_X(10)]
	ldp	x12, x13, [sp, #TF_X(12)]
	ldp	x14, x15, [sp, #TF_X(14)]
	ldp	x16, x17, [sp, #TF_X(16)]
	ldp	x18, x19, [sp, #TF_X(18)]
	ldp	x20, x21, [sp, #TF_X(20)]
	ldp	x22, x23, [sp, #TF_X(22)]
	ldp	x24, x25, [sp, #TF_X(24)]
	ldp	x26, x27, [sp, #TF_X(26)]
	ldp	x28, x29, [sp, #TF_X(28)]
	ldr	x30, [sp, #TF_X(30)]
	add	sp, sp, #TF_SIZE
	.cfi_adjust_cfa_offset -TF_SIZE
	eret
.endm

/* Kernel-mode entry: overflow check using x0 only (parked in TPIDR_EL1), then the frame. */
.macro el1_entry slot
a64_el1_entry_\slot:
	entry_cfi
	msr	tpidr_el1, x0
	mov	x0, sp
	sub	x0, x0, #TF_SIZE
	tbz	x0, #KSTACK_SHIFT, 1f
	mrs	x0, tpidr_el1
	save_frame 1
	mov	x0, sp
	mov	x1, #\slot
	bl	a64_trap_entry
	restore_frame 1
1:	add	x0, x0, #TF_SIZE
	msr	sp_el0, x0			/* the overflowed sp; we never return from here */
	mov	x0, #\slot
	b	a64_kstack_overflow
	.cfi_endproc
.endm

.macro el0_entry slot
a64_el0_entry_\slot:
	entry_cfi
	save_frame 0
	mov	x0, sp
	mov	x1, #\slot
	bl	a64_trap_entry
	restore_frame 0
	.cfi_endproc
.endm

.macro vslot target
	.balign	0x80
	b	\target
.endm

	.section .text.vectors, "ax"
	.balign	2048
	.globl	a64_vectors
a64_vectors:
	vslot	a64_el1_entry_0		/* current EL, SP_EL0 (never used by rndbits) */
	vslot	a64_el1_entry_1
	vslot	a64_el1_entry_2
	vslot	a64_el1_entry_3
	vslot	a64_el1_entry_4		/* current EL, SP_EL1: the kernel */
	vslot	a64_el1_entry_5
	vslot	a64_el1_entry_6
	vslot	a64_el1_entry_7
	vslot	a64_el0_entry_8		/* lower EL, AArch64 */
	vslot	a64_el0_entry_9
	vslot	a64_el0_entry_10
	vslot	a64_el0_entry_11
	vslot	a64_el0_entry_12	/* lower EL, AArch32 */
	vslot	a64_el0_entry_13
	vslot	a64_el0_entry_14
	vslot	a64_el0_entry_15

	.text
	el1_entry 0
	el1_entry 1
	el1_entry 2
	el1_entry 3
	el1_entry 4
	el1_entry 5
	el1_entry 6
	el1_entry 7
	el0_entry 8
	el0_entry 9
	el0_entry 10
	el0_entry 11
	el0_entry 12
	el0_entry 13
	el0_entry 14
	el0_entry 15

/* x0 = slot, TPIDR_EL1 = the interrupted x0, SP_EL0 = the overflowed sp. Build a frame on the
 * emergency stack and let C report it; a64_stack_overflow never returns. */
a64_kstack_overflow:
	entry_cfi
	msr	tpidrro_el0, x0
	ldr	x0, =a64_emergency_stack_top
	mov	sp, x0
	mrs	x0, tpidr_el1
	save_frame 0				/* "el 0": sp field from SP_EL0, the bad sp */
	mov	x0, sp
	mrs	x1, tpidrro_el0
	bl	a64_stack_overflow
2:	wfi
	b	2b
	.cfi_endproc
	.ltorg

/* long a64_user_enter(struct a64_user_ctx *ctx, uint64_t pc, uint64_t sp, uint64_t spsr):
 * keep the callee-saved registers and sp in ctx, then eret to EL0 with every register zeroed
 * (AArch32's sp is r13 = x13). Returns when a64_user_leave(ctx, value) is called.
 * Zeroed too: what EL0 can read of the previous task, the thread pointers (TPIDR_EL0, which
 * AArch32 sees as TPIDRURW, and TPIDRRO_EL0 = TPIDRURO) and the FP/SIMD state (V0-V31, which
 * hold AArch32's D0-D31, and FPSR/FPCR = FPSCR, whose reset value is 0 as on Linux). The kernel
 * never uses FP/SIMD (-mgeneral-regs-only), so these hold whatever the last task left. */
	.globl	a64_user_enter
a64_user_enter:
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	mov	x9, sp
	str	x9, [x0, #96]
	msr	elr_el1, x1
	msr	spsr_el1, x3
	msr	sp_el0, x2
	msr	tpidr_el0, xzr
	msr	tpidrro_el0, xzr
	msr	fpsr, xzr
	msr	fpcr, xzr
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\r\().2d, #0
	.endr
	mov	x13, #0
	tbz	x3, #4, 1f
	mov	x13, x2
	msr	sp_el0, xzr
1:
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30
	mov	x\r, #0
	.endr
	eret

/* __noreturn void a64_user_leave(struct a64_user_ctx *ctx, long value) */
	.globl	a64_user_leave
a64_user_leave:
	ldp	x19, x20, [x0, #0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	x29, x30, [x0, #80]
	ldr	x9, [x0, #96]
	mov	sp, x9
	mov	x0, x1
	ret
