/* i386 has one ABI (arch/x86/syscall_table_i386.c). */
#include <kernel/syscall.h>

extern const struct syscall_table syscall_table_i386;

const struct syscall_table *arch_syscall_table(bool compat)
{
	(void)compat;
	return &syscall_table_i386;
}
