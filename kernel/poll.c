/* poll, ppoll, select and pselect6 as Linux 6.1's fs/select.c behaves for a program: wait until
 * one of a set of descriptors is ready, the timeout passes, or a signal arrives.
 *
 * - Readiness is each open file's answer (file_ready): a pipe end's own (kernel/pipe.c); the
 *   console, /dev/null and the namespace's files never make a reader or writer wait (the
 *   console's input reads end of file at once), so they are always ready, as Linux's
 *   DEFAULT_POLLMASK.
 * - The wait is one scan of the descriptors, then a sleep on poll_chan, which every change of
 *   a file's readiness wakes (poll_notify), a signal, or the timeout's tick ends; then a new
 *   scan. The timeout is measured on the counter the clocks read (time_now_ns), in sleeps of
 *   whole ticks: never shorter than asked, up to a tick longer.
 * - A signal ends the wait with -ERESTARTNOHAND: -EINTR once a handler runs, SA_RESTART or
 *   not; the call starts again with its arguments when no handler runs. (Linux's poll returns
 *   -ERESTART_RESTARTBLOCK, which keeps its end time, where this poll would start its whole
 *   timeout again; but no signal that runs no handler can end a wait here part way: ignored
 *   ones are dropped when sent, stop signals are ignored without job control, and a pending
 *   one that ppoll's or pselect6's mask lets in ends the wait before it has waited.)
 * - ppoll and pselect6 install their signal mask for the wait as rt_sigsuspend does: a handler
 *   the wait ends with runs under it, and its frame restores the caller's.
 * - select, pselect6 and ppoll write the time left back into the caller's timeout (not poll,
 *   which takes milliseconds by value); a timeout that cannot be written is left alone.
 * - select's sets are bitmaps of the task's longs (32-bit words for a compat task; the same
 *   bytes on these little-endian ISAs), taken up to n, n capped at the kernel's long bits as
 *   Linux caps it at its descriptor table's size. */
#include <kernel/fd.h>
#include <kernel/kernel.h>
#include <kernel/poll.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define NSEC_PER_SEC 1000000000ull
#define RLIMIT_NOFILE 7
#define KERNEL_SIGSET_SIZE 8
#define SELECT_MAX_FDS (8 * sizeof(long)) /* Linux's first descriptor table: BITS_PER_LONG */

/* What select's three sets look for (Linux's POLLIN_SET, POLLOUT_SET, POLLEX_SET). */
#define SELECT_IN (POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SELECT_OUT (POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SELECT_EX POLLPRI

static const char poll_chan;

void poll_notify(void)
{
	sched_wakeup(&poll_chan);
}

static unsigned file_ready(const struct file *f)
{
	if (f->kind == FILE_SPECIAL && f->ops->poll)
		return f->ops->poll(f);
	return POLL_ALWAYS_READY;
}

/* ---- Timeouts ---- */

struct timeout {
	bool set;    /* false: wait for as long as it takes */
	uint64_t ns; /* as asked */
	uint64_t end; /* time_now_ns() when it is over */
};

static void timeout_start(struct timeout *t, uint64_t ns)
{
	uint64_t now = time_now_ns();

	t->set = true;
	t->ns = ns;
	t->end = now + ns < now ? UINT64_MAX : now + ns;
}

static bool timeout_over(const struct timeout *t)
{
	return t->set && time_now_ns() >= t->end;
}

static uint64_t timeout_left_ns(const struct timeout *t)
{
	uint64_t now = time_now_ns();

	return t->end > now ? t->end - now : 0;
}

/* The jiffy by which the timeout is over (a tick late at most), for the sleep; 0: none. */
static uint64_t timeout_deadline(const struct timeout *t)
{
	return t->set ? time_jiffy_after(t->end) : 0;
}

/* The two fields of a timespec or timeval: longs of the task's width, or 64-bit fields. */
static long get_pair(const struct syscall_args *a, uint64_t uaddr, unsigned w, int64_t *x,
		     int64_t *y)
{
	if (w == 8) {
		int64_t v[2];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		*x = v[0], *y = v[1];
		return 0;
	}
	int32_t v[2];
	if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
		return -EFAULT;
	*x = v[0], *y = v[1];
	return 0;
}

