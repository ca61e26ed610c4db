/* Power, time, entropy and idle on the QEMU PC (shared by i386 and x86_64). */
#include <arch/console.h>
#include <arch/cpu.h>
#include <arch/exec.h>
#include <asm/io.h>
#include <asm/pic.h>
#include <asm/processor.h>
#include <lib/fmt.h>

const char arch_machine_name[] = "pc";
const char arch_cpu_name[] = "max";

/* SeaBIOS programs the PIIX4/ICH9 ACPI PM block at 0x600 on both `pc` and `q35`. */
#define ACPI_PM1A_CNT 0x604
#define ACPI_PM1_SLP_EN_S5 0x2000 /* SLP_EN with QEMU's S5 SLP_TYP (0) */
#define ACPI_PM_TMR 0x608
#define ACPI_PM_TMR_HZ 3579545u
#define ACPI_PM_TMR_MASK 0xFFFFFFu /* 24 bits at least; the FADT may promise 32 */

#define ISA_DEBUG_EXIT_PORT 0xF4

static __noreturn void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

static void console_puts_raw(const char *s)
{
	while (*s)
		arch_console_putc(*s++);
}

__noreturn void arch_poweroff(int status)
{
	cli();
	if (status == 0) {
		/* ACPI S5: QEMU exits with status 0, but not synchronously. */
		outw(ACPI_PM1A_CNT, ACPI_PM1_SLP_EN_S5);
		halt_forever();
	}
	/* isa-debug-exit turns the value into QEMU's exit status (status << 1) | 1: say which, so
	 * that the console and the shell's $? agree. Written raw, not through printk, as this also
	 * ends an exception raised while printing. */
	char line[80];

	snprintf(line, sizeof(line),
		 "rndbits: QEMU exits with status %d (isa-debug-exit: %d << 1 | 1)\r\n",
		 (status << 1) | 1, status);
	console_puts_raw(line);
	outl(ISA_DEBUG_EXIT_PORT, (uint32_t)status);
	/* Still here: the device is missing. An ACPI power-off would report success, so halt
	 * instead and let the caller's timeout tell a failure from a clean exit. */
	console_puts_raw("\r\nrndbits: no isa-debug-exit device at 0xf4; halted instead of exiting "
			 "with a failure status\r\n");
	halt_forever();
}

uint64_t arch_cycles(void)
{
	return rdtsc();
}

static uint32_t pm_timer_read(void)
{
	return inl(ACPI_PM_TMR) & ACPI_PM_TMR_MASK;
}

static uint32_t pm_timer_since(uint32_t start)
{
	return (pm_timer_read() - start) & ACPI_PM_TMR_MASK;
}

/* A missing PM timer reads as a constant (all ones): give up after a generous number of reads
 * instead of spinning forever. */
static bool pm_timer_ticks(void)
{
	uint32_t first = pm_timer_read();

	for (unsigned i = 0; i < 100000; i++) {
		if (pm_timer_read() != first)
			return true;
	}
	return false;
}

/* TSC ticks over a window of the 3.579545 MHz ACPI PM timer. Under emulation both the TSC (the
 * host's own) and the PM timer (QEMU's virtual clock) follow host time, so the result is the host
 * TSC's rate; a preempted vCPU thread shows up as error, hence the window of a few milliseconds. */
#define CALIBRATION_PM_TICKS (ACPI_PM_TMR_HZ / 500) /* 2 ms */

static uint64_t calibrate_tsc_against_pm_timer(void)
{
	uint32_t t0 = pm_timer_read();
	uint32_t start;
	uint64_t tsc0, tsc1;
	uint32_t elapsed;

	/* Start on a tick edge so that the window is not short by up to one tick. */
	while ((start = pm_timer_read()) == t0)
		;
	tsc0 = rdtsc();
	while ((elapsed = pm_timer_since(start)) < CALIBRATION_PM_TICKS)
		;
	tsc1 = rdtsc();
	return (tsc1 - tsc0) * ACPI_PM_TMR_HZ / elapsed;
}

