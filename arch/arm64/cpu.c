/* Power, time, entropy and idle on QEMU virt with -cpu max. */
#include <arch/cpu.h>
#include <arch/exec.h>
#include <asm/arm64.h>
#include <lib/unaligned.h>

const char arch_machine_name[] = "virt";
const char arch_cpu_name[] = "max";

#define PSCI_SYSTEM_OFF 0x84000008UL
#define SEMIHOSTING_SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static void psci_system_off(void)
{
	register uint64_t x0 __asm__("x0") = PSCI_SYSTEM_OFF;

	/* PSCI lives at EL2 (hvc) normally, at EL3 (smc) when QEMU gave us EL2 itself. */
	if (a64_booted_at_el2)
		__asm__ volatile("smc #0" : "+r"(x0) : : "memory");
	else
		__asm__ volatile("hvc #0" : "+r"(x0) : : "memory");
}

static void semihosting_exit(int status)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status };
	register uint64_t x0 __asm__("x0") = SEMIHOSTING_SYS_EXIT;
	register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
}

__noreturn void arch_poweroff(int status)
{
	if (status == 0)
		psci_system_off();
	else
		semihosting_exit(status);
	/* Without semihosting QEMU ignores hlt: still leave, with status 0 as the best we can do. */
	psci_system_off();
	for (;;)
		__asm__ volatile("wfi");
}

uint64_t arch_cycles(void)
{
	isb();
	return read_sysreg(cntvct_el0);
}

uint64_t arch_cycles_hz(void)
{
	return read_sysreg(cntfrq_el0) & 0xffffffffUL;
}

static bool cpu_has_rndr(void)
{
	return ((read_sysreg(id_aa64isar0_el1) >> 60) & 0xf) != 0;
}

/* One RNDR read; false when the generator could not deliver (NZCV = 0b0100). */
static bool rndr(uint64_t *out)
{
	uint64_t v, ok;

	__asm__ volatile("mrs %0, s3_3_c2_c4_0\n\t"
			 "cset %1, ne"
			 : "=r"(v), "=r"(ok)
			 :
			 : "cc");
	*out = v;
	return ok;
}

/* One RNDR value, tried a few times: the generator may be unable to deliver for a moment. */
static bool rndr_retrying(uint64_t *out)
{
	for (unsigned tries = 0; tries < 16; tries++)
		if (rndr(out))
			return true;
	return false;
}

/* Whole values while they fit, stored as they are (little endian: low byte first), then the
 * low bytes of one more for a length that is not a multiple of 8: a word a store rather than a
 * byte, with the byte loop off the path of the usual lengths. */
size_t arch_random_seed(uint8_t *buf, size_t len, const char **name)
{
	size_t done = 0;
	uint64_t v;

	*name = "rndr";
	if (!cpu_has_rndr())
		return 0;
	for (; len - done >= sizeof(v); done += sizeof(v)) {
		if (!rndr_retrying(&v))
			return done;
		store_u64_unaligned(buf + done, v);
	}
	if (done < len && rndr_retrying(&v))
		for (; done < len; done++, v >>= 8)
			buf[done] = (uint8_t)v;
	return done;
}

void arch_idle(void)
{
	/* Without an interrupt controller to wake us, a WFI could sleep forever: just poll. WFI
	 * with IRQs masked still wakes on a pending one; unmasking then takes it (the handler runs
	 * on this stack, trap_dispatch with ti->user false), and masking again ends the window. */
	if (a64_gic_ready())
		__asm__ volatile("dsb sy\n\twfi\n\tmsr daifclr, #2\n\tisb\n\tmsr daifset, #2"
				 : : : "memory");
}

/* AT_HWCAP for the features EL0 may use without the kernel doing anything (Linux reads the same
 * ID register fields). Not claimed: CPUID (no MRS emulation), EVTSTRM (no timer event stream),
 * SVE, SME, PACA/PACG, BTI, MTE: each needs the kernel to enable or manage it. */
struct id_hwcap {
	uint8_t shift;   /* field of ID_AA64ISAR0_EL1 */
	uint8_t min;     /* lowest value that gives the feature */
	uint64_t hwcap;
};

#define HWCAP_FP (1u << 0)
#define HWCAP_ASIMD (1u << 1)
#define HWCAP_FPHP (1u << 9)
#define HWCAP_ASIMDHP (1u << 10)
#define HWCAP2_RNG (1u << 16)

static const struct id_hwcap isar0_hwcaps[] = {
	{ 4, 1, 1u << 3 },   /* AES */
	{ 4, 2, 1u << 4 },   /* PMULL */
	{ 8, 1, 1u << 5 },   /* SHA1 */
	{ 12, 1, 1u << 6 },  /* SHA2 */
	{ 12, 2, 1u << 21 }, /* SHA512 */
	{ 16, 1, 1u << 7 },  /* CRC32 */
	{ 20, 2, 1u << 8 },  /* ATOMICS (LSE) */
	{ 28, 1, 1u << 12 }, /* ASIMDRDM */
	{ 32, 1, 1u << 17 }, /* SHA3 */
	{ 36, 1, 1u << 18 }, /* SM3 */
	{ 40, 1, 1u << 19 }, /* SM4 */
	{ 44, 1, 1u << 20 }, /* ASIMDDP */
	{ 48, 1, 1u << 23 }, /* ASIMDFHM */
};

