/* i386 tasks' signal frames on the i386 kernel: the trap frame's registers go through the
 * shared i386 frame code (arch/x86/signal_ia32.c). The segment registers are in the trap frame
 * here and the exit path reloads them, so sigreturn accepts only selectors a user may load
 * without faulting in the kernel: the null selector, USER_DS and a set_thread_area slot that
 * holds a descriptor (Linux lets the reload fault and sends SIGSEGV). */
#include <arch/signal.h>
#include <asm/segment.h>
#include <asm/signal_ia32.h>
#include <asm/trap_frame.h>
#include <kernel/proc.h>
#include <lib/errno.h>
#include <mm/mm.h>

extern const uint8_t vdso_i386_start[];

uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat)
{
	(void)compat;
	return f->user_esp;
}

static void to_ia32(const struct trap_frame *f, struct ia32_regs *r)
{
	*r = (struct ia32_regs){
		.eax = f->eax, .ebx = f->ebx, .ecx = f->ecx, .edx = f->edx, .esi = f->esi,
		.edi = f->edi, .ebp = f->ebp, .esp = f->user_esp, .eip = f->eip,
		.eflags = f->eflags, .cs = f->cs, .ss = f->user_ss, .ds = f->ds, .es = f->es,
		.fs = f->fs, .gs = f->gs,
	};
}

static void from_ia32(struct trap_frame *f, const struct ia32_regs *r)
{
	f->eax = r->eax, f->ebx = r->ebx, f->ecx = r->ecx, f->edx = r->edx;
	f->esi = r->esi, f->edi = r->edi, f->ebp = r->ebp, f->user_esp = r->esp;
	f->eip = r->eip, f->eflags = r->eflags, f->cs = r->cs, f->user_ss = r->ss;
	f->ds = r->ds, f->es = r->es, f->fs = r->fs, f->gs = r->gs;
}

static bool loadable_data_selector(uint32_t sel)
{
	uint32_t idx = sel >> 3;

	if ((sel & ~3u) == 0 || sel == USER_DS)
		return true;
	if ((sel & 7) != 3 || idx < GDT_ENTRY_TLS_MIN ||
	    idx >= GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES)
		return false;
	return (*x86_gdt_tls_slot(idx) >> 47) & 1; /* present */
}

int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d)
{
	struct ia32_regs r;

	(void)compat;
	to_ia32(f, &r);
	if (ia32_setup_frame(&r, d, vdso_i386_start, USER_CS, USER_DS))
		return -EFAULT;
	from_ia32(f, &r);
	return 0;
}

int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *out)
{
	struct ia32_regs r;

	(void)compat;
	to_ia32(f, &r);
	if (ia32_restore_frame(&r, rt, out))
		return -EFAULT;
	if (r.cs != USER_CS || r.ss != USER_DS || !loadable_data_selector(r.ds) ||
	    !loadable_data_selector(r.es) || !loadable_data_selector(r.fs) ||
	    !loadable_data_selector(r.gs))
		return -EFAULT;
	from_ia32(f, &r);
	return 0;
}
