/* What Linux 6.1 prints on 32-bit ARM when a page fault kills a user task: nothing unless the
 * kernel was built with CONFIG_DEBUG_USER and booted with user_debug= (Linux's UDBG_* bits:
 * 8 for SIGSEGV, 16 for SIGBUS). Debian's armhf kernel is built without it, so by default
 * (user_debug=0) rndbits prints nothing either; `user_debug=8` (or 31) on the kernel command
 * line switches on __do_user_fault's report (arch/arm/mm/fault.c): the cut line, the fault
 * line, show_pte, and __show_regs (arch/arm/kernel/process.c). docs/faults.md. */
#include <arch/memory.h>
#include <kernel/boot.h>
#include <mm/fault.h>
#include <kernel/kernel.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <asm/cp15.h>
#include <asm/trap_frame.h>
#include "arm.h"

#define FSR_LNX_PF (1u << 31)
#define UDBG_SEGV (1u << 3)
#define UDBG_BUS (1u << 4)

static unsigned user_debug;

/* user_debug=N, read once at boot as Linux's __setup handler (get_option: C notation). */
void arm_user_debug_setup(void)
{
	const struct boot_info *bi = kernel_boot_info();
	static const char key[] = "user_debug=";
	const char *p = bi ? bi->cmdline : "", *word;
	size_t len;

	while ((len = cmdline_next_word(&p, &word)) != 0) {
		char value[24];
		uint64_t v;

		if (len <= sizeof(key) - 1 || strncmp(word, key, sizeof(key) - 1) != 0 ||
		    len - (sizeof(key) - 1) >= sizeof(value))
			continue;
		memcpy(value, word + sizeof(key) - 1, len - (sizeof(key) - 1));
		value[len - (sizeof(key) - 1)] = '\0';
		if (parse_u64(value, NULL, 0, &v))
			user_debug = (unsigned)v;
	}
}

/* show_pte for the short-descriptor tables: Linux's pgd entry is a pair of hardware first-level
 * entries (2 MiB), and pgd_val is the first of the pair. rndbits keeps no Linux software PTEs, so
 * the `*pte=`/`*ppte=` part Linux adds for a page table is left out (docs/faults.md). */
static void show_pte(const struct user_signal *us, uint32_t addr)
{
	const uint32_t *l1 = __va(us->mm->root);

	printk("[%08x] *pgd=%08x\n", (unsigned)addr, (unsigned)l1[(addr >> 20) & ~1u]);
}

static const char *processor_mode(unsigned cpsr)
{
	static const char *const modes[16] = {
		"USER_32", "FIQ_32", "IRQ_32", "SVC_32", "UK4_32", "UK5_32", "MON_32", "ABT_32",
		"UK8_32", "UK9_32", "HYP_32", "UND_32", "UK12_32", "UK13_32", "UK14_32", "SYS_32",
	};
	return modes[cpsr & 0xf];
}

/* __show_regs for a user frame. %pS of a user address has no symbol: Linux prints 0x%lx. The
 * domain register is the one the CPU holds (Linux with CONFIG_CPU_SW_DOMAIN_PAN prints the
 * value it would restore for user mode). No backtrace follows: Linux's unwinder
 * (CONFIG_ARM_UNWIND, as Debian builds it) finds no unwind table for a user pc and prints
 * nothing. */
static void show_regs(const struct user_signal *us)
{
	const struct trap_frame *f = us->ti->frame;
	unsigned r[13], pc = f->pc, lr = f->lr, sp = f->sp, psr = f->cpsr, dacr = arm_read_dacr();

	for (unsigned i = 0; i < 13; i++)
		r[i] = f->r[i];
	fault_print_task_info(us, "Generic DT based system");
	printk("PC is at 0x%x\n", pc);
	printk("LR is at 0x%x\n", lr);
	printk("pc : [<%08x>]    lr : [<%08x>]    psr: %08x\n", pc, lr, psr);
	printk("sp : %08x  ip : %08x  fp : %08x\n", sp, r[12], r[11]);
	printk("r10: %08x  r9 : %08x  r8 : %08x\n", r[10], r[9], r[8]);
	printk("r7 : %08x  r6 : %08x  r5 : %08x  r4 : %08x\n", r[7], r[6], r[5], r[4]);
	printk("r3 : %08x  r2 : %08x  r1 : %08x  r0 : %08x\n", r[3], r[2], r[1], r[0]);
	printk("Flags: %c%c%c%c  IRQs o%s  FIQs o%s  Mode %s  ISA %s  Segment %s\n",
	       psr & (1u << 31) ? 'N' : 'n', psr & (1u << 30) ? 'Z' : 'z',
	       psr & (1u << 29) ? 'C' : 'c', psr & (1u << 28) ? 'V' : 'v',
	       psr & (1u << 7) ? "ff" : "n", psr & (1u << 6) ? "ff" : "n", processor_mode(psr),
	       psr & (1u << 5) ? "Thumb" : "ARM", (dacr & (3u << 2)) ? "user" : "none");
	printk("Control: %08x  Table: %08x  DAC: %08x\n", (unsigned)arm_read_sctlr(),
	       (unsigned)arm_read_ttbr0(), dacr);
}

void arch_show_unhandled_signal(const struct user_signal *us)
{
	const struct trap_info *ti = us->ti;
	bool page_fault = ti->kind == TRAP_PAGE_FAULT && ti->has_fault_addr;

	if (!page_fault || !((user_debug & UDBG_SEGV && us->sig == SIGSEGV) ||
			     (user_debug & UDBG_BUS && us->sig == SIGBUS)))
		return;
	/* The FSR as the abort handler got it: do_PrefetchAbort marks an instruction fetch's
	 * IFSR with FSR_LNX_PF (bit 31). */
	uint32_t fsr = (uint32_t)ti->syndrome | (ti->vector == ARM_VEC_PABT ? FSR_LNX_PF : 0);

	printk("8<--- cut here ---\n");
	printk("%s: unhandled page fault (%d) at 0x%08x, code 0x%03x\n", us->comm, us->sig,
	       (unsigned)ti->fault_addr, (unsigned)fsr);
	if (ti->fault_addr < us->mm->geo.task_size)
		show_pte(us, (uint32_t)ti->fault_addr);
	show_regs(us);
}
