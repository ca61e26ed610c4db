/* ARM's set_tls (private call 0xf0005): the thread pointer is TPIDRURO, which user mode reads
 * (mrc p15, 0, rX, c13, c0, 3) and cannot write. arch_user_run zeroes it for each process. */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

long sys_arm_set_tls(const struct syscall_args *a)
{
	__asm__ volatile("mcr p15, 0, %0, c13, c0, 3" : : "r"((uint32_t)a->a[0]));
	return 0;
}

long sys_arm_get_tls(const struct syscall_args *a)
{
	uint32_t v;

	(void)a;
	__asm__ volatile("mrc p15, 0, %0, c13, c0, 3" : "=r"(v));
	return (long)v;
}

void arch_tls_reset(void)
{
}
