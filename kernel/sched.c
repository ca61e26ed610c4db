/* The scheduler (issue 17): round robin over the process table, one CPU, a kernel that is not
 * preemptible. A task gives up the CPU only by calling schedule(): when it sleeps, exits, or on
 * its way back to user mode after the tick said its slice is over (sched_preempt). When nothing
 * can run, schedule() waits in arch_idle() on the caller's stack; interrupts are taken only there
 * and in user mode, and their handlers never switch. */
#include <arch/cpu.h>
#include <arch/mmu.h>
#include <arch/task.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <lib/errno.h>

volatile uint64_t jiffies;
static bool need_resched;

/* The next runnable task after prev in table order, prev itself last; NULL if none. */
static struct process *pick_next(struct process *prev)
{
	unsigned start = prev->slot;

	for (unsigned i = 1; i <= NPROC; i++) {
		struct process *p = proc_slot((start + i) % NPROC);
		if (p->state == PROC_RUNNABLE)
			return p;
	}
	return NULL;
}

void schedule(void)
{
	struct process *prev = current_proc, *next;

	while (!(next = pick_next(prev)))
		arch_idle();
	need_resched = false;
	if (next == prev)
		return;
	current_proc = next;
	arch_switch_user_root(next->kernel ? 0 : next->mm.root, next->mm.asid);
	arch_switch_to(&prev->task, &next->task);
}

void sched_idle(void)
{
	struct process *next = pick_next(current_proc);

	if (next && next != current_proc)
		schedule();
	else
		arch_idle();
}

void sched_preempt(void)
{
	if (need_resched)
		schedule();
}

void sched_first_return_to_user(struct trap_frame *f)
{
	signal_deliver(f);
}

void sched_tick(void)
{
	jiffies++;
	for (unsigned i = 0; i < NPROC; i++) {
		struct process *p = proc_slot(i);
		if (p->state == PROC_SLEEPING && p->wake_at && jiffies >= p->wake_at)
			p->state = PROC_RUNNABLE;
	}
	need_resched = true; /* a slice is one tick; schedule() keeps the task if it is alone */
}

static int sleep_on(const void *chan, uint64_t deadline, bool interruptible)
{
	struct process *p = current_proc;

	if (interruptible && signal_pending(p))
		return -EINTR;
	if (deadline && jiffies >= deadline)
		return 0;
	p->wait_chan = chan;
	p->wake_at = deadline;
	p->interruptible = interruptible;
	p->state = PROC_SLEEPING;
	schedule();
	p->wait_chan = NULL;
	p->wake_at = 0;
	return interruptible && signal_pending(p) ? -EINTR : 0;
}

void sched_sleep(const void *chan)
{
	sleep_on(chan, 0, false);
}

int sched_sleep_interruptible(const void *chan, uint64_t deadline_jiffies)
{
	return sleep_on(chan, deadline_jiffies, true);
}

void sched_wakeup(const void *chan)
{
	for (unsigned i = 0; i < NPROC; i++) {
		struct process *p = proc_slot(i);
		if (p->state == PROC_SLEEPING && p->wait_chan == chan)
			p->state = PROC_RUNNABLE;
	}
}

void sched_wake_for_signal(struct process *p)
{
	if (p->state == PROC_SLEEPING && p->interruptible)
		p->state = PROC_RUNNABLE;
}
