/* Signals (issue 17): sending, Linux's default actions, and delivery to user handlers with each
 * ABI's signal frame (kernel/signal.c; the frames in arch/<isa>/signal*.c). */
#ifndef RNDBITS_KERNEL_SIGNAL_H
#define RNDBITS_KERNEL_SIGNAL_H

#include <lib/types.h>

struct process;
struct trap_frame;

/* Linux's signal numbers (the same on every ABI rndbits serves). */
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGWINCH 28
#define SIGSYS 31

/* si_code values (Linux's asm-generic/siginfo.h). */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_TKILL (-6)
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRALN 1
#define ILL_ILLOPC 1
#define TRAP_BRKPT 1
#define FPE_INTDIV 1

/* Kernel-internal results of an interrupted system call (never seen by user mode): what becomes
 * of the call depends on the signal that interrupted it (signal_deliver). Linux's values. */
#define ERESTARTSYS 512           /* restart if the handler has SA_RESTART, else -EINTR */
#define ERESTARTNOINTR 513        /* always restart */
#define ERESTARTNOHAND 514        /* restart only if no handler runs, else -EINTR */

struct signal_info; /* include/arch/signal.h */

/* Make sig pending for p (from kill, the console's Ctrl-C, a child's exit, a broken pipe) and
 * wake p if it sleeps interruptibly. An ignored signal is dropped here. */
void signal_send(struct process *p, int sig);
/* The same with the sender's siginfo (kill: SI_USER, tgkill: SI_TKILL, with pid and uid). */
void signal_send_info(struct process *p, const struct signal_info *info);

/* A fault the running process caused: delivered to its handler if it has one and the signal is
 * not blocked, else the default action (kill; core dump flag for SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP). code and addr fill siginfo's si_code and si_addr. */
void signal_force_fault(int sig, int code, uintptr_t addr);
/* The same with the trap's records for the frame (arm64's ESR, x86's error code and vector). */
void signal_force_fault_info(const struct signal_info *info);

/* Would a fault signal sig reach a handler of the running process? (The arch's report of an
 * unhandled fault is printed only when it would not: Linux's unhandled_signal().) */
bool signal_handled(int sig);

/* After every system call (kernel/syscall.c): remember an -ERESTART* result for the return to
 * user mode, where signal_deliver turns it into -EINTR or rewinds the call
 * (arch_syscall_restart), as Linux's do_signal does. */
void signal_syscall_returned(struct process *p, long ret);

/* Has the running process a pending signal it does not block? (Interruptible sleeps end.) */
bool signal_pending(const struct process *p);

/* Take the first of p's pending signals in set out of the pending set (a fault's first, then
 * the lowest number, as delivery picks them), its siginfo into *info: its number, or 0 when
 * none of set is pending (rt_sigtimedwait). */
int signal_dequeue(struct process *p, uint64_t set, struct signal_info *info);

/* On the way back to user mode: act on the running process's pending, unblocked signals, one
 * at a time: take the default action, or set up the handler's frame in *f. */
void signal_deliver(struct trap_frame *f);

/* sigaltstack (kernel/sys_signal.c, rt_sigreturn's uc_stack): set the alternate stack unless
 * sp (the user's) is on it (-EPERM); -EINVAL, -ENOMEM as Linux. And the flags sigaltstack
 * reports for it (SS_ONSTACK, SS_DISABLE, or the recorded SS_AUTODISARM). */
long signal_altstack_set(struct process *p, uint64_t ss_sp, uint32_t flags, uint64_t size,
			 uint64_t sp);
int signal_altstack_flags(const struct process *p, uint64_t sp);

/* "SIGSEGV" for 11, "signal" for a number it does not know. */
const char *signal_name(int sig);

#endif
