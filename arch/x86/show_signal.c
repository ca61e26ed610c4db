/* What Linux 6.1 prints on x86 (i386 and x86_64, native and ia32 tasks alike) when a trap
 * kills a user process:
 *   a page fault: show_signal_msg (arch/x86/mm/fault.c) and show_opcodes' "Code:" line
 *     (arch/x86/kernel/dumpstack.c);
 *   the other traps: show_signal (arch/x86/kernel/traps.c), "trap <what>" or, for #GP,
 *     "general protection fault"; single-step (#DB) prints nothing.
 * Both only while debug.exception-trace (show_unhandled_signals) is set, 1 by default. */
#include <arch/memory.h>
#include <mm/fault.h>
#include <kernel/kernel.h>
#include <lib/fmt.h>
#include <kernel/sysctl.h>
#include "signal_fmt.h"

int show_unhandled_signals = 1;
SYSCTL_INT_MINMAX(exception_trace, "debug.exception-trace", &show_unhandled_signals, 0644,
		  -0x7fffffff - 1, 0x7fffffff, 1);

/* Intel's vector numbers and what Linux's handler names each trap it reports. */
static const char *trap_description(unsigned vector)
{
	switch (vector) {
	case 0: return "trap divide error";
	case 3: return "trap int3";
	case 4: return "trap overflow";
	case 5: return "trap bounds";
	case 6: return "trap invalid opcode";
	case 10: return "trap invalid TSS";
	case 11: return "trap segment not present";
	case 12: return "trap stack segment";
	case 13: return "general protection fault";
	case 17: return "trap alignment check";
	default: return NULL; /* #DB sends SIGTRAP silently; #MF/#XM (SIGFPE) print nothing */
	}
}

#define X86_VECTOR_PF 14
#define X86_PF_PROT 1u

/* show_opcodes: the 64 bytes around ip, read as copy_code does (user pages already present,
 * nothing faulted in, the whole range below TASK_SIZE_MAX). */
static void show_opcodes(const struct user_signal *us)
{
	uint8_t code[X86_CODE_BYTES];
	uintptr_t prologue = us->ti->pc - X86_CODE_PROLOGUE;
	char line[X86_CODE_LINE_MAX];
	bool readable = prologue < us->ti->pc &&
			user_peek(us->mm, prologue, code, sizeof(code), TASK_SIZE);

	x86_format_code_line(line, sizeof(line), readable ? code : NULL, prologue);
	printk("%s\n", line);
}

void arch_show_unhandled_signal(const struct user_signal *us)
{
	const struct trap_info *ti = us->ti;
	char in[FAULT_VMA_ADDR_MAX];

	if (!show_unhandled_signals)
		return;
	fault_vma_addr(us, ti->pc, in, sizeof(in));
	if (ti->vector == X86_VECTOR_PF) {
		uint64_t error = ti->syndrome;
		/* sanitize_error_code: a user access to a kernel address reads as a protection
		 * fault, so the error code does not tell which kernel pages exist. */
		if (ti->fault_addr >= TASK_SIZE)
			error |= X86_PF_PROT;
		printk("%s[%d]: segfault at %lx ip %0*lx sp %0*lx error %lx%s"
		       " likely on CPU 0 (core 0, socket 0)\n",
		       us->comm, us->pid, (unsigned long)ti->fault_addr,
		       (int)(2 * sizeof(void *)), (unsigned long)ti->pc, (int)(2 * sizeof(void *)),
		       (unsigned long)ti->sp, (unsigned long)error, in);
		show_opcodes(us);
		return;
	}
	const char *what = trap_description(ti->vector);
	if (what)
		printk("%s[%d] %s ip:%lx sp:%lx error:%lx%s\n", us->comm, us->pid, what,
		       (unsigned long)ti->pc, (unsigned long)ti->sp, (unsigned long)ti->syndrome, in);
}
