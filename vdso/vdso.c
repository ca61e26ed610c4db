/* The vDSO's functions, one source for every ABI (vdso/arch/<abi>.h supplies the counter, the
 * system-call fallback and Linux's names for the ABI). They compute what kernel/sys_time.c's
 * system calls return, from the counter and the vvar data page, without entering the kernel;
 * a clock they do not handle (the CPU-time clocks, an unknown id) goes to the system call, as
 * Linux's vDSO does. Built -fPIC into a shared object whose only data is the vvar page just
 * below its text (vdso/vdso.lds.in): no relocations, no writable data. */
#include <stdint.h>
#include <kernel/vdso_data.h>
#include VDSO_ARCH_HEADER

#define NSEC_PER_SEC 1000000000ull
#define EXPORT __attribute__((visibility("default")))

enum {
	CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_MONOTONIC_RAW = 4,
	CLOCK_REALTIME_COARSE = 5, CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7,
};

/* The vvar page: the linker script places the symbol at the start of [vvar]. */
extern const struct vdso_data _vdso_data __attribute__((visibility("hidden")));

struct vdso_timespec { long tv_sec, tv_nsec; };          /* the ABI's struct timespec */
struct vdso_timespec64 { int64_t tv_sec, tv_nsec; };     /* __kernel_timespec */
struct vdso_timeval { long tv_sec, tv_usec; };
struct vdso_timezone { int tz_minuteswest, tz_dsttime; };

static int clock_handled(long clock)
{
	const volatile struct vdso_data *d = &_vdso_data;

	if (d->clock_mode != VDSO_CLOCK_MODE_COUNTER)
		return 0;
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC ||
	       clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_REALTIME_COARSE ||
	       clock == CLOCK_MONOTONIC_COARSE || clock == CLOCK_BOOTTIME;
}

/* Nanoseconds since boot, split into seconds and nanoseconds, with the kernel's arithmetic
 * (now_ns): whole seconds of counter, then the remainder scaled, so nothing overflows. */
static void read_clock(uint64_t *sec, uint64_t *nsec)
{
	uint64_t c = vdso_read_counter(), hz = _vdso_data.counter_hz;
	uint64_t ns = c / hz * NSEC_PER_SEC + c % hz * NSEC_PER_SEC / hz;

	*sec = ns / NSEC_PER_SEC;
	*nsec = ns % NSEC_PER_SEC;
}

EXPORT long VDSO_FN(clock_gettime)(long clock, struct vdso_timespec *ts)
{
	uint64_t sec, nsec;

	if (!clock_handled(clock))
		return vdso_syscall2(__NR_clock_gettime, clock, (long)ts);
	read_clock(&sec, &nsec);
	ts->tv_sec = (long)sec;
	ts->tv_nsec = (long)nsec;
	return 0;
}

EXPORT long VDSO_FN(gettimeofday)(struct vdso_timeval *tv, struct vdso_timezone *tz)
{
	uint64_t sec, nsec;

	if (_vdso_data.clock_mode != VDSO_CLOCK_MODE_COUNTER)
		return vdso_syscall2(__NR_gettimeofday, (long)tv, (long)tz);
	if (tv) {
		read_clock(&sec, &nsec);
		tv->tv_sec = (long)sec;
		tv->tv_usec = (long)(nsec / 1000);
	}
	if (tz) { /* the kernel's: UTC, no daylight saving */
		tz->tz_minuteswest = 0;
		tz->tz_dsttime = 0;
	}
	return 0;
}

EXPORT long VDSO_FN(clock_getres)(long clock, struct vdso_timespec *res)
{
	if (!clock_handled(clock))
		return vdso_syscall2(__NR_clock_getres, clock, (long)res);
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = (long)_vdso_data.res_ns;
	}
	return 0;
}

#if !VDSO_WORD_64
/* The 64-bit time_t call the 32-bit C libraries look up first (glibc since 2.34). */
EXPORT long VDSO_FN(clock_gettime64)(long clock, struct vdso_timespec64 *ts)
{
	uint64_t sec, nsec;

	if (!clock_handled(clock))
		return vdso_syscall2(__NR_clock_gettime64, clock, (long)ts);
	read_clock(&sec, &nsec);
	ts->tv_sec = (int64_t)sec;
	ts->tv_nsec = (int64_t)nsec;
	return 0;
}
#endif

#if VDSO_HAS_TIME
EXPORT long VDSO_FN(time)(long *t)
{
	uint64_t sec, nsec;

	if (_vdso_data.clock_mode != VDSO_CLOCK_MODE_COUNTER)
		return vdso_syscall2(__NR_time, (long)t, 0);
	read_clock(&sec, &nsec);
	if (t)
		*t = (long)sec;
	return (long)sec;
}
#endif

#if VDSO_HAS_GETCPU
/* One CPU, one node. */
EXPORT long VDSO_FN(getcpu)(unsigned *cpu, unsigned *node, void *unused)
{
	(void)unused;
	if (cpu)
		*cpu = 0;
	if (node)
		*node = 0;
	return 0;
}

/* x86_64 exports each function under its plain name too. */
extern __typeof__(__vdso_clock_gettime) clock_gettime EXPORT
	__attribute__((weak, alias("__vdso_clock_gettime")));
extern __typeof__(__vdso_gettimeofday) gettimeofday EXPORT
	__attribute__((weak, alias("__vdso_gettimeofday")));
extern __typeof__(__vdso_time) time EXPORT __attribute__((weak, alias("__vdso_time")));
extern __typeof__(__vdso_clock_getres) clock_getres EXPORT
	__attribute__((weak, alias("__vdso_clock_getres")));
extern __typeof__(__vdso_getcpu) getcpu EXPORT __attribute__((weak, alias("__vdso_getcpu")));
#endif