/* AArch32 (compat) bits, Linux's COMPAT_HWCAP_* and COMPAT_HWCAP2_*. */
#define COMPAT_HWCAP_HALF (1u << 1)
#define COMPAT_HWCAP_THUMB (1u << 2)
#define COMPAT_HWCAP_FAST_MULT (1u << 4)
#define COMPAT_HWCAP_VFP (1u << 6)
#define COMPAT_HWCAP_EDSP (1u << 7)
#define COMPAT_HWCAP_NEON (1u << 12)
#define COMPAT_HWCAP_VFPv3 (1u << 13)
#define COMPAT_HWCAP_TLS (1u << 15)
#define COMPAT_HWCAP_VFPv4 (1u << 16)
#define COMPAT_HWCAP_IDIVA (1u << 17)
#define COMPAT_HWCAP_IDIVT (1u << 18)
#define COMPAT_HWCAP_VFPD32 (1u << 19)
#define COMPAT_HWCAP_LPAE (1u << 20)

static unsigned id_field(uint64_t reg, unsigned shift)
{
	return (unsigned)(reg >> shift) & 0xf;
}

static void compat_exec_info(uint64_t pfr0, uint64_t isar0, struct arch_exec_info *out)
{
	out->hwcap = COMPAT_HWCAP_HALF | COMPAT_HWCAP_THUMB | COMPAT_HWCAP_FAST_MULT |
		     COMPAT_HWCAP_EDSP | COMPAT_HWCAP_TLS | COMPAT_HWCAP_IDIVA | COMPAT_HWCAP_IDIVT |
		     COMPAT_HWCAP_LPAE;
	/* FP and Advanced SIMD at EL0 (CPACR_EL1.FPEN) cover AArch32's VFPv4-D32 and NEON. */
	if (id_field(pfr0, 16) != 0xf)
		out->hwcap |= COMPAT_HWCAP_VFP | COMPAT_HWCAP_VFPv3 | COMPAT_HWCAP_VFPv4 |
			      COMPAT_HWCAP_VFPD32;
	if (id_field(pfr0, 20) != 0xf)
		out->hwcap |= COMPAT_HWCAP_NEON;
	/* COMPAT_HWCAP2_AES, PMULL, SHA1, SHA2, CRC32: the AArch32 forms of the same units. */
	out->hwcap2 = (id_field(isar0, 4) >= 1 ? 1u << 0 : 0) | (id_field(isar0, 4) >= 2 ? 1u << 1 : 0) |
		      (id_field(isar0, 8) >= 1 ? 1u << 2 : 0) | (id_field(isar0, 12) >= 1 ? 1u << 3 : 0) |
		      (id_field(isar0, 16) >= 1 ? 1u << 4 : 0);
	out->platform = "v8l";  /* COMPAT_ELF_PLATFORM */
	out->minsigstksz = 0;   /* COMPAT_ARCH_DLINFO passes none */
	out->read_implies_exec = true; /* compat_elf_read_implies_exec: no PT_GNU_STACK */
}

void arch_exec_info(bool compat, struct arch_exec_info *out)
{
	uint64_t pfr0 = read_sysreg(id_aa64pfr0_el1), isar0 = read_sysreg(id_aa64isar0_el1);

	out->stack_align = 16;
	if (compat) {
		compat_exec_info(pfr0, isar0, out);
		return;
	}
	out->hwcap = 0;
	if (id_field(pfr0, 16) != 0xf)
		out->hwcap |= HWCAP_FP | (id_field(pfr0, 16) >= 1 ? HWCAP_FPHP : 0);
	if (id_field(pfr0, 20) != 0xf)
		out->hwcap |= HWCAP_ASIMD | (id_field(pfr0, 20) >= 1 ? HWCAP_ASIMDHP : 0);
	for (size_t i = 0; i < sizeof(isar0_hwcaps) / sizeof(isar0_hwcaps[0]); i++)
		if (id_field(isar0, isar0_hwcaps[i].shift) >= isar0_hwcaps[i].min)
			out->hwcap |= isar0_hwcaps[i].hwcap;
	out->hwcap2 = id_field(isar0, 60) ? HWCAP2_RNG : 0;
	out->platform = "aarch64";
	/* signal_minsigstksz without SVE/SME state: rt_sigframe (4688) + frame record (16) + 16
	 * of alignment, as Linux 6.1 computes it for a CPU whose extra state it does not enable. */
	out->minsigstksz = 4720;
	out->read_implies_exec = false;
}
