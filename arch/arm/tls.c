/* ARM's set_tls (private call 0xf0005): the thread pointer is TPIDRURO, which user mode reads
 * (mrc p15, 0, rX, c13, c0, 3) and cannot write. It is per task: arch_switch_to saves and loads
 * it, a new process starts with 0 (arch_task_create_user, arch_task_reset_user_state), a forked
 * one with its parent's. */
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

/* Nothing to do: the thread IDs are the task's own (arch_task_create_user zeroes them). */
void arch_tls_reset(void)
{
}
