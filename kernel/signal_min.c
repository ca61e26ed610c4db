/* A stand-in for kernel/signal.c (branch h-signal) until it is merged: sending, pending, and
 * Linux's default actions only. A handler a program installed is not run: its signal takes the
 * default action, as before issue 17. Deleted when h-signal lands. */
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>

#define SIG_IGN 1
#define SIGURG 23
#define SIG_BIT(sig) (1ull << ((sig) - 1))
#define UNBLOCKABLE (SIG_BIT(SIGKILL) | SIG_BIT(SIGSTOP))

static bool ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

void signal_send(struct process *p, int sig)
{
	if (!p || p->kernel || sig < 1 || sig > 64 || p->state == PROC_ZOMBIE)
		return;
	if (sig != SIGKILL && (p->sys.act[sig - 1].handler == SIG_IGN ||
			       (p->sys.act[sig - 1].handler == 0 && ignored_by_default(sig))))
		return;
	p->sig_pending |= SIG_BIT(sig);
	sched_wake_for_signal(p);
}

bool signal_pending(const struct process *p)
{
	return (p->sig_pending & (~p->sys.sigmask | UNBLOCKABLE)) != 0;
}

void signal_deliver(struct trap_frame *f)
{
	struct process *p = current_process();
	(void)f;

	if (!p || !signal_pending(p))
		return;
	uint64_t deliverable = p->sig_pending & (~p->sys.sigmask | UNBLOCKABLE);
	int sig = __builtin_ctzll(deliverable) + 1;

	p->sig_pending &= ~SIG_BIT(sig);
	process_exit(sig); /* every signal that gets here terminates; no core file is written */
}

const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",   [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL",   [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",   [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
		[SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",
		[SIGTSTP] = "SIGTSTP", [SIGWINCH] = "SIGWINCH",
	};

	if (sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig])
		return names[sig];
	return "signal";
}
