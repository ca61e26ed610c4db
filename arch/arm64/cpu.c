/* Power, time, entropy and idle on QEMU virt with -cpu max. */
#include <arch/cpu.h>
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
	/* Without an interrupt controller to wake us, a WFI could sleep forever: just poll. */
	if (a64_gic_ready())
		__asm__ volatile("dsb sy\n\twfi" : : : "memory");
}
