/* x86_64-only CPU helpers: MSRs, descriptor-table loads, long-mode control bits. */
#ifndef RNDBITS_ASM_X86_CPU_64_H
#define RNDBITS_ASM_X86_CPU_64_H

#include <lib/types.h>

#define MSR_EFER 0xC0000080
#define MSR_STAR 0xC0000081
#define MSR_LSTAR 0xC0000082
#define MSR_CSTAR 0xC0000083
#define MSR_SFMASK 0xC0000084
#define MSR_FS_BASE 0xC0000100
#define MSR_GS_BASE 0xC0000101
#define MSR_KERNEL_GS_BASE 0xC0000102

#define EFER_SCE (1u << 0)
#define EFER_LME (1u << 8)
#define EFER_NXE (1u << 11)

#define X86_RFLAGS_CF (1u << 0)
#define X86_RFLAGS_PF (1u << 2)
#define X86_RFLAGS_AF (1u << 4)
#define X86_RFLAGS_ZF (1u << 6)
#define X86_RFLAGS_SF (1u << 7)
#define X86_RFLAGS_TF (1u << 8)
#define X86_RFLAGS_IF (1u << 9)
#define X86_RFLAGS_DF (1u << 10)
#define X86_RFLAGS_OF (1u << 11)
#define X86_RFLAGS_IOPL (3u << 12)
#define X86_RFLAGS_NT (1u << 14)
#define X86_RFLAGS_RF (1u << 16)
#define X86_RFLAGS_AC (1u << 18)
#define X86_RFLAGS_ID (1u << 21)

#define X86_CPUID_EXT_EDX_GBPAGES (1u << 26)
#define X86_CPUID1_EDX_FXSR (1u << 24)
#define X86_CPUID1_EDX_SSE (1u << 25)

#define X86_CR0_MP (1u << 1)
#define X86_CR0_EM (1u << 2)
#define X86_CR0_TS (1u << 3)
#define X86_CR4_OSFXSR (1u << 9)
#define X86_CR4_OSXMMEXCPT (1u << 10)


static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

struct x86_64_desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

static inline void lgdt(const struct x86_64_desc_ptr *p)
{
	__asm__ volatile("lgdt %0" : : "m"(*p) : "memory");
}

static inline void lidt(const struct x86_64_desc_ptr *p)
{
	__asm__ volatile("lidt %0" : : "m"(*p) : "memory");
}

static inline void ltr(uint16_t sel)
{
	__asm__ volatile("ltr %0" : : "rm"(sel) : "memory");
}

#endif
