/* arm64's vDSO: the virtual counter CNTVCT_EL0 (EL0 may read it: CNTKCTL_EL1.EL0VCTEN, set in
 * arch/arm64/trap.c) and the SVC fallback. Linux exports __kernel_* names here (no time()). */
#include <asm/unistd.h> /* arch/arm64/include */

#define VDSO_FN(name) __kernel_##name
#define VDSO_HAS_TIME 0
#define VDSO_HAS_GETCPU 0
#define VDSO_WORD_64 1

static inline uint64_t vdso_read_counter(void)
{
	uint64_t v;

	/* isb: the read is not taken early, before the instructions that precede it */
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static inline long vdso_syscall2(long nr, long a, long b)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	return x0;
}