enum time_kind { TIMESPEC, TIMESPEC64, TIMEVAL };

static unsigned time_width(const struct syscall_args *a, enum time_kind k)
{
	return k == TIMESPEC64 ? 8 : sys_word_size(a);
}

/* Start t from the user's timeout at uaddr (NULL: none): -EFAULT, or -EINVAL for a negative
 * or unnormalized timespec (a timeval's microseconds may exceed a second, not go below 0). */
static long timeout_get(const struct syscall_args *a, uint64_t uaddr, enum time_kind k,
			struct timeout *t)
{
	int64_t sec, frac;

	t->set = false;
	if (!uaddr)
		return 0;
	if (get_pair(a, uaddr, time_width(a, k), &sec, &frac))
		return -EFAULT;
	if (k == TIMEVAL) {
		sec += frac / 1000000;
		frac = frac % 1000000 * 1000;
	}
	if (sec < 0 || frac < 0 || frac >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	uint64_t ns = (uint64_t)sec > UINT64_MAX / NSEC_PER_SEC - 1
			      ? UINT64_MAX : (uint64_t)sec * NSEC_PER_SEC + (uint64_t)frac;
	timeout_start(t, ns);
	return 0;
}

/* Write the time left into the user's timeout (Linux's poll_select_finish). One that cannot be
 * written stays as it was, and then an interrupted call cannot restart: -EINTR. */
static long timeout_put(const struct syscall_args *a, uint64_t uaddr, enum time_kind k,
			const struct timeout *t, long ret)
{
	if (!uaddr || !t->set || t->ns == 0)
		return ret;
	uint64_t left = timeout_left_ns(t);
	int64_t sec = (int64_t)(left / NSEC_PER_SEC), frac = (int64_t)(left % NSEC_PER_SEC);
	if (k == TIMEVAL)
		frac /= 1000;
	int fault;
	if (time_width(a, k) == 8) {
		int64_t v[2] = { sec, frac };
		fault = copy_to_user(&a->p->mm, uaddr, v, sizeof(v));
	} else {
		int32_t v[2] = { (int32_t)sec, (int32_t)frac };
		fault = copy_to_user(&a->p->mm, uaddr, v, sizeof(v));
	}
	return fault && ret == -ERESTARTNOHAND ? -EINTR : ret;
}

/* ---- Signal masks (ppoll, pselect6) ---- */

/* Install the user's mask at umask (NULL: keep the mask) for the wait, as rt_sigsuspend. */
static long sigmask_set(struct process *p, uint64_t umask, uint64_t size)
{
	uint64_t mask;

	if (!umask)
		return 0;
	if (size != KERNEL_SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&p->mm, &mask, umask, sizeof(mask)))
		return -EFAULT;
	p->sys.saved_sigmask = p->sys.sigmask;
	p->sys.restore_sigmask = true;
	p->sys.sigmask = mask & ~(1ull << (SIGKILL - 1) | 1ull << (SIGSTOP - 1));
	return 0;
}

/* The caller's mask back now, unless a signal ended the wait: then the handler runs under the
 * wait's mask and its frame holds the caller's (kernel/signal.c). */
static long sigmask_finish(struct process *p, long ret)
{
	if (p->sys.restore_sigmask && ret != -ERESTARTNOHAND) {
		p->sys.sigmask = p->sys.saved_sigmask;
		p->sys.restore_sigmask = false;
	}
	return ret;
}

/* ---- The wait ---- */

/* One look at every descriptor of a call: how many are ready (> 0), or -errno. */
typedef long (*scan_fn)(const struct syscall_args *a, void *ctx);

/* Scan until something is ready, the timeout passes (0) or a signal is pending. */
static long wait_ready(const struct syscall_args *a, scan_fn scan, void *ctx,
		       const struct timeout *t)
{
	for (;;) {
		long n = scan(a, ctx);
		if (n)
			return n;
		if (timeout_over(t))
			return 0;
		if (signal_pending(a->p))
			return -ERESTARTNOHAND;
		sched_sleep_interruptible(&poll_chan, timeout_deadline(t));
	}
}

/* ---- poll, ppoll ---- */

