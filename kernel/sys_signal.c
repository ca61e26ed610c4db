/* Signals, accepted and recorded: rt_sigaction, rt_sigprocmask and sigaltstack keep what the
 * program asks and give back the old values in Linux's layouts, so libc start-up and
 * programs that install handlers go on. No handler ever runs: a fault or kill takes the
 * default action (kernel/proc.c, kernel/sys_proc.c). */
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>

#define SIGKILL 9
#define SIGSTOP 19
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ 2048
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
	uint64_t old_sp = s->ss_sp, old_size = s->ss_size;
	int old_flags = s->ss_size ? s->ss_flags : SS_DISABLE;

	if (ss) {
		uint64_t sp, size;
		uint32_t flags;
		if (sys_word_size(a) == 8) {
			uint64_t v[3];
			if (copy_from_user(&a->p->mm, v, ss, sizeof(v)))
				return -EFAULT;
			sp = v[0], flags = (uint32_t)v[1], size = v[2];
		} else {
			uint32_t v[3];
			if (copy_from_user(&a->p->mm, v, ss, sizeof(v)))
				return -EFAULT;
			sp = v[0], flags = v[1], size = v[2];
		}
		unsigned mode = flags & ~SS_AUTODISARM;
		if (mode != 0 && mode != SS_DISABLE && mode != SS_ONSTACK)
			return -EINVAL;
		if (mode == SS_DISABLE) {
			sp = size = 0;
		} else if (size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		s->ss_sp = sp;
		s->ss_size = size;
		s->ss_flags = (int)(flags & SS_AUTODISARM);
	}
	if (!oss)
		return 0;
	if (sys_word_size(a) == 8) {
		uint64_t v[3] = { old_sp, (uint32_t)old_flags, old_size };
		return copy_to_user(&a->p->mm, oss, v, sizeof(v)) ? -EFAULT : 0;
	}
	uint32_t v[3] = { (uint32_t)old_sp, (uint32_t)old_flags, (uint32_t)old_size };
	return copy_to_user(&a->p->mm, oss, v, sizeof(v)) ? -EFAULT : 0;
}
