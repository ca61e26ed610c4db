/* System calls: Linux's numbers per ISA (asm/unistd.h) and Linux's semantics, for the small set
 * rndbits' user programs need. */
#include <arch/trap.h>
#include <kernel.h>
#include <lib/errno.h>
#include <trap.h>

#include <asm/unistd.h>

/* The number of syscall `name` for the calling task's ABI. */
#ifdef CONFIG_COMPAT
#define SYSNR(ti, name) ((ti)->compat ? COMPAT_NR_##name : NR_##name)
#else
#define SYSNR(ti, name) NR_##name
#endif

/* Exit status of a task that ended normally, in wait(2) terms: the low byte of the value. */
static __noreturn void sys_exit(long status)
{
	arch_user_exit(status & 0xff);
}

void syscall_dispatch(struct trap_info *ti)
{
	struct trap_frame *f = ti->frame;
	unsigned long nr = arch_syscall_nr(f);
	long ret = -ENOSYS;

	if (nr == SYSNR(ti, exit) || nr == SYSNR(ti, exit_group))
		sys_exit((long)arch_syscall_arg(f, 0));
	arch_syscall_set_return(f, ret);
}