struct pollfd_array {
	uint64_t ufds;
	unsigned nfds;
};

/* struct pollfd { int fd; short events, revents; }: 8 bytes on every ABI. */
static long scan_pollfds(const struct syscall_args *a, void *ctx)
{
	const struct pollfd_array *pa = ctx;
	long ready = 0;

	for (unsigned i = 0; i < pa->nfds; i++) {
		struct { int32_t fd; uint16_t events, revents; } pfd;
		uint64_t u = pa->ufds + 8ull * i;
		if (copy_from_user(&a->p->mm, &pfd, u, sizeof(pfd)))
			return -EFAULT;
		pfd.revents = 0;
		if (pfd.fd >= 0) {
			struct file *f = fd_get(&a->p->files, pfd.fd);
			pfd.revents = f ? file_ready(f) & (pfd.events | POLLERR | POLLHUP) : POLLNVAL;
		}
		if (pfd.revents)
			ready++;
		if (copy_to_user(&a->p->mm, u + 6, &pfd.revents, sizeof(pfd.revents)))
			return -EFAULT;
	}
	return ready;
}

/* RLIMIT_NOFILE's soft limit (kernel/sys_proc.c: FD_MAX until setrlimit lowers it). */
static uint64_t nofile_limit(const struct process *p)
{
	return p->sys.rlimit_set[RLIMIT_NOFILE] ? p->sys.rlim[RLIMIT_NOFILE].cur : FD_MAX;
}

static long do_poll(const struct syscall_args *a, const struct timeout *t)
{
	struct pollfd_array pa = { a->a[0], (unsigned)a->a[1] };

	if (pa.nfds > nofile_limit(a->p))
		return -EINVAL;
	return wait_ready(a, scan_pollfds, &pa, t);
}

long sys_poll(const struct syscall_args *a)
{
	int ms = (int)a->a[2];
	struct timeout t = { .set = false };

	if (ms >= 0)
		timeout_start(&t, (uint64_t)ms * 1000000);
	return do_poll(a, &t);
}

static long ppoll_common(const struct syscall_args *a, enum time_kind k)
{
	struct timeout t;
	long ret = timeout_get(a, a->a[2], k, &t);

	if (ret)
		return ret;
	ret = sigmask_set(a->p, a->a[3], a->a[4]);
	if (ret)
		return ret;
	ret = sigmask_finish(a->p, do_poll(a, &t));
	return timeout_put(a, a->a[2], k, &t, ret);
}

long sys_ppoll(const struct syscall_args *a)
{
	return ppoll_common(a, TIMESPEC);
}

long sys_ppoll_time64(const struct syscall_args *a)
{
	return ppoll_common(a, TIMESPEC64);
}

/* ---- select, pselect6 ---- */

struct fd_sets {
	unsigned n;
	uint64_t in, out, ex;          /* asked: bit fd */
	uint64_t res_in, res_out, res_ex;
};

static long scan_sets(const struct syscall_args *a, void *ctx)
{
	struct fd_sets *s = ctx;
	long ready = 0;

	s->res_in = s->res_out = s->res_ex = 0;
	for (unsigned fd = 0; fd < s->n; fd++) {
		uint64_t bit = 1ull << fd;
		if (!((s->in | s->out | s->ex) & bit))
			continue;
		struct file *f = fd_get(&a->p->files, fd);
		unsigned mask = f ? file_ready(f) : 0;
		if ((s->in & bit) && (mask & SELECT_IN))
			s->res_in |= bit, ready++;
		if ((s->out & bit) && (mask & SELECT_OUT))
			s->res_out |= bit, ready++;
		if ((s->ex & bit) && (mask & SELECT_EX))
			s->res_ex |= bit, ready++;
	}
	return ready;
}

/* The bytes of a set of n descriptors: whole longs of the task's width. */
static size_t set_bytes(const struct syscall_args *a, unsigned n)
{
	unsigned w = sys_word_size(a);

	return (n + 8 * w - 1) / (8 * w) * w;
}

static long get_set(const struct syscall_args *a, uint64_t uaddr, unsigned n, uint64_t *set)
{
	*set = 0;
	if (uaddr && copy_from_user(&a->p->mm, set, uaddr, set_bytes(a, n)))
		return -EFAULT;
	if (n < 64)
		*set &= (1ull << n) - 1;
	return 0;
}

