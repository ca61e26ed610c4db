/* The registers an x86_64 trap saves (arch/x86/64/entry.S), lowest address first. In 64-bit mode
 * the CPU always pushes SS:RSP, so one layout serves kernel and user traps; SYSCALL entries
 * build the same frame by hand. */
#ifndef RNDBITS_ASM_X86_TRAP_FRAME_64_H
#define RNDBITS_ASM_X86_TRAP_FRAME_64_H

#define TF_R15 0
#define TF_RAX 112
#define TF_VECTOR 120
#define TF_ERROR_CODE 128
#define TF_RIP 136
#define TF_CS 144
#define TF_RFLAGS 152
#define TF_RSP 160
#define TF_SS 168
#define TF_SIZE 176 /* a multiple of 16: the C handler is called with an aligned stack */

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct trap_frame {
	/* Pushed by entry.S. */
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	/* Vector (X86_64_VECTOR_SYSCALL for SYSCALL) and error code (0 where the CPU pushes none;
	 * a system call's number, Linux's orig_rax, for SYSCALL and int 0x80). */
	uint64_t vector, error_code;
	/* Pushed by the CPU (by entry.S for SYSCALL). */
	uint64_t rip, cs, rflags, rsp, ss;
};
#endif

#endif
