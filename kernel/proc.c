/* Processes: for now only the end of a faulting task. */
#include <arch/trap.h>
#include <kernel.h>
#include <trap.h>

__noreturn void user_fault(struct trap_info *ti)
{
	printk("[pid %d] segfault at %lx ip %lx (%s)\n", 1, (unsigned long)ti->fault_addr,
	       (unsigned long)ti->pc, trap_access_name(ti->access));
	arch_user_exit(128 + 11);
}
