/* Thread pointers on arm64. AArch64 tasks set TPIDR_EL0 themselves (the kernel never touches
 * it after zeroing it at user entry). AArch32 compat tasks ask with ARM's set_tls (0xf0005):
 * their TPIDRURO is TPIDRRO_EL0, read-only to EL0. */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

long sys_arm_set_tls(const struct syscall_args *a)
{
	__asm__ volatile("msr tpidrro_el0, %0" : : "r"(a->a[0] & 0xffffffffu));
	return 0;
}

long sys_arm_get_tls(const struct syscall_args *a)
{
	uint64_t v;

	(void)a;
	__asm__ volatile("mrs %0, tpidrro_el0" : "=r"(v));
	return (long)v;
}

void arch_tls_reset(void)
{
}
