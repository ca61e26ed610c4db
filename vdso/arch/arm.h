/* 32-bit ARM's vDSO (a native ARMv7 task, or an AArch32 task on arm64): the virtual counter
 * CNTVCT through MRRC (PL0 may read it: CNTKCTL.PL0VCTEN, or CNTKCTL_EL1.EL0VCTEN on arm64)
 * and the EABI SVC fallback. */
#include <asm/unistd.h> /* arch/arm/include */

#define VDSO_FN(name) __vdso_##name
#define VDSO_HAS_TIME 0
#define VDSO_HAS_GETCPU 0
#define VDSO_WORD_64 0

static inline uint64_t vdso_read_counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrrc p15, 1, %Q0, %R0, c14" : "=r"(v) : : "memory");
	return v;
}

static inline long vdso_syscall2(long nr, long a, long b)
{
	register long r7 __asm__("r7") = nr;
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;

	__asm__ volatile("svc #0" : "+r"(r0) : "r"(r7), "r"(r1) : "memory");
	return r0;
}