/* Used only when no PM timer answers: a figure, not a measurement. */
#define ASSUMED_TSC_HZ 1000000000ull

static uint64_t tsc_hz;

uint64_t arch_cycles_hz(void)
{
	if (!tsc_hz)
		tsc_hz = pm_timer_ticks() ? calibrate_tsc_against_pm_timer() : ASSUMED_TSC_HZ;
	return tsc_hz;
}

/* One hardware random word; false when the DRNG had nothing (retry, as Intel advises). */
static bool rdrand_word(unsigned long *v)
{
	bool ok;
	__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
	return ok;
}

static bool rdseed_word(unsigned long *v)
{
	bool ok;
	__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
	return ok;
}

static bool cpu_has_rdseed(void)
{
	struct cpuid_regs r;

	if (cpuid_max_leaf() < 7)
		return false;
	cpuid_count(7, 0, &r);
	return r.ebx & X86_CPUID7_EBX_RDSEED;
}

static bool cpu_has_rdrand(void)
{
	struct cpuid_regs r;

	cpuid_count(1, 0, &r);
	return r.ecx & X86_CPUID1_ECX_RDRAND;
}

#define RNG_RETRIES 10

static size_t fill_from(bool (*word)(unsigned long *), uint8_t *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		unsigned long v;
		unsigned tries = 0;

		while (!word(&v)) {
			if (++tries == RNG_RETRIES)
				return done;
		}
		for (size_t i = 0; i < sizeof(v) && done < len; i++, v >>= 8)
			buf[done++] = (uint8_t)v;
	}
	return done;
}

size_t arch_random_seed(uint8_t *buf, size_t len, const char **name)
{
	/* RDSEED draws from the conditioned entropy source itself; RDRAND from the DRBG after it. */
	if (cpu_has_rdseed()) {
		*name = "rdseed";
		return fill_from(rdseed_word, buf, len);
	}
	if (cpu_has_rdrand()) {
		*name = "rdrand";
		return fill_from(rdrand_word, buf, len);
	}
	*name = "none";
	return 0;
}

/* `sti; hlt` is atomic for interrupts (STI's shadow), so a tick or a byte that arrived after the
 * caller's last check still wakes us; the interrupt is taken right there, on the caller's stack,
 * and dispatched (ti->user false) before `cli`. The kernel otherwise runs with interrupts off. */
void arch_idle(void)
{
	if (x86_idle_wakes_on_irq)
		__asm__ volatile("sti; hlt; cli" : : : "memory");
	else
		cpu_relax();
}

/* AT_HWCAP is CPUID leaf 1's EDX, as Linux's ELF_HWCAP (boot_cpu_data's CPUID_1_EDX word).
 * AT_HWCAP2 would say RING3MWAIT or FSGSBASE; neither is enabled here. AT_MINSIGSTKSZ follows
 * Linux's init_sigframe_size for an FPU whose user state is FXSAVE's 512 bytes (this kernel
 * does not turn XSAVE on): the largest signal frame, the 32-bit fsave area kept for ia32
 * tasks, and their alignment padding, rounded to 16. */
void arch_exec_info(bool compat, struct arch_exec_info *out)
{
	struct cpuid_regs r;
	bool ia32 = compat || sizeof(uintptr_t) == 4;

	cpuid_count(1, 0, &r);
	out->hwcap = r.edx;
	out->hwcap2 = 0;
	out->platform = ia32 ? "i686" : "x86_64";
	/* x86_64: rt_sigframe 440 + 15 + fxsave 512 + ia32's fsave header 112 + 63 -> 1152;
	 * i386: sigframe_ia32 732 + 15 + 512 + 112 + 63 -> 1440. */
	out->minsigstksz = sizeof(uintptr_t) == 8 ? 1152 : 1440;
	out->stack_align = 16;
	/* elf_read_implies_exec: 32-bit programs without PT_GNU_STACK (never 64-bit, since 5.8). */
	out->read_implies_exec = ia32;
}
