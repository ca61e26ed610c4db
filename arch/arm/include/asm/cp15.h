/* CP15 accessors and barriers used by arch/arm (kernel only: inline assembly). */
#ifndef RNDBITS_ASM_ARM_CP15_H
#define RNDBITS_ASM_ARM_CP15_H

#include <lib/types.h>

#define ARM_CP15_RW(name, op1, crn, crm, op2)                                                \
	static inline uint32_t arm_read_##name(void)                                       \
	{                                                                                  \
		uint32_t v;                                                                \
		__asm__ volatile("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " #op2 : "=r"(v)); \
		return v;                                                                  \
	}                                                                                  \
	static inline void arm_write_##name(uint32_t v)                                    \
	{                                                                                  \
		__asm__ volatile("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2           \
				 : : "r"(v) : "memory");                                   \
	}

ARM_CP15_RW(sctlr, 0, c1, c0, 0)
ARM_CP15_RW(cpacr, 0, c1, c0, 2)
ARM_CP15_RW(ttbr0, 0, c2, c0, 0)
ARM_CP15_RW(ttbcr, 0, c2, c0, 2)
ARM_CP15_RW(dacr, 0, c3, c0, 0)
ARM_CP15_RW(dfsr, 0, c5, c0, 0)
ARM_CP15_RW(ifsr, 0, c5, c0, 1)
ARM_CP15_RW(dfar, 0, c6, c0, 0)
ARM_CP15_RW(ifar, 0, c6, c0, 2)
ARM_CP15_RW(vbar, 0, c12, c0, 0)
ARM_CP15_RW(contextidr, 0, c13, c0, 1)
ARM_CP15_RW(cntfrq, 0, c14, c0, 0)
ARM_CP15_RW(cntkctl, 0, c14, c1, 0)

/* Write-only maintenance operations (the value is an MVA, an ASID or ignored). */
#define ARM_CP15_OP(name, op1, crn, crm, op2)                                                \
	static inline void arm_##name(uint32_t v)                                          \
	{                                                                                  \
		__asm__ volatile("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2           \
				 : : "r"(v) : "memory");                                   \
	}

ARM_CP15_OP(tlbiallis, 0, c8, c3, 0)   /* all entries, inner shareable */
ARM_CP15_OP(tlbiasidis, 0, c8, c3, 2)  /* by ASID */
ARM_CP15_OP(tlbimvaais, 0, c8, c3, 3)  /* by MVA, all ASIDs */
ARM_CP15_OP(iciallu, 0, c7, c5, 0)
ARM_CP15_OP(bpiallis, 0, c7, c1, 6)

static inline void arm_dsb(void) { __asm__ volatile("dsb ish" : : : "memory"); }
static inline void arm_dsb_st(void) { __asm__ volatile("dsb ishst" : : : "memory"); }
static inline void arm_isb(void) { __asm__ volatile("isb" : : : "memory"); }

#define ARM_CNTKCTL_PL0VCTEN (1u << 1)

/* TTBR0 walk attributes: inner/outer write-back write-allocate, shareable (as head.S). */
#define ARM_TTBR_WALK ((1u << 6) | (1u << 3) | (1u << 1))

#endif
