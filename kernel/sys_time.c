/* Time and futexes from the free-running counter (arch_cycles). There is no real-time clock:
 * CLOCK_REALTIME counts from the epoch at boot, like a machine whose RTC reads 1970-01-01, and
 * the monotonic clocks count from boot too. Sleeping waits on the counter (the console's
 * Ctrl-C still ends a foreground program). Futexes are a single thread's: no one can wake a
 * waiter, so a wait whose value matches times out or fails instead of hanging. */
#include <arch/cpu.h>
#include <arch/trap.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>

#define NSEC_PER_SEC 1000000000ull
#define ETIMEDOUT 110 /* Linux's, the same on every ISA here */

enum {
	CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_PROCESS_CPUTIME_ID = 2,
	CLOCK_THREAD_CPUTIME_ID = 3, CLOCK_MONOTONIC_RAW = 4, CLOCK_REALTIME_COARSE = 5,
	CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7, CLOCK_LAST = CLOCK_BOOTTIME,
};
#define TIMER_ABSTIME 1

/* Nanoseconds since boot, without overflowing the product for years of cycles. */
uint64_t time_now_ns(void)
{
	uint64_t c = arch_cycles(), hz = arch_cycles_hz();

	return c / hz * NSEC_PER_SEC + c % hz * NSEC_PER_SEC / hz;
}

/* A timespec in the layout the call uses: two longs of the task's width, or (the *_time64
 * calls) two 64-bit fields. */
static unsigned timespec_field(const struct syscall_args *a, bool time64)
{
	return time64 ? 8 : sys_word_size(a);
}

static long put_pair(const struct syscall_args *a, uint64_t uaddr, unsigned w, int64_t x,
		     int64_t y)
{
	if (w == 8) {
		int64_t v[2] = { x, y };
		return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
	}
	int32_t v[2] = { (int32_t)x, (int32_t)y };
	return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
}

