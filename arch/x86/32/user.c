/* i386 user mode: ring 3 through iret, system calls through `int 0x80` with Linux's i386
 * convention (eax = number; ebx, ecx, edx, esi, edi, ebp = arguments; eax = result). */
#include <arch/trap.h>
#include <asm/processor.h>
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

/* The x87/SSE state a task starts with (FXSAVE layout): FCW 0x37F and MXCSR 0x1F80, every
 * exception masked, all registers zero. */
static const uint8_t fpu_init_state[512] __aligned(16) = {
	[0] = 0x7F, [1] = 0x03,   /* FCW */
	[24] = 0x80, [25] = 0x1F, /* MXCSR */
};
static bool fpu_has_fxsr;

/* The kernel is built with -mgeneral-regs-only and never touches x87/SSE registers, so nothing
 * is saved around traps; processes run one at a time and each starts from fpu_init_state, so
 * none sees the registers of the one before. SSE is enabled where the CPU has it (i686 user
 * code may use it when built for it). */
void x86_fpu_init(void)
{
	struct cpuid_regs r;

	write_cr0((read_cr0() & ~(uintptr_t)(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP | X86_CR0_NE);
	cpuid_count(1, 0, &r);
	if ((r.edx & X86_CPUID1_EDX_FXSR) && (r.edx & X86_CPUID1_EDX_SSE)) {
		write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
		fpu_has_fxsr = true;
	}
}

static void fpu_reset(void)
{
	if (fpu_has_fxsr)
		__asm__ volatile("fxrstor %0" : : "m"(fpu_init_state) : "memory");
	else
		__asm__ volatile("fninit" : : : "memory");
}

/* An i386 kernel has no compat mode: its native tasks are the 32-bit ones. */
long arch_user_run(uintptr_t entry, uintptr_t sp, bool compat)
{
	if (compat)
		return -ENOEXEC;
	fpu_reset();
	return x86_enter_user(entry, sp);
}

__noreturn void arch_user_exit(long value)
{
	x86_leave_user(value);
}