static long put_set(const struct syscall_args *a, uint64_t uaddr, unsigned n, uint64_t set)
{
	return uaddr && copy_to_user(&a->p->mm, uaddr, &set, set_bytes(a, n)) ? -EFAULT : 0;
}

/* Linux's core_sys_select: the sets in, -EBADF for a descriptor in them that is not open, the
 * wait, the ready sets out (not when a signal ended it). */
static long do_select(const struct syscall_args *a, long n, const uint64_t u[3],
		      const struct timeout *t)
{
	struct fd_sets s = { 0 };

	if (n < 0)
		return -EINVAL;
	s.n = (unsigned)MIN((unsigned long)n, SELECT_MAX_FDS);
	if (get_set(a, u[0], s.n, &s.in) || get_set(a, u[1], s.n, &s.out) ||
	    get_set(a, u[2], s.n, &s.ex))
		return -EFAULT;
	for (unsigned fd = 0; fd < s.n; fd++)
		if (((s.in | s.out | s.ex) >> fd & 1) && !fd_get(&a->p->files, fd))
			return -EBADF;
	long ret = wait_ready(a, scan_sets, &s, t);
	if (ret == 0 && signal_pending(a->p))
		ret = -ERESTARTNOHAND; /* select looks at signals even when its time is up */
	if (ret < 0)
		return ret;
	if (put_set(a, u[0], s.n, s.res_in) || put_set(a, u[1], s.n, s.res_out) ||
	    put_set(a, u[2], s.n, s.res_ex))
		return -EFAULT;
	return ret;
}

static long select_common(const struct syscall_args *a, long n, const uint64_t u[3],
			  uint64_t utv)
{
	struct timeout t;
	long ret = timeout_get(a, utv, TIMEVAL, &t);

	if (ret)
		return ret;
	return timeout_put(a, utv, TIMEVAL, &t, do_select(a, n, u, &t));
}

/* select (x86_64), _newselect (the 32-bit ABIs): n, the three sets, a timeval. */
long sys_select(const struct syscall_args *a)
{
	uint64_t u[3] = { a->a[1], a->a[2], a->a[3] };

	return select_common(a, (int)a->a[0], u, a->a[4]);
}

/* i386's select (82): the five arguments in a block of 32-bit words at the one argument. */
long sys_old_select(const struct syscall_args *a)
{
	uint32_t v[5];

	if (copy_from_user(&a->p->mm, v, a->a[0], sizeof(v)))
		return -EFAULT;
	uint64_t u[3] = { v[1], v[2], v[3] };
	return select_common(a, (int32_t)v[0], u, v[4]);
}

/* pselect6's sixth argument: { const sigset_t *ss; size_t ss_len; } in the task's longs. */
static long get_sigset_pack(const struct syscall_args *a, uint64_t *umask, uint64_t *size)
{
	int64_t x, y;

	*umask = *size = 0;
	if (!a->a[5])
		return 0;
	if (get_pair(a, a->a[5], sys_word_size(a), &x, &y))
		return -EFAULT;
	unsigned w = sys_word_size(a);
	*umask = w == 8 ? (uint64_t)x : (uint32_t)x;
	*size = w == 8 ? (uint64_t)y : (uint32_t)y;
	return 0;
}

static long pselect6_common(const struct syscall_args *a, enum time_kind k)
{
	uint64_t u[3] = { a->a[1], a->a[2], a->a[3] }, umask, size;
	struct timeout t;

	if (get_sigset_pack(a, &umask, &size))
		return -EFAULT;
	long ret = timeout_get(a, a->a[4], k, &t);
	if (ret)
		return ret;
	ret = sigmask_set(a->p, umask, size);
	if (ret)
		return ret;
	ret = sigmask_finish(a->p, do_select(a, (int)a->a[0], u, &t));
	return timeout_put(a, a->a[4], k, &t, ret);
}

long sys_pselect6(const struct syscall_args *a)
{
	return pselect6_common(a, TIMESPEC);
}

long sys_pselect6_time64(const struct syscall_args *a)
{
	return pselect6_common(a, TIMESPEC64);
}
