/* Kernel-wide services: printing, panics and the entry point the arch boot code calls. */
#ifndef RNDBITS_KERNEL_H
#define RNDBITS_KERNEL_H

#include <lib/types.h>

struct boot_info;

/* Generic kernel entry: called once by the arch's early boot code, on the kernel stack, with the
 * MMU on (boot mapping) and the console usable. Never returns. */
__noreturn void kernel_main(struct boot_info *bi);

/* Formatted output to the console (lib/fmt.c conversions). Returns the characters written. */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

/* The boot information kernel_main was given (command line, seed, memory map). */
const struct boot_info *kernel_boot_info(void);

/* arch_cycles() read as kernel_main began and as the boot finished (just before the ready line):
 * how long the boot took as the machine itself counts it (`bench boot`). */
struct boot_times {
	uint64_t main_cycles;
	uint64_t ready_cycles;
};
const struct boot_times *kernel_boot_times(void);

/* Fatal kernel error: prints "rndbits: kernel panic: ..." and powers off with EXIT_PANIC. */
__noreturn void panic(const char *fmt, ...) __printf(1, 2);

/* QEMU exit statuses, so a test can tell a clean power-off from a crash without reading output.
 * (On x86 the isa-debug-exit device turns status s into (s << 1) | 1.) */
enum {
	EXIT_OK = 0,
	EXIT_PANIC = 3,      /* panic() */
	EXIT_EXCEPTION = 4,  /* unexpected exception in the kernel */
	EXIT_SELFTEST = 5,   /* an in-guest self-test failed */
};

#endif
