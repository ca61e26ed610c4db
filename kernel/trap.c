/* The generic exception dispatcher. The arch has already decoded the exception into a
 * struct trap_info; here we decide what it means for the kernel. */
#include <arch/cpu.h>
#include <arch/mmu.h>
#include <arch/trap.h>
#include <kernel/console.h>
#include <kernel/cred.h>
#include <mm/fault.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>
#include <kernel/shell.h>
#include <kernel/signal.h>
#include <kernel/trap.h>

static const char *const kind_names[] = {
	[TRAP_SYSCALL] = "syscall",     [TRAP_PAGE_FAULT] = "page fault",
	[TRAP_ALIGNMENT] = "alignment", [TRAP_UNDEFINED] = "undefined instruction",
	[TRAP_BREAKPOINT] = "breakpoint", [TRAP_IRQ] = "interrupt",
	[TRAP_OTHER] = "exception", [TRAP_ARITHMETIC] = "divide error",
};

/* Report an exception the kernel cannot survive, with the page-table walk of the fault address
 * so the cause is visible without a debugger, then power off with a status tests can see. */
static __noreturn void kernel_exception(const struct trap_info *ti)
{
	console_capture_abandon();
	printk("\nrndbits: unexpected kernel exception: %s (%s)\n", ti->name,
	       ti->kind < ARRAY_SIZE(kind_names) ? kind_names[ti->kind] : "?");
	printk("  pc %p sp %p syndrome %#llx vector %u\n", (void *)ti->pc, (void *)ti->sp,
	       (unsigned long long)ti->syndrome, ti->vector);
	if (ti->has_fault_addr) {
		struct pt_walk_result w;
		uintptr_t va = ti->fault_addr;

		printk("  fault address %p, %s access, %s fault", (void *)va,
		       trap_access_name(ti->access), ti->permission ? "permission" : "translation");
		if (ti->level >= 0)
			printk(" at level %d", ti->level);
		printk("\n  page-table walk of %p:\n", (void *)va);
		pt_walk(arch_pt_root_for(arch_kernel_root(), va), va, &w);
		pt_print_walk(va, &w);
	}
	printk("rndbits: powering off (status %d)\n", EXIT_EXCEPTION);
	arch_poweroff(EXIT_EXCEPTION);
}

/* The kernel runs with interrupts masked: an interrupt arrives from user mode, or inside
 * arch_idle (ti->user false), where the handler must not switch tasks. The tick wakes sleepers
 * and ends slices; the console's receive line may be a Ctrl-C for the foreground job (one typed
 * before the job entered user mode still waits in the UART and raises the line then). */
static void handle_irq(const struct trap_info *ti)
{
	if (ti->irq == IRQ_TIMER)
		sched_tick();
	else if (ti->irq == IRQ_CONSOLE)
		proc_console_interrupt();
}

void trap_dispatch(struct trap_info *ti)
{
	if (ti->kind == TRAP_IRQ) {
		handle_irq(ti);
		if (!ti->user)
			return;
	} else if (!ti->user) {
		kernel_exception(ti);
	} else if (ti->kind == TRAP_SYSCALL) {
		syscall_dispatch(ti);
	} else {
		user_fault(ti);
	}
	/* Back to user mode: another task's turn if the slice is over, then this one's signals. */
	sched_preempt();
	signal_deliver(ti->frame);
}

/* `crash`: a deliberate kernel exception, so tests can see the report and the exit status on
 * every preset. Each kind is something the page tables or the CPU must refuse. */
static char crash_data[64] __aligned(16);
/* A user-half address (the kernel's own tables map nothing there); a variable, so the compiler
 * does not reason about the constant. */
static volatile uintptr_t crash_address = 0x10;

static int cmd_crash(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	/* Stopping the machine is root's to do, as reboot(2) is CAP_SYS_BOOT's on Linux. */
	if (current_uid() != UID_ROOT) {
		printk("crash: %s\n", strerror(EPERM));
		return 1;
	}
	if (strcmp(what, "read") == 0) {
		printk("crash: reading %p\n", (void *)crash_address);
		return *(volatile int *)crash_address;
	}
	if (strcmp(what, "write") == 0) {
		printk("crash: writing to kernel text at %p\n", (void *)__text_start);
		*(volatile char *)__text_start = 0;
		return 0;
	}
	if (strcmp(what, "exec") == 0) {
		if (arch_pt_geometry()->always_granted & PT_X) {
			printk("crash: %s cannot refuse execution (no NX bit); not trying\n",
			       arch_pt_geometry()->name);
			return 1;
		}
		printk("crash: executing kernel data at %p\n", (void *)crash_data);
		((void (*)(void))(uintptr_t)crash_data)();
		return 0;
	}
	if (strcmp(what, "undef") == 0) {
		printk("crash: executing an undefined instruction\n");
		__builtin_trap();
	}
	printk("usage: crash read|write|exec|undef\n");
	return 2;
}
SHELL_COMMAND(crash, "crash", "crash read|write|exec|undef  a deliberate kernel exception (for tests)",
	      cmd_crash);
