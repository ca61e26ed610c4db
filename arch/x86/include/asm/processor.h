/* x86 CPU helpers shared by i386 and x86_64: CPUID, control registers, interrupts, TLB. All
 * register-width values are uintptr_t so that one header serves both widths. */
#ifndef RNDBITS_ASM_X86_PROCESSOR_H
#define RNDBITS_ASM_X86_PROCESSOR_H

#ifndef __ASSEMBLER__
#include <lib/types.h>
#define X86_BIT(n) (1u << (n))
#else
#define X86_BIT(n) (1 << (n))
#endif

#define X86_CR0_PE X86_BIT(0)
#define X86_CR0_WP X86_BIT(16)
#define X86_CR0_PG X86_BIT(31)

#define X86_CR4_PSE X86_BIT(4)
#define X86_CR4_PAE X86_BIT(5)
#define X86_CR4_PGE X86_BIT(7)
#define X86_CR4_SMEP X86_BIT(20)

#define X86_EFLAGS_IF X86_BIT(9)

/* CPUID feature bits used here. */
#define X86_CPUID1_ECX_RDRAND X86_BIT(30)
#define X86_CPUID1_EDX_TSC X86_BIT(4)
#define X86_CPUID1_EDX_PSE X86_BIT(3)
#define X86_CPUID1_EDX_PGE X86_BIT(13)
#define X86_CPUID7_EBX_SMEP X86_BIT(7)
#define X86_CPUID7_EBX_RDSEED X86_BIT(18)

#ifndef __ASSEMBLER__
/* x87/SSE control, spelled exactly as asm/cpu_64.h does so that both may be included. */
#define X86_CPUID1_EDX_FXSR (1u << 24)
#define X86_CPUID1_EDX_SSE (1u << 25)
#define X86_CR0_MP (1u << 1)
#define X86_CR0_EM (1u << 2)
#define X86_CR0_TS (1u << 3)
#define X86_CR0_NE (1u << 5)
#define X86_CR4_OSFXSR (1u << 9)
#define X86_CR4_OSXMMEXCPT (1u << 10)

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
}

/* The highest basic leaf, so that callers never read a leaf the CPU does not have. */
static inline uint32_t cpuid_max_leaf(void)
{
	struct cpuid_regs r;
	cpuid_count(0, 0, &r);
	return r.eax;
}

#define DEFINE_CR_ACCESSORS(n)                                                  \
	static inline uintptr_t read_cr##n(void)                               \
	{                                                                       \
		uintptr_t v;                                                    \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));               \
		return v;                                                       \
	}                                                                       \
	static inline void write_cr##n(uintptr_t v)                            \
	{                                                                       \
		__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");      \
	}
DEFINE_CR_ACCESSORS(0)
DEFINE_CR_ACCESSORS(2)
DEFINE_CR_ACCESSORS(3)
DEFINE_CR_ACCESSORS(4)
#undef DEFINE_CR_ACCESSORS

static inline void invlpg(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline void cli(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" : : : "memory");
}
#endif /* __ASSEMBLER__ */

#endif
