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
#define SIGWINCH 28

/* Make sig pending for p (from kill, the console's Ctrl-C, a child's exit, a broken pipe) and
 * wake p if it sleeps interruptibly. An ignored signal is dropped here. */
void signal_send(struct process *p, int sig);

/* A fault the running process caused: delivered to its handler if it has one and the signal is
 * not blocked, else the default action (kill; core dump flag for SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP). code and addr fill siginfo's si_code and si_addr. */
void signal_force_fault(int sig, int code, uintptr_t addr);

/* Has the running process a pending signal it does not block? (Interruptible sleeps end.) */
bool signal_pending(const struct process *p);

/* On the way back to user mode: act on the running process's pending, unblocked signals, one
 * at a time: take the default action, or set up the handler's frame in *f. */
void signal_deliver(struct trap_frame *f);

/* "SIGSEGV" for 11, "signal" for a number it does not know. */
const char *signal_name(int sig);

#endif
