/* i386 user mode: ring 3 through iret, system calls through `int 0x80` with Linux's i386
 * convention (eax = number; ebx, ecx, edx, esi, edi, ebp = arguments; eax = result). */
#include <arch/trap.h>
#include <asm/trap_frame.h>
#include <asm/x86_32.h>
#include <lib/errno.h>

unsigned long arch_syscall_nr(const struct trap_frame *f)
{
	return f->eax;
}

unsigned long arch_syscall_arg(const struct trap_frame *f, unsigned i)
{
	switch (i) {
	case 0: return f->ebx;
	case 1: return f->ecx;
	case 2: return f->edx;
	case 3: return f->esi;
	case 4: return f->edi;
	case 5: return f->ebp;
	default: return 0;
	}
}

void arch_syscall_set_return(struct trap_frame *f, long value)
{
	f->eax = (uint32_t)value;
}

/* An i386 kernel has no compat mode: its native tasks are the 32-bit ones. */
long arch_user_run(uintptr_t entry, uintptr_t sp, bool compat)
{
	if (compat)
		return -ENOEXEC;
	return x86_enter_user(entry, sp);
}

__noreturn void arch_user_exit(long value)
{
	x86_leave_user(value);
}
