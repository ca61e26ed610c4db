/* The i386 signal frames, one format for i386 tasks on the i386 kernel and ia32 tasks on
 * x86_64 (Linux 6.1's arch/x86/kernel/signal_32.c serves both): arch/x86/signal_ia32.c writes
 * and reads them over struct ia32_regs; each kernel's glue (arch/x86/32/signal.c,
 * arch/x86/64/signal.c) moves its trap frame in and out and checks the selectors. */
#ifndef RNDBITS_ASM_X86_SIGNAL_IA32_H
#define RNDBITS_ASM_X86_SIGNAL_IA32_H

#include <lib/types.h>

struct signal_delivery;
struct signal_return;

struct ia32_regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp, eip, eflags;
	uint32_t cs, ss, ds, es, fs, gs;
};

/* Linux's FIX_EFLAGS: the flags a sigreturn may change (AC OF DF TF SF ZF AF PF CF RF). */
#define X86_FIX_EFLAGS 0x50dd5u
#define X86_EFLAGS_TF (1u << 8)
#define X86_EFLAGS_DF (1u << 10)
#define X86_EFLAGS_RF (1u << 16)

/* Write the frame (rt: SA_SIGINFO) below r->esp, a fault's trapno, err and cr2 in its
 * sigcontext, and point r at the handler. vdso: the image whose __kernel_sigreturn and
 * __kernel_rt_sigreturn are the default restorers where the task has it mapped. cs, ds (and
 * ss): the user selectors the handler starts with. 0 or -EFAULT. */
int ia32_setup_frame(struct ia32_regs *r, const struct signal_delivery *d, const uint8_t *vdso,
		     uint32_t cs, uint32_t ds);
/* Read the frame back at r->esp (sigreturn: the restorer popped pretcode and sig; rt: only
 * pretcode) into r (eflags merged through X86_FIX_EFLAGS, selectors as saved, RPL 3) and the
 * FPU. 0 or -EFAULT. */
int ia32_restore_frame(struct ia32_regs *r, bool rt, struct signal_return *out);

/* The FPU state in a signal frame: FXSAVE's 512 bytes (fxsave64 on x86_64), with Linux's
 * software bytes (FP_XSTATE_MAGIC1) at 464. false when the CPU or kernel has no FXSR: then
 * the frame carries no FPU state (fpstate NULL). extra: the bytes of frames around it that
 * extended_size counts (the ia32 fsave header). */
bool x86_fpu_save_sigframe(uint8_t fx[512], unsigned extra);
/* Load it back, MXCSR's reserved bits cleared (they would fault). */
void x86_fpu_restore_sigframe(const uint8_t fx[512]);
/* No FPU state in the frame (fpstate NULL): the reset state, as fpu__clear_user_states. */
void x86_fpu_reset_sigframe(void);

#endif
