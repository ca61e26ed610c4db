/* The i386 system-call table: i386 processes, and ia32 compat tasks on x86_64 (int $0x80).
 * Numbers from asm/unistd_32.h, handlers from the generic list, set_thread_area from tls.c. */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

#include <asm/unistd_32.h>

#define SYSCALL_ABI_BITS 32
#define SYSCALL(name, fn) [__NR_##name] = { #name, fn },
static const struct syscall_entry i386_calls[] = {
#include <kernel/syscall_list.h>
	SYSCALL(set_thread_area, sys_set_thread_area)
	SYSCALL(get_thread_area, sys_get_thread_area)
};
#undef SYSCALL

const struct syscall_table syscall_table_i386 = {
	.abi = "i386",
	.entries = i386_calls,
	.size = ARRAY_SIZE(i386_calls),
	.uts_machine = "i686",
};
