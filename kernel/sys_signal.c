/* The signal system calls: rt_sigaction, rt_sigprocmask, sigaltstack in Linux's layouts,
 * rt_sigreturn and sigreturn (the arch reads the frame back, include/arch/signal.h),
 * rt_sigpending, rt_sigsuspend and rt_sigtimedwait. Delivery itself is kernel/signal.c's. */
#include <arch/signal.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>

#define SIG_DFL 0
#define SIG_IGN 1
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define KERNEL_SIGSET_SIZE 8 /* 64 signals */

static uint64_t sigbit(unsigned sig)
{
	return 1ull << (sig - 1);
}

/* struct sigaction as the kernel takes it: handler, flags, restorer (longs of the task's
 * width), then the 64-bit mask. */
static long get_sigaction(const struct syscall_args *a, uint64_t uaddr, struct sys_sigaction *k)
{
	if (sys_word_size(a) == 8) {
		uint64_t v[4];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		*k = (struct sys_sigaction){ v[0], v[1], v[2], v[3] };
		return 0;
	}
	uint32_t v[5];
	if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
		return -EFAULT;
	*k = (struct sys_sigaction){ v[0], v[1], v[2], v[3] | (uint64_t)v[4] << 32 };
	return 0;
}

static long put_sigaction(const struct syscall_args *a, uint64_t uaddr,
			  const struct sys_sigaction *k)
{
	if (sys_word_size(a) == 8) {
		uint64_t v[4] = { k->handler, k->flags, k->restorer, k->mask };
		return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
	}
	uint32_t v[5] = { (uint32_t)k->handler, (uint32_t)k->flags, (uint32_t)k->restorer,
			  (uint32_t)k->mask, (uint32_t)(k->mask >> 32) };
	return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
}

long sys_rt_sigaction(const struct syscall_args *a)
{
	unsigned sig = (unsigned)a->a[0];
	uint64_t act = a->a[1], oact = a->a[2];
	struct sys_sigaction k, old;

	if (a->a[3] != KERNEL_SIGSET_SIZE || sig < 1 || sig > SYS_NSIG)
		return -EINVAL;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	old = a->p->sys.act[sig - 1];
	if (act) {
		long err = get_sigaction(a, act, &k);
		if (err)
			return err;
		k.mask &= ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
		a->p->sys.act[sig - 1] = k;
		/* POSIX: setting a pending signal to be ignored discards it. */
		if (k.handler == SIG_IGN || (k.handler == SIG_DFL && (sigbit(sig) &
		    (sigbit(SIGCHLD) | sigbit(SIGCONT) | sigbit(SIGURG) | sigbit(SIGWINCH)))))
			a->p->sys.sigpending &= ~sigbit(sig);
	}
	return oact ? put_sigaction(a, oact, &old) : 0;
}

