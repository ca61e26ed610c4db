/* i386 trap entry: one stub per vector pushes a uniform (error code, vector) pair, the common
 * path saves struct trap_frame (asm/trap_frame.h) and calls x86_trap(frame); returning from it
 * resumes the interrupted context with iret. */
#include <asm/segment.h>
#include <asm/trap_frame.h>


/* Vectors for which the CPU pushes an error code: #DF #TS #NP #SS #GP #PF #AC #CP #VC #SX. */
#define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
			   (v) == 21 || (v) == 29 || (v) == 30)

	.macro VECTOR_STUB vec
	.balign 16
vector_\vec:
	.ifeq HAS_ERROR_CODE(\vec)
	pushl $0
	.endif
	pushl $\vec
	jmp trap_common
	.endm

	.text
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	VECTOR_STUB \vec
	.endr
	.irp vec, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	VECTOR_STUB \vec
	.endr
	VECTOR_STUB 128

/* Unwind information for gdb (docs/debugging.md): trap_common is the outermost frame of the
 * kernel code it calls, its return address (eip) undefined, so a backtrace ends here instead of
 * reading the interrupted context's stack as a caller's. In .debug_frame, like the C code's:
 * nothing of it is loaded. */
	.cfi_sections .debug_frame
trap_common:
	.cfi_startproc
	.cfi_undefined eip
	pushal
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	movl $KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %fs
	movl %eax, %gs
	cld
	pushl %esp			/* x86_trap(struct trap_frame *) */
	call x86_trap
	addl $4, %esp
	/* A new user task's first switch lands here with %esp at its frame (switch.S). */
	.globl x86_trap_return
x86_trap_return:
	popl %gs
	popl %fs
	popl %es
	popl %ds
	popal
	addl $8, %esp			/* vector and error code */
	iret
	.cfi_endproc

	.section .rodata
	.balign 4
	.globl x86_vector_stubs
x86_vector_stubs:
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.long vector_\vec
	.endr
	.irp vec, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	.long vector_\vec
	.endr
	.long vector_128
