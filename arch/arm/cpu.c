/* ARMv7-A on QEMU virt: power, the generic timer, entropy and idle. */
#include <arch/cpu.h>
#include <arch/exec.h>
#include <arch/memory.h>
#include <asm/cp15.h>
#include "arm.h"

const char arch_machine_name[] = "virt";
const char arch_cpu_name[] = "cortex-a15";

#define PSCI_SYSTEM_OFF 0x84000008u
#define SEMIHOST_SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static volatile bool powering_off;
static bool psci_uses_smc;

/* The DTB's /psci "method": "hvc" normally, "smc" when QEMU emulates EL2 (virtualization=on). */
void arm_set_psci_conduit(bool smc)
{
	psci_uses_smc = smc;
}

bool arm_powering_off(void)
{
	return powering_off;
}

/* PSCI SYSTEM_OFF through the conduit the DTB names; QEMU exits with status 0. */
__noreturn void arm_psci_system_off(void)
{
	register uint32_t r0 __asm__("r0") = PSCI_SYSTEM_OFF;

	if (psci_uses_smc)
		__asm__ volatile(".arch_extension sec\n\tsmc #0" : "+r"(r0) : : "memory");
	else
		__asm__ volatile(".arch_extension virt\n\thvc #0" : "+r"(r0) : : "memory");
	for (;;)
		__asm__ volatile("wfi");
}

/* Semihosting SYS_EXIT_EXTENDED: QEMU (-semihosting-config enable=on) exits with status. The
 * svc is intercepted by QEMU; without semihosting it lands in our own vector, which sees
 * powering_off and falls back to PSCI. */
static void semihost_exit(int status)
{
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };
	register uint32_t r0 __asm__("r0") = SEMIHOST_SYS_EXIT_EXTENDED;
	register uint32_t *r1 __asm__("r1") = block;

	__asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
}

__noreturn void arch_poweroff(int status)
{
	__asm__ volatile("cpsid aif" ::: "memory");
	if (status != 0 && !powering_off) {
		powering_off = true;
		semihost_exit(status);
	}
	powering_off = true;
	arm_psci_system_off();
}

uint64_t arch_cycles(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrrc p15, 1, %Q0, %R0, c14" : "=r"(v) : : "memory");
	return v;
}

uint64_t arch_cycles_hz(void)
{
	uint32_t hz = arm_read_cntfrq();

	return hz ? hz : 62500000u;
}

size_t arch_random_seed(uint8_t *buf, size_t len, const char **name)
{
	(void)buf;
	(void)len;
	*name = "none";
	return 0;
}

/* WFI with IRQs masked still wakes on a pending interrupt; unmasking then takes it (the
 * handler runs on this stack: trap_dispatch with ti->user false), and masking again closes the
 * window. An interrupt that came before the WFI ends it at once, so none is slept through. */
void arch_idle(void)
{
	__asm__ volatile("dsb\n\twfi\n\tcpsie i\n\tisb\n\tcpsid i" ::: "memory");
}

/* Linux's HWCAP_* for ARM (asm/hwcap.h). */
#define HWCAP_HALF (1u << 1)
#define HWCAP_THUMB (1u << 2)
#define HWCAP_FAST_MULT (1u << 4)
#define HWCAP_VFP (1u << 6)
#define HWCAP_EDSP (1u << 7)
#define HWCAP_NEON (1u << 12)
#define HWCAP_VFPv3 (1u << 13)
#define HWCAP_TLS (1u << 15)
#define HWCAP_VFPv4 (1u << 16)
#define HWCAP_IDIVA (1u << 17)
#define HWCAP_IDIVT (1u << 18)
#define HWCAP_VFPD32 (1u << 19)
#define HWCAP_LPAE (1u << 20)

/* What Linux 6.1 reports on this Cortex-A15 (its /proc/cpuinfo: half thumb fastmult vfp edsp
 * neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae), minus evtstrm: the timer event stream is not
 * enabled here. No SWP: Linux drops it where LDREX/STREX exist. VFP/NEON are enabled for user
 * mode at boot (arch/arm/trap.c); TLS is the TPIDRURO set_tls writes. */
void arch_exec_info(bool compat, struct arch_exec_info *out)
{
	(void)compat;
	out->hwcap = HWCAP_HALF | HWCAP_THUMB | HWCAP_FAST_MULT | HWCAP_VFP | HWCAP_EDSP |
		     HWCAP_NEON | HWCAP_VFPv3 | HWCAP_TLS | HWCAP_VFPv4 | HWCAP_IDIVA |
		     HWCAP_IDIVT | HWCAP_VFPD32 | HWCAP_LPAE;
	out->hwcap2 = 0;            /* AES/SHA/CRC32 are ARMv8 only */
	out->platform = "v7l";      /* elf_platform: "v7" and the byte order */
	out->minsigstksz = 0;       /* 32-bit ARM's ARCH_DLINFO passes none */
	out->stack_align = 1;       /* no arch_align_stack on 32-bit ARM */
	out->read_implies_exec = true; /* arm_elf_read_implies_exec: no PT_GNU_STACK */
}
