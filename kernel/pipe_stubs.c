/* Temporary: until the scheduler (h-sched) and signals (h-signal) are merged, the calls pipes
 * need, as weak stand-ins for the one-process model. Nobody else can run, so a sleep would never
 * end: it ends at once as if interrupted. A signal is acted on only when its default action
 * ends the process (SIGPIPE with no handler and not ignored); otherwise it is dropped.
 * Deleted when the real ones land. */
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <lib/errno.h>

__attribute__((weak)) int sched_sleep_interruptible(const void *chan, uint64_t deadline_jiffies)
{
	(void)chan;
	(void)deadline_jiffies;
	return -EINTR;
}

__attribute__((weak)) void sched_wakeup(const void *chan)
{
	(void)chan;
}

__attribute__((weak)) void signal_send(struct process *p, int sig)
{
	if (p != current_process() || sig < 1 || sig > SYS_NSIG)
		return;
	if (p->sys.act[sig - 1].handler == 0) /* SIG_DFL: terminate */
		process_exit(sig);
}
