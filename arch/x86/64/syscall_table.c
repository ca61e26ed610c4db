/* x86_64's system-call tables: x86_64's own (numbers from asm/unistd_64.h, handlers from the
 * generic list, arch_prctl from tls.c) and, for ia32 compat tasks, i386's
 * (arch/x86/syscall_table_i386.c). */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

#include <asm/unistd_64.h>

#define SYSCALL_ABI_BITS 64
#define SYSCALL(name, fn) [__NR_##name] = { #name, fn },
static const struct syscall_entry x86_64_calls[] = {
#include <kernel/syscall_list.h>
	SYSCALL(arch_prctl, sys_arch_prctl)
	SYSCALL(set_thread_area, NULL) /* 64-bit tasks use arch_prctl */
	SYSCALL(get_thread_area, NULL)
};
#undef SYSCALL

static const struct syscall_table syscall_table_x86_64 = {
	.abi = "x86_64",
	.entries = x86_64_calls,
	.size = ARRAY_SIZE(x86_64_calls),
	.uts_machine = "x86_64",
	.clone_child_tid_arg = 3, /* clone(flags, stack, parent_tid, child_tid, tls) */
};

extern const struct syscall_table syscall_table_i386;

const struct syscall_table *arch_syscall_table(bool compat)
{
	return compat ? &syscall_table_i386 : &syscall_table_x86_64;
}
