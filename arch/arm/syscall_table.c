/* ARMv7 has one ABI, the EABI (arch/arm/syscall_table_eabi.c). */
#include <kernel/syscall.h>

extern const struct syscall_table syscall_table_eabi;

const struct syscall_table *arch_syscall_table(bool compat)
{
	(void)compat;
	return &syscall_table_eabi;
}
