/* What Linux 6.1 prints on arm64 when a trap kills a user task, native or AArch32 compat:
 * arm64_show_signal (arch/arm64/kernel/traps.c), one line
 *   NAME[PID]: unhandled exception: EC-CLASS, ESR 0x<16 digits>, WHAT in FILE[START+SIZE]
 * then __show_regs (arch/arm64/kernel/process.c): the task line, the hardware name, pstate
 * decoded, pc, lr, sp and the general registers three to a line. Only while
 * debug.exception-trace (show_unhandled_signals) is set: 0 by default on arm64 6.1. */
#include <fault.h>
#include <kernel.h>
#include <lib/fmt.h>
#include <mm.h>
#include <proc.h>
#include <sysctl.h>
#include <asm/trap_frame.h>

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

/* esr_class_str for the classes a user trap that kills can have here. */
static const char *esr_class(uint64_t esr)
{
	switch (ESR_EC(esr)) {
	case 0x00: return "Unknown/Uncategorized";
	case EC_IABT_LOW: return "IABT (lower EL)";
	case EC_PC_ALIGN: return "PC Alignment";
	case EC_DABT_LOW: return "DABT (lower EL)";
	case EC_SP_ALIGN: return "SP Alignment";
	case 0x30: return "Breakpoint (lower EL)";
	case 0x32: return "Software Step (lower EL)";
	case 0x38: return "BKPT (AArch32)";
	case 0x3c: return "BRK (AArch64)";
	default: return "UNRECOGNIZED EC";
	}
}

/* fault_info[].name: the data/instruction fault status code's description. */
static const char *fault_name(uint64_t esr)
{
	static const char *const levels[] = { "level 0", "level 1", "level 2", "level 3" };
	static char buf[40];
	unsigned fsc = esr & 0x3f;
	unsigned level = fsc & 3;

	switch (fsc >> 2) {
	case 0: /* address size */
		if (level == 0)
			return "ttbr address size fault";
		snprintf(buf, sizeof(buf), "%s address size fault", levels[level]);
		return buf;
	case 1:
		snprintf(buf, sizeof(buf), "%s translation fault", levels[level]);
		return buf;
	case 2:
		if (level == 0)
			return "unknown 8";
		snprintf(buf, sizeof(buf), "%s access flag fault", levels[level]);
		return buf;
	case 3:
		if (level == 0)
			return "unknown 12";
		snprintf(buf, sizeof(buf), "%s permission fault", levels[level]);
		return buf;
	}
	switch (fsc) {
	case 0x10: return "synchronous external abort";
	case 0x11: return "synchronous tag check fault";
	case 0x21: return "alignment fault";
	case 0x30: return "TLB conflict abort";
	case 0x31: return "Unsupported atomic hardware update fault";
	default:
		snprintf(buf, sizeof(buf), "unknown %u", fsc);
		return buf;
	}
}

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
static const char *describe(const struct user_signal *us, uint64_t *esr)
{
	const struct trap_info *ti = us->ti;
	unsigned ec = ESR_EC(ti->syndrome);

	*esr = 0;
	if (ec == EC_IABT_LOW || ec == EC_DABT_LOW) {
		*esr = sanitized_esr(us, ti->syndrome);
		return fault_name(ti->syndrome);
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

#define PSR_MODE32 (1u << 4)

static void print_pstate(uint64_t pstate)
{
	static const char *const btypes[] = { "--", "j-", "-c", "jc" };
#define F(bit, on, off) ((pstate & (bit)) ? (on) : (off))
	if (pstate & PSR_MODE32) {
		printk("pstate: %08llx (%c%c%c%c %c %s %s %c%c%c %cDIT %cSSBS)\n",
		       (unsigned long long)pstate, F(1u << 31, 'N', 'n'), F(1u << 30, 'Z', 'z'),
		       F(1u << 29, 'C', 'c'), F(1u << 28, 'V', 'v'), F(1u << 27, 'Q', 'q'),
		       F(1u << 5, "T32", "A32"), F(1u << 9, "BE", "LE"), F(1u << 8, 'A', 'a'),
		       F(1u << 7, 'I', 'i'), F(1u << 6, 'F', 'f'), F(1u << 21, '+', '-'),
		       F(1u << 23, '+', '-'));
		return;
	}
	printk("pstate: %08llx (%c%c%c%c %c%c%c%c %cPAN %cUAO %cTCO %cDIT %cSSBS BTYPE=%s)\n",
	       (unsigned long long)pstate, F(1u << 31, 'N', 'n'), F(1u << 30, 'Z', 'z'),
	       F(1u << 29, 'C', 'c'), F(1u << 28, 'V', 'v'), F(1u << 9, 'D', 'd'),
	       F(1u << 8, 'A', 'a'), F(1u << 7, 'I', 'i'), F(1u << 6, 'F', 'f'),
	       F(1u << 22, '+', '-'), F(1u << 23, '+', '-'), F(1u << 25, '+', '-'),
	       F(1u << 24, '+', '-'), F(1u << 12, '+', '-'), btypes[(pstate >> 10) & 3]);
#undef F
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
	print_pstate(f->pstate);
	printk("pc : %016llx\n", (unsigned long long)f->pc);
	printk("lr : %016llx\n", (unsigned long long)(compat ? f->x[14] : f->x[30]));
	printk("sp : %016llx\n", (unsigned long long)(compat ? f->x[13] : f->sp));
	for (int i = top; i >= 0;) {
		printk("x%-2d: %016llx", i, (unsigned long long)f->x[i]);
		while (i-- % 3)
			printk(" x%-2d: %016llx", i, (unsigned long long)f->x[i]);
		printk("\n");
	}
}

void arch_show_unhandled_signal(const struct user_signal *us)
{
	char in[FAULT_VMA_ADDR_MAX];
	uint64_t esr;

	if (!show_unhandled_signals)
		return;
	const char *what = describe(us, &esr);
	fault_vma_addr(us, us->ti->pc, in, sizeof(in));
	printk("%s[%d]: unhandled exception: ", us->comm, us->pid);
	if (esr)
		printk("%s, ESR 0x%016llx, ", esr_class(esr), (unsigned long long)esr);
	printk("%s%s\n", what, in);
	show_regs(us);
}
