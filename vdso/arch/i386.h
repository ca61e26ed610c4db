/* i386's vDSO (a native i386 task, or an ia32 task on x86_64): the TSC through rdtsc (CR4.TSD
 * is clear, as on Linux) and the int $0x80 fallback. */
#include <asm/unistd_32.h> /* arch/x86/include */

#define VDSO_FN(name) __vdso_##name
#define VDSO_HAS_TIME 1
#define VDSO_HAS_GETCPU 0
#define VDSO_WORD_64 0

static inline uint64_t vdso_read_counter(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* ebx carries the first argument; with -fPIC it may be the GOT pointer, so it is swapped in
 * and out around the trap rather than named as an operand. */
static inline long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("xchgl %%ebx, %2\n\tint $0x80\n\txchgl %%ebx, %2"
			 : "=a"(ret) : "0"(nr), "r"(a), "c"(b) : "memory");
	return ret;
}
