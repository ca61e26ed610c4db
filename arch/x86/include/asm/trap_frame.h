/* The registers an x86 trap saves, in stack order. x86_64's layout lives in trap_frame_64.h
 * (owned with arch/x86/64); this header only dispatches for it. */
#ifndef RNDBITS_ASM_X86_TRAP_FRAME_H
#define RNDBITS_ASM_X86_TRAP_FRAME_H

#ifdef CONFIG_64BIT
#include <asm/trap_frame_64.h>
#else

/* Offsets for arch/x86/32/entry.S; the C struct below must match (checked in trap.c). */
#define TF_GS 0
#define TF_EAX 44
#define TF_VECTOR 48
#define TF_EIP 56
#define TF_CS 60
#define TF_SIZE_KERNEL 68 /* without user_esp/user_ss, which only a ring change pushes */

#ifndef __ASSEMBLER__
#include <lib/types.h>

struct trap_frame {
	/* Pushed by entry.S: data segments, then PUSHAL's eight registers. */
	uint32_t gs, fs, es, ds;
	uint32_t edi, esi, ebp, esp_pushal, ebx, edx, ecx, eax;
	/* Vector number and error code (0 where the CPU pushes none; a system call's number,
	 * Linux's orig_eax, for int 0x80). */
	uint32_t vector, error_code;
	/* Pushed by the CPU. */
	uint32_t eip, cs, eflags;
	/* Only present when the trap came from ring 3. */
	uint32_t user_esp, user_ss;
};
#endif

#endif /* CONFIG_64BIT */
#endif
