/* Arch interface: signal frames (issue 17). kernel/signal.c decides which signal a process takes
 * and what its mask becomes; the arch writes and reads the frame a handler runs on, in Linux
 * 6.1's layout for the task's ABI (arch/arm64/signal.c and signal32.c, arch/arm/signal.c,
 * arch/x86/64/signal.c, arch/x86/signal_ia32.c for i386 and ia32 compat), so that libc's
 * sa_restorer, the vDSO's and the [sigpage]'s trampolines return through rt_sigreturn or
 * sigreturn. docs/signals.md describes each frame. */
#ifndef RNDBITS_ARCH_SIGNAL_H
#define RNDBITS_ARCH_SIGNAL_H

#include <lib/types.h>

struct trap_frame;
struct mm;

/* Linux's sa_flags bits (the same on every ABI rndbits serves). */
#define SA_SIGINFO 0x00000004u
#define SA_RESTORER 0x04000000u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u

/* What siginfo carries for the signals rndbits sends: the sender (kill, tgkill) or the fault
 * address (si_addr), and si_code. */
struct signal_info {
	int signo;
	int code;        /* SI_USER, SI_TKILL, SI_KERNEL, SEGV_MAPERR, ... */
	int pid;         /* the sender's (SI_USER, SI_TKILL) */
	unsigned uid;
	uint64_t addr;   /* si_addr (faults) */
	bool fault;      /* from a trap: si_addr, not si_pid, and the fault records below */
	uint64_t syndrome; /* arm64's ESR for the esr_context record; x86's error code */
	unsigned trapno;   /* x86's trap number, ARM's trap_no */
};

/* Everything one delivery needs: the signal, the handler (sa_handler, sa_flags, sa_restorer),
 * the mask to restore at sigreturn, and the alternate stack as it stands. */
struct signal_delivery {
	struct signal_info info;
	uint64_t handler, flags, restorer;
	uint64_t oldmask;
	uint64_t ss_sp, ss_size; /* sigaltstack: ss_size 0 is none */
	int ss_flags;            /* SS_AUTODISARM recorded */
	bool on_altstack;        /* SA_ONSTACK applies: the frame goes at ss_sp + ss_size */
};

/* Write the handler's frame on the user stack of the task whose saved registers are *f (a
 * 32-bit compat task when compat), set *f to enter the handler, with the return address of the
 * restorer. 0, or -EFAULT when the frame cannot be written (the caller then forces SIGSEGV). */
int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d);

/* rt_sigreturn (rt) or sigreturn: read the frame at the user sp of *f, restore every register
 * (FP/SIMD too) and give back the mask saved in it and the alternate stack (uc_stack, rt only:
 * *ss_valid). *ret is the value the system call returns: the restored return register, so
 * that writing it back changes nothing. 0, or -EFAULT for a frame that cannot be read or
 * whose registers a user may not have (Linux's badframe: SIGSEGV). */
struct signal_return {
	uint64_t mask;
	long ret;
	bool ss_valid;
	uint64_t ss_sp, ss_size;
	int ss_flags;
};
int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *r);

/* The user stack pointer in *f (sigaltstack's "on the stack" test). */
uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat);

/* Generic helpers the arch frames use (kernel/signal.c). */
/* The address of a dynamic symbol of the vDSO image (start) as mapped in mm (0: not mapped or
 * no such symbol). */
uint64_t signal_vdso_symbol(const struct mm *mm, const uint8_t *image, const char *name);
/* The start of the VMA named name ("[sigpage]"), 0 if none. */
uint64_t signal_special_mapping(const struct mm *mm, const char *name);
/* siginfo in Linux's layout: 128 bytes, the union at 16 (64-bit) or 12 (32-bit ABIs). */
void signal_fill_siginfo(uint8_t out[128], const struct signal_info *info, bool wide);
/* stack_t for uc_stack (ss_sp, ss_flags, ss_size in longs of the task's width; 24 or 12
 * bytes) as __save_altstack writes it, given the sp the signal interrupted. */
size_t signal_fill_stack_t(uint8_t *out, const struct signal_delivery *d, uint64_t sp,
			   bool wide);
/* Read a stack_t back (rt_sigreturn's restore_altstack). */
void signal_read_stack_t(const uint8_t *in, bool wide, struct signal_return *r);

#endif