/* Linux's checks on a timespec. */
long get_timespec_ns(const struct syscall_args *a, uint64_t uaddr, bool time64,
			    uint64_t *ns)
{
	int64_t sec, nsec;

	if (timespec_field(a, time64) == 8) {
		int64_t v[2];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		sec = v[0];
		nsec = v[1];
	} else {
		int32_t v[2];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		sec = v[0];
		nsec = v[1];
	}
	if (sec < 0 || nsec < 0 || (uint64_t)nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*ns = (uint64_t)sec > UINT64_MAX / NSEC_PER_SEC - 1 ? UINT64_MAX
							      : (uint64_t)sec * NSEC_PER_SEC + (uint64_t)nsec;
	return 0;
}

static long clock_gettime_common(const struct syscall_args *a, bool time64)
{
	unsigned clock = (unsigned)a->a[0];

	if (clock > CLOCK_LAST)
		return -EINVAL;
	uint64_t ns = time_now_ns();
	return put_pair(a, a->a[1], timespec_field(a, time64), (int64_t)(ns / NSEC_PER_SEC),
			(int64_t)(ns % NSEC_PER_SEC));
}

long sys_clock_gettime(const struct syscall_args *a)
{
	return clock_gettime_common(a, false);
}

long sys_clock_gettime64(const struct syscall_args *a)
{
	return clock_gettime_common(a, true);
}

/* The resolution: one counter tick, rounded up to a nanosecond. */
static long clock_getres_common(const struct syscall_args *a, bool time64)
{
	if ((unsigned)a->a[0] > CLOCK_LAST)
		return -EINVAL;
	if (!a->a[1])
		return 0;
	uint64_t res = (NSEC_PER_SEC + arch_cycles_hz() - 1) / arch_cycles_hz();
	return put_pair(a, a->a[1], timespec_field(a, time64), 0, (int64_t)res);
}

long sys_clock_getres(const struct syscall_args *a)
{
	return clock_getres_common(a, false);
}

long sys_clock_getres64(const struct syscall_args *a)
{
	return clock_getres_common(a, true);
}

long sys_gettimeofday(const struct syscall_args *a)
{
	uint64_t ns = time_now_ns();

	if (a->a[0]) {
		long err = put_pair(a, a->a[0], sys_word_size(a), (int64_t)(ns / NSEC_PER_SEC),
				    (int64_t)(ns % NSEC_PER_SEC / 1000));
		if (err)
			return err;
	}
	if (a->a[1]) /* struct timezone: UTC, no DST */
		return put_pair(a, a->a[1], 4, 0, 0);
	return 0;
}

long sys_time(const struct syscall_args *a)
{
	int64_t t = (int64_t)(time_now_ns() / NSEC_PER_SEC);

	if (a->a[0]) {
		int32_t t32 = (int32_t)t;
		const void *v = sys_word_size(a) == 8 ? (const void *)&t : (const void *)&t32;
		if (copy_to_user(&a->p->mm, a->a[0], v, sys_word_size(a)))
			return -EFAULT;
	}
	return (long)t;
}

/* Nobody wakes this channel: a sleep here ends at its deadline or for a signal. */
static const char sleep_chan;
#define NSEC_PER_TICK (NSEC_PER_SEC / HZ)

/* In whole ticks, as a kernel without high-resolution timers: one more than the time left
 * holds, since the current tick is partly gone. */
uint64_t time_jiffy_after(uint64_t deadline_ns)
{
	uint64_t now = time_now_ns();
	uint64_t ticks = deadline_ns > now ? (deadline_ns - now) / NSEC_PER_TICK + 1 : 0;

	return jiffies + MIN(ticks, UINT64_MAX / 2);
}

/* Sleep until the counter reaches deadline_ns (up to one tick late). 0, or -EINTR when a
 * signal arrives first. */
static long sleep_until(uint64_t deadline_ns)
{
	while (time_now_ns() < deadline_ns)
		if (sched_sleep_interruptible(&sleep_chan, time_jiffy_after(deadline_ns)))
			return -EINTR;
	return 0;
}

static long nanosleep_common(const struct syscall_args *a, uint64_t req, uint64_t rem,
			     bool time64, bool absolute)
{
	uint64_t ns, now = time_now_ns();
	long err = get_timespec_ns(a, req, time64, &ns);

	if (err)
		return err;
	uint64_t deadline = absolute ? ns : now + ns < now ? UINT64_MAX : now + ns;
	if (!sleep_until(deadline))
		return 0;
	/* Interrupted: a relative sleep reports what was left, as Linux does. */
	if (rem && !absolute) {
		uint64_t left = deadline - MIN(deadline, time_now_ns());
		err = put_pair(a, rem, timespec_field(a, time64), (int64_t)(left / NSEC_PER_SEC),
			       (int64_t)(left % NSEC_PER_SEC));
		if (err)
			return err;
	}
	return -EINTR;
}

long sys_nanosleep(const struct syscall_args *a)
{
	return nanosleep_common(a, a->a[0], a->a[1], false, false);
}

static long clock_nanosleep_common(const struct syscall_args *a, bool time64)
{
	unsigned clock = (unsigned)a->a[0];

	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return -EINVAL;
	if (clock > CLOCK_LAST || clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_REALTIME_COARSE ||
	    clock == CLOCK_MONOTONIC_COARSE)
		return -EOPNOTSUPP;
	return nanosleep_common(a, a->a[2], a->a[3], time64, a->a[1] & TIMER_ABSTIME);
}

long sys_clock_nanosleep(const struct syscall_args *a)
{
	return clock_nanosleep_common(a, false);
}

long sys_clock_nanosleep64(const struct syscall_args *a)
{
	return clock_nanosleep_common(a, true);
}

/* --- futex ------------------------------------------------------------------------------ */

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256

static long futex_common(const struct syscall_args *a, bool time64)
{
	uint64_t uaddr = a->a[0], timeout = a->a[3];
	unsigned op = (unsigned)a->a[1] & ~(unsigned)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	uint32_t val = (uint32_t)a->a[2], cur;

	if (uaddr & 3)
		return -EINVAL;
	switch (op) {
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
	case FUTEX_REQUEUE:
		return 0; /* nobody waits */
	case FUTEX_CMP_REQUEUE:
		if (copy_from_user(&a->p->mm, &cur, uaddr, sizeof(cur)))
			return -EFAULT;
		return cur == (uint32_t)a->a[5] ? 0 : -EAGAIN;
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET: {
		if (op == FUTEX_WAIT_BITSET && (uint32_t)a->a[5] == 0)
			return -EINVAL;
		if (copy_from_user(&a->p->mm, &cur, uaddr, sizeof(cur)))
			return -EFAULT;
		if (cur != val)
			return -EAGAIN;
		/* The only thread waits for itself: with a timeout, sleep it out; without one
		 * it would sleep forever, so say the call cannot be done here. */
		if (!timeout)
			return -EINVAL;
		uint64_t ns;
		long err = get_timespec_ns(a, timeout, time64, &ns);
		if (err)
			return err;
		uint64_t now = time_now_ns();
		if (sleep_until(op == FUTEX_WAIT_BITSET ? ns : now + ns < now ? UINT64_MAX : now + ns))
			return -EINTR;
		return -ETIMEDOUT;
	}
	default:
		return -ENOSYS;
	}
}

long sys_futex(const struct syscall_args *a)
{
	return futex_common(a, false);
}

long sys_futex64(const struct syscall_args *a)
{
	return futex_common(a, true);
}
