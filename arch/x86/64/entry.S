/* x86_64 trap entry: IDT stubs, the SYSCALL entry and the common save/restore path. Every
 * entry builds a struct trap_frame (asm/trap_frame_64.h) on the running task's kernel stack
 * (TSS.RSP0, or x86_64_kernel_rsp for SYSCALL: both set by arch_switch_to) and calls
 * x86_64_trap(frame); returning from it resumes the interrupted context with iretq. */
#include <asm/segment_64.h>
#include <asm/trap_frame_64.h>

	.text

/* Vectors where the CPU pushes an error code: #DF, #TS, #NP, #SS, #GP, #PF, #AC, #CP. */
#define HAS_ERROR_CODE(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || (n) == 21)

.macro trap_stub n
	.balign 16
	.if HAS_ERROR_CODE(\n) == 0
	pushq	$0
	.endif
	pushq	$\n
	jmp	trap_common
.endm

/* The IDT points at x86_64_trap_stubs + 16 * vector for vectors 0..47 (exceptions and the
 * PIC's IRQs); int 0x80 has its own stub. */
	.balign 16
	.globl x86_64_trap_stubs
x86_64_trap_stubs:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23, \
		24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	trap_stub \n
	.endr

	.globl x86_64_int80_stub
x86_64_int80_stub:
	pushq	$0
	pushq	$X86_64_VECTOR_INT80
	jmp	trap_common

/* Unwind information for gdb (docs/debugging.md): trap_common is the outermost frame of the
 * kernel code it calls, its return address (rip) undefined, so a backtrace ends here instead of
 * reading the interrupted context's stack as a caller's. In .debug_frame, like the C code's:
 * nothing of it is loaded. */
	.cfi_sections .debug_frame
trap_common:
	.cfi_startproc
	.cfi_undefined rip
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
	mov	%rsp, %rdi
	call	x86_64_trap
	/* A new user task's first switch lands here with %rsp at its frame (switch.S). */
	.globl	x86_64_trap_return
x86_64_trap_return:
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	add	$16, %rsp			/* vector, error code */
	iretq
	.cfi_endproc

/* SYSCALL from 64-bit user mode: RCX = user RIP, R11 = user RFLAGS, RSP still the user's, and
 * SFMASK has cleared IF. There is one CPU, so a global holds the user RSP while we switch to
 * the kernel stack; then the frame looks like an interrupt's and leaves through iretq (which,
 * unlike SYSRET, cannot be tricked by a non-canonical RCX). */
	.globl x86_64_syscall_entry
x86_64_syscall_entry:
	mov	%rsp, x86_64_syscall_user_rsp(%rip)
	mov	x86_64_kernel_rsp(%rip), %rsp
	pushq	$USER_DS
	pushq	x86_64_syscall_user_rsp(%rip)
	pushq	%r11
	pushq	$USER_CS
	pushq	%rcx
	pushq	$0
	pushq	$X86_64_VECTOR_SYSCALL
	jmp	trap_common

/* SYSCALL from compatibility mode (AMD CPUs allow it; Linux's ia32 ABI uses int 0x80 here):
 * report it as an invalid opcode in the 32-bit task. */
	.globl x86_64_syscall_compat_entry
x86_64_syscall_compat_entry:
	mov	%rsp, x86_64_syscall_user_rsp(%rip)
	mov	x86_64_kernel_rsp(%rip), %rsp
	pushq	$USER_DS
	pushq	x86_64_syscall_user_rsp(%rip)
	pushq	%r11
	pushq	$USER32_CS
	pushq	%rcx
	pushq	$0
	pushq	$6				/* #UD */
	jmp	trap_common

	.bss
	.balign 8
x86_64_syscall_user_rsp:
	.quad 0
	.globl x86_64_kernel_rsp
x86_64_kernel_rsp:
	.quad 0