long sys_rt_sigprocmask(const struct syscall_args *a)
{
	unsigned how = (unsigned)a->a[0];
	uint64_t set = a->a[1], oset = a->a[2], old = a->p->sys.sigmask, mask;

	if (a->a[3] != KERNEL_SIGSET_SIZE)
		return -EINVAL;
	if (set) {
		if (copy_from_user(&a->p->mm, &mask, set, sizeof(mask)))
			return -EFAULT;
		mask &= ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
		switch (how) {
		case SIG_BLOCK: a->p->sys.sigmask |= mask; break;
		case SIG_UNBLOCK: a->p->sys.sigmask &= ~mask; break;
		case SIG_SETMASK: a->p->sys.sigmask = mask; break;
		default: return -EINVAL;
		}
	}
	if (oset && copy_to_user(&a->p->mm, oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* stack_t: ss_sp (pointer), ss_flags (int), ss_size (size_t), in the task's width. */
long sys_sigaltstack(const struct syscall_args *a)
{
	struct sys_state *s = &a->p->sys;
	uint64_t ss = a->a[0], oss = a->a[1];
	uint64_t sp = arch_signal_user_sp(a->frame, a->compat);
	uint64_t old_sp = s->ss_sp, old_size = s->ss_size;
	int old_flags = signal_altstack_flags(a->p, sp);
	bool wide = sys_word_size(a) == 8;

	if (ss) {
		uint8_t buf[24];
		struct signal_return r;
		if (copy_from_user(&a->p->mm, buf, ss, wide ? 24 : 12))
			return -EFAULT;
		signal_read_stack_t(buf, wide, &r);
		long err = signal_altstack_set(a->p, r.ss_sp, (uint32_t)r.ss_flags, r.ss_size, sp);
		if (err)
			return err;
	}
	if (!oss)
		return 0;
	if (wide) {
		uint64_t v[3] = { old_sp, (uint32_t)old_flags, old_size };
		return copy_to_user(&a->p->mm, oss, v, sizeof(v)) ? -EFAULT : 0;
	}
	uint32_t v[3] = { (uint32_t)old_sp, (uint32_t)old_flags, (uint32_t)old_size };
	return copy_to_user(&a->p->mm, oss, v, sizeof(v)) ? -EFAULT : 0;
}

/* Both returns: the arch restores the registers from the frame at the user sp; the mask comes
 * back from it (never blocking SIGKILL or SIGSTOP), and rt_sigreturn's uc_stack is applied as
 * sigaltstack would (its errors ignored, as Linux's restore_altstack does but for EFAULT).
 * A frame that cannot be read, or that asks for registers a user may not have, is Linux's
 * badframe: SIGSEGV. The return value is the restored return register. */
static long do_sigreturn(const struct syscall_args *a, bool rt)
{
	struct process *p = a->p;
	struct signal_return r = { 0 };

	if (arch_sigreturn(a->frame, a->compat, rt, &r)) {
		printk("%s[%d]: bad frame in %s: sp=%llx\n", p->name, p->pid,
		       rt ? "rt_sigreturn" : "sigreturn",
		       (unsigned long long)arch_signal_user_sp(a->frame, a->compat));
		signal_force_fault(SIGSEGV, SI_KERNEL, 0);
		return 0;
	}
	p->sys.sigreturned = true;
	p->sys.sigmask = r.mask & ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
	if (rt && r.ss_valid)
		(void)signal_altstack_set(p, r.ss_sp, (uint32_t)r.ss_flags, r.ss_size,
					  arch_signal_user_sp(a->frame, a->compat));
	return r.ret;
}

long sys_rt_sigreturn(const struct syscall_args *a)
{
	return do_sigreturn(a, true);
}

long sys_sigreturn(const struct syscall_args *a)
{
	return do_sigreturn(a, false);
}

/* The pending signals the caller blocks (Linux: pending & blocked). */
long sys_rt_sigpending(const struct syscall_args *a)
{
	uint64_t set = a->p->sys.sigpending & a->p->sys.sigmask;

	if (a->a[1] > KERNEL_SIGSET_SIZE)
		return -EINVAL;
	return copy_to_user(&a->p->mm, a->a[0], &set, (size_t)a->a[1]) ? -EFAULT : 0;
}

/* Wait with the given mask until a signal is taken; the old mask returns with the handler's
 * frame (kernel/signal.c). -ERESTARTNOHAND: -EINTR once a handler runs, the wait goes on when
 * the signal was ignored. */
long sys_rt_sigsuspend(const struct syscall_args *a)
{
	struct process *p = a->p;
	uint64_t mask;

	if (a->a[1] != KERNEL_SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&p->mm, &mask, a->a[0], sizeof(mask)))
		return -EFAULT;
	p->sys.saved_sigmask = p->sys.sigmask;
	p->sys.restore_sigmask = true;
	p->sys.sigmask = mask & ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
	while (!signal_pending(p))
		if (sched_sleep_interruptible(&p->sys.sigpending, 0) == -EINTR)
			break;
	return -ERESTARTNOHAND;
}

#define SIGINFO_SIZE 128

/* rt_sigtimedwait(set, info, timeout, sigsetsize) as Linux 6.1's do_sigtimedwait: a pending
 * signal of set (SIGKILL and SIGSTOP never: they cannot be waited for) is taken out of the
 * pending set, blocked or not, without running its handler, and its number returned with its
 * siginfo (128 bytes in the task's layout) at info when info is not NULL. With none pending the
 * caller sleeps with set unblocked until one comes (its number), the timeout passes (-EAGAIN;
 * a zero timeout does not sleep; none waits for ever), or another signal it does not block
 * arrives (-EINTR, never restarted: its handler runs). The blocked mask is the same
 * afterwards. */
static long do_sigtimedwait(const struct syscall_args *a, bool time64)
{
	struct process *p = a->p;
	uint64_t set, ns = 0;
	bool forever = a->a[2] == 0;
	struct signal_info info;

	if (a->a[3] != KERNEL_SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&p->mm, &set, a->a[0], sizeof(set)))
		return -EFAULT;
	if (!forever) {
		long err = get_timespec_ns(a, a->a[2], time64, &ns);
		if (err)
			return err;
	}
	set &= ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
	int sig = signal_dequeue(p, set, &info);
	bool interrupted = false;
	if (!sig && (forever || ns)) {
		/* Timed on the counter the user's clocks read, so that they see it all pass. */
		uint64_t blocked = p->sys.sigmask, now = time_now_ns();
		uint64_t end = now + ns < now ? UINT64_MAX : now + ns;
		p->sys.sigmask &= ~set;
		while (!signal_pending(p) && (forever || time_now_ns() < end))
			sched_sleep_interruptible(&p->sys.sigpending,
						  forever ? 0 : time_jiffy_after(end));
		interrupted = signal_pending(p);
		p->sys.sigmask = blocked;
		sig = signal_dequeue(p, set, &info);
	}
	if (!sig)
		return interrupted ? -EINTR : -EAGAIN;
	if (a->a[1]) {
		uint8_t out[SIGINFO_SIZE];
		signal_fill_siginfo(out, &info, sys_word_size(a) == 8);
		if (copy_to_user(&p->mm, a->a[1], out, sizeof(out)))
			return -EFAULT;
	}
	return sig;
}

long sys_rt_sigtimedwait(const struct syscall_args *a)
{
	return do_sigtimedwait(a, false);
}

long sys_rt_sigtimedwait_time64(const struct syscall_args *a)
{
	return do_sigtimedwait(a, true);
}
