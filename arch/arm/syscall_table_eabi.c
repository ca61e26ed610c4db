/* The ARM EABI's system-call table: ARMv7 processes, and AArch32 compat tasks on arm64 (which
 * compiles this file too, see arch/arm64/arch.cmake). Numbers from asm/unistd.h, handlers from
 * the generic list, and ARM's private calls from 0xf0000 (set_tls: arch tls.c). */
#include <kernel/kernel.h>
#include <kernel/syscall.h>

#include "include/asm/unistd.h" /* by path: on arm64 <asm/unistd.h> is AArch64's */

#define SYSCALL_ABI_BITS 32
#define SYSCALL(name, fn) [__NR_##name] = { #name, fn },
static const struct syscall_entry eabi_calls[] = {
#include <kernel/syscall_list.h>
};
#undef SYSCALL

static const struct syscall_entry eabi_private_calls[] = {
	[__ARM_NR_breakpoint - __ARM_NR_BASE] = { "breakpoint", NULL },
	[__ARM_NR_cacheflush - __ARM_NR_BASE] = { "cacheflush", NULL },
	[__ARM_NR_usr26 - __ARM_NR_BASE] = { "usr26", NULL },
	[__ARM_NR_usr32 - __ARM_NR_BASE] = { "usr32", NULL },
	[__ARM_NR_set_tls - __ARM_NR_BASE] = { "set_tls", sys_arm_set_tls },
	[__ARM_NR_get_tls - __ARM_NR_BASE] = { "get_tls", sys_arm_get_tls },
};

const struct syscall_table syscall_table_eabi = {
	.abi = "eabi",
	.entries = eabi_calls,
	.size = ARRAY_SIZE(eabi_calls),
	.private_entries = eabi_private_calls,
	.private_base = __ARM_NR_BASE,
	.private_size = ARRAY_SIZE(eabi_private_calls),
	.uts_machine = "armv7l",
};
