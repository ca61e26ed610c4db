/* arch_prctl: the x86_64 thread pointer is the FS base (MSR_FS_BASE), GS's base the other one
 * a program may set. The kernel never uses %fs or %gs, so the values stay the user's while it
 * is in the kernel; arch_switch_to moves them with the task (arch/x86/64/task.c). */
#include <asm/cpu_64.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

long sys_arch_prctl(const struct syscall_args *a)
{
	struct mm *mm = &a->p->mm;
	uint64_t addr = a->a[1], v;

	switch ((unsigned)a->a[0]) {
	case ARCH_SET_FS:
	case ARCH_SET_GS:
		if (addr >= mm->geo.task_size) /* Linux: -EPERM beyond TASK_SIZE_MAX */
			return -EPERM;
		wrmsr((unsigned)a->a[0] == ARCH_SET_FS ? MSR_FS_BASE : MSR_GS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
	case ARCH_GET_GS:
		v = rdmsr((unsigned)a->a[0] == ARCH_GET_FS ? MSR_FS_BASE : MSR_GS_BASE);
		return copy_to_user(mm, addr, &v, sizeof(v)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}
