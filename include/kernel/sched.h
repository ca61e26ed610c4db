/* Processes run concurrently (issue 17): a round-robin scheduler driven by a periodic timer,
 * sleep and wake-up, and the life of a process (fork, exec, exit, wait). kernel/sched.c and
 * kernel/proc.c implement it; include/arch/task.h is what each arch supplies. */
#ifndef RNDBITS_KERNEL_SCHED_H
#define RNDBITS_KERNEL_SCHED_H

#include <lib/types.h>

struct process;

#define HZ 100         /* timer ticks a second */
#define NPROC 128      /* processes at once, the shell included; fork beyond: -EAGAIN */

/* Ticks since the timer started. */
extern volatile uint64_t jiffies;

/* Give up the CPU: run the next runnable task (round robin), or, when none is, wait for an
 * interrupt (arch_idle) until one is. Returns when the caller runs again. */
void schedule(void);

/* The shell's wait for input: run another task if one is runnable, else wait for an interrupt
 * once (arch_idle). The caller stays runnable and loops. */
void sched_idle(void);

/* A new user task's first return to user mode (fork's child, `run`'s program): the arch calls
 * it on the task's own stack with the frame it is about to restore, so that a signal sent
 * before the task ever ran (a Ctrl-C typed ahead) acts before its first instruction. */
struct trap_frame;
void sched_first_return_to_user(struct trap_frame *f);

/* On the way back to user mode: schedule() if the tick ended the slice. */
void sched_preempt(void);

/* Called at every timer tick (interrupt context): wake sleepers whose time has come, and ask the
 * running user task to yield at its return to user mode when its time slice is over. */
void sched_tick(void);

/* Sleep on chan until sched_wakeup(chan). The interruptible form also returns early, with
 * -EINTR, when a signal is pending for the caller (signal_pending); 0 otherwise. A deadline in
 * jiffies (0: none) ends the sleep too. Callers re-check their condition in a loop. */
void sched_sleep(const void *chan);
int sched_sleep_interruptible(const void *chan, uint64_t deadline_jiffies);
void sched_wakeup(const void *chan);

/* Make p run again if it sleeps interruptibly (a signal was sent to it). */
void sched_wake_for_signal(struct process *p);

/* End the running process with a wait status (exit code << 8, or the terminating signal number
 * | 0x80 if it dumped core): close its files, free its address space, make it a zombie for its
 * parent's wait4, send the parent SIGCHLD, give its children to init (pid 1, the shell). */
__noreturn void process_exit(int wait_status);

/* The process with this pid (not a zombie), or NULL. */
struct process *process_find(int pid);

#endif
