/* panic: the kernel's one way to stop on an error it cannot recover from. Part of the kernel's
 * core (with printk, the console, the random generator, sysctl and the boot record), which every
 * subsystem, mm/ included, may call. */
#include <arch/cpu.h>
#include <kernel/console.h>
#include <kernel/kernel.h>

__noreturn void panic(const char *fmt, ...)
{
	va_list ap;

	/* A panic inside `cmd > FILE` still reaches the console. */
	console_capture_abandon();
	printk("rndbits: kernel panic: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	arch_poweroff(EXIT_PANIC);
}
