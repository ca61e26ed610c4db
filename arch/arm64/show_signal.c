/* What Linux 6.1 prints on arm64 when a trap kills a user task, native or AArch32 compat:
 * arm64_show_signal (arch/arm64/kernel/traps.c), one line
 *   NAME[PID]: unhandled exception: EC-CLASS, ESR 0x<16 digits>, WHAT in FILE[START+SIZE]
 * then __show_regs (arch/arm64/kernel/process.c): the task line, the hardware name, pstate
 * decoded, pc, lr, sp and the general registers three to a line. Only while
 * debug.exception-trace (show_unhandled_signals) is set: 0 by default on arm64 6.1. */
#include <mm/fault.h>
#include <kernel/kernel.h>
#include <lib/fmt.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/sysctl.h>
#include <asm/trap_frame.h>
#include "signal_fmt.h"

int show_unhandled_signals = 0;
SYSCTL_INT_MINMAX(exception_trace, "debug.exception-trace", &show_unhandled_signals, 0644,
		  -0x7fffffff - 1, 0x7fffffff, 0);

#define ESR_EC_SHIFT 26
#define ESR_EC(esr) (((esr) >> ESR_EC_SHIFT) & 0x3f)
#define ESR_EC_MASK (0x3full << ESR_EC_SHIFT)
#define ESR_IL (1ull << 25)
#define ESR_CM (1ull << 8)
#define ESR_WNR (1ull << 6)
#define ESR_FSC_LEVEL0_TRANSLATION 0x04
#define EC_IABT_LOW 0x20
#define EC_PC_ALIGN 0x22
#define EC_DABT_LOW 0x24
#define EC_SP_ALIGN 0x26

/* set_thread_esr: for an abort at an address above the task's TASK_SIZE (the kernel's half),
 * keep only what the program knows already and claim a level 0 translation fault, so the ESR
 * shown says nothing about the kernel's tables. */
static uint64_t sanitized_esr(const struct user_signal *us, uint64_t esr)
{
	if (us->ti->fault_addr < us->mm->geo.task_size)
		return esr;
	if (ESR_EC(esr) == EC_DABT_LOW)
		return (esr & (ESR_EC_MASK | ESR_IL | ESR_CM | ESR_WNR)) | ESR_FSC_LEVEL0_TRANSLATION;
	return (esr & (ESR_EC_MASK | ESR_IL)) | ESR_FSC_LEVEL0_TRANSLATION;
}

/* What the handler Linux runs for this trap calls it, and the ESR it records (0: none). */
static const char *describe(const struct user_signal *us, uint64_t *esr, char *name_buf,
			    size_t name_size)
{
	const struct trap_info *ti = us->ti;
	unsigned ec = ESR_EC(ti->syndrome);

	*esr = 0;
	if (ec == EC_IABT_LOW || ec == EC_DABT_LOW) {
		*esr = sanitized_esr(us, ti->syndrome);
		return arm64_fault_name(ti->syndrome, name_buf, name_size);
	}
	if (ec == EC_PC_ALIGN || ec == EC_SP_ALIGN) { /* do_sp_pc_abort */
		*esr = ti->syndrome;
		return "SP/PC alignment exception";
	}
	if (us->sig == SIGTRAP) /* brk_handler / aarch32_break_handler: send_user_sigtrap */
		return "User debug trap";
	if (us->sig == SIGILL) /* do_undefinstr: force_signal_inject, no ESR */
		return "undefined instruction";
	return "illegal memory access";
}

/* __show_regs for a user-mode frame. An AArch32 task's lr and sp are its r14 and r13, and
 * only r0-r12 are listed. */
static void show_regs(const struct user_signal *us)
{
	const struct trap_frame *f = us->ti->frame;
	bool compat = f->pstate & PSR_MODE32;
	int top = compat ? 12 : 29;

	/* QEMU's virt board, the machine of every arm64 preset: its device tree has no model,
	 * so Linux names it by the root's compatible string. */
	fault_print_task_info(us, "linux,dummy-virt (DT)");
	char line[ARM64_LINE_MAX];

	arm64_format_pstate(line, sizeof(line), f->pstate);
	printk("%s\n", line);
	printk("pc : %016llx\n", (unsigned long long)f->pc);
	printk("lr : %016llx\n", (unsigned long long)(compat ? f->x[14] : f->x[30]));
	printk("sp : %016llx\n", (unsigned long long)(compat ? f->x[13] : f->sp));
	for (int i = top; i >= 0;) {
		i = arm64_format_reg_line(line, sizeof(line), f->x, i);
		printk("%s\n", line);
	}
}

void arch_show_unhandled_signal(const struct user_signal *us)
{
	char in[FAULT_VMA_ADDR_MAX], name[ARM64_LINE_MAX];
	uint64_t esr;

	if (!show_unhandled_signals)
		return;
	const char *what = describe(us, &esr, name, sizeof(name));
	fault_vma_addr(us, us->ti->pc, in, sizeof(in));
	printk("%s[%d]: unhandled exception: ", us->comm, us->pid);
	if (esr)
		printk("%s, ESR 0x%016llx, ", arm64_esr_class(esr), (unsigned long long)esr);
	printk("%s%s\n", what, in);
	show_regs(us);
}
