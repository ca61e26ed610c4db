/* x86_64's vDSO: the TSC through rdtsc and the syscall fallback. Linux exports each function
 * under two names here: __vdso_clock_gettime and the weak alias clock_gettime. */
#include <asm/unistd_64.h> /* arch/x86/include */

#define VDSO_FN(name) __vdso_##name
#define VDSO_HAS_TIME 1
#define VDSO_HAS_GETCPU 1
#define VDSO_WORD_64 1

static inline uint64_t vdso_read_counter(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}
