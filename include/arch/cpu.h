/* Arch interface: CPU, power, time and hardware entropy. Every arch implements every function
 * here (a missing one fails at link time). */
#ifndef RNDBITS_ARCH_CPU_H
#define RNDBITS_ARCH_CPU_H

#include <lib/types.h>

/* Leave QEMU with this exit status. 0 must make QEMU exit with status 0; a non-zero status must
 * make QEMU exit non-zero (x86: isa-debug-exit gives (status << 1) | 1; arm: semihosting). */
__noreturn void arch_poweroff(int status);

/* Free-running counter and its frequency in Hz (CNTVCT/CNTFRQ, TSC with a calibrated or
 * assumed frequency). Used for timing, progress estimates and seed mixing. */
uint64_t arch_cycles(void);
uint64_t arch_cycles_hz(void);

/* Fill buf with up to len bytes of hardware entropy (RNDR, RDRAND/RDSEED). Returns the number of
 * bytes written (0 if the CPU has none) and sets *name to the source's name ("rndr", "rdrand"). */
size_t arch_random_seed(uint8_t *buf, size_t len, const char **name);

/* Wait until something may have happened (an interrupt, or simply return): the console's idle
 * loop calls this between polls so that an idle guest does not spin the host. */
void arch_idle(void);

/* One-line names for `uname -a` and the boot log: the QEMU machine and CPU in use. */
extern const char arch_machine_name[];
extern const char arch_cpu_name[];

#endif
