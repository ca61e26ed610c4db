/* i386 user mode: system calls through `int 0x80` with Linux's i386
 * convention (eax = number; ebx, ecx, edx, esi, edi, ebp = arguments; eax = result). */
#include <arch/trap.h>
#include <asm/fpu.h>
#include <asm/processor.h>
#include <asm/trap_frame.h>
#include <asm/x86_32.h>

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

/* The kernel is built with -mgeneral-regs-only and never touches x87/SSE registers, so nothing
 * is saved around traps; arch_switch_to moves them between tasks (asm/fpu.h). SSE is enabled
 * where the CPU has it (i686 user code may use it when built for it). */
void x86_fpu_init(void)
{
	struct cpuid_regs r;

	write_cr0((read_cr0() & ~(uintptr_t)(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP | X86_CR0_NE);
	cpuid_count(1, 0, &r);
	if ((r.edx & X86_CPUID1_EDX_FXSR) && (r.edx & X86_CPUID1_EDX_SSE)) {
		write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
		x86_fpu_fxsr = true;
	}
}
