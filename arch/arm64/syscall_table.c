/* arm64's system-call tables: AArch64's (numbers from asm/unistd.h, handlers from the generic
 * list) and, for AArch32 compat tasks, the ARM EABI's (arch/arm/syscall_table_eabi.c). */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

#include <asm/unistd.h>

#define SYSCALL_ABI_BITS 64
#define SYSCALL(name, fn) [__NR_##name] = { #name, fn },
static const struct syscall_entry aarch64_calls[] = {
#include <kernel/syscall_list.h>
};
#undef SYSCALL

static const struct syscall_table syscall_table_aarch64 = {
	.abi = "aarch64",
	.entries = aarch64_calls,
	.size = ARRAY_SIZE(aarch64_calls),
	.uts_machine = "aarch64",
};

extern const struct syscall_table syscall_table_eabi;

const struct syscall_table *arch_syscall_table(bool compat)
{
	return compat ? &syscall_table_eabi : &syscall_table_aarch64;
}
