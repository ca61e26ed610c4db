/* Exception decoding (ESR_EL1 into struct trap_info), interrupts, and syscall registers. */
#include <arch/cpu.h>
#include <arch/trap.h>
#include <arch/memory.h>
#include <kernel/kernel.h>
#include <asm/arm64.h>
#include <asm/pgtable-hwdef.h>
#include <asm/trap_frame.h>

/* Vector slots: four groups (EL1t, EL1h, EL0 AArch64, EL0 AArch32) of sync/IRQ/FIQ/SError. */
#define SLOT_KIND(slot) ((slot) & 3)
#define SLOT_FROM_EL0(slot) ((slot) >= 8)
#define SLOT_AARCH32(slot) ((slot) >= 12)
enum { SLOT_SYNC, SLOT_IRQ, SLOT_FIQ, SLOT_SERROR };

#define ESR_EC(esr) (((esr) >> 26) & 0x3f)
#define ESR_ISS(esr) ((esr) & 0x1ffffff)
#define ISS_ABORT_FSC(iss) ((iss) & 0x3f)
#define ISS_ABORT_WNR (1u << 6)
#define ISS_ABORT_FNV (1u << 10)

#define CPACR_FPEN_NO_TRAP (3u << 20)
#define CNTKCTL_EL0VCTEN (1u << 1)

void a64_trap_entry(struct trap_frame *f, unsigned slot);
__noreturn void a64_stack_overflow(struct trap_frame *f, unsigned slot);
extern uintptr_t a64_kstack_limit; /* task.c */

/* Exceptions taken from EL1 that are being handled right now: a second one means the handler
 * itself faulted, and printk may be what is broken. */
static unsigned kernel_trap_depth;

void arch_traps_init(void)
{
	write_sysreg(vbar_el1, (uint64_t)(uintptr_t)a64_vectors);
	/* User programs may use FP/SIMD; the kernel is built with -mgeneral-regs-only. */
	write_sysreg(cpacr_el1, CPACR_FPEN_NO_TRAP);
	/* ... and may read the virtual counter, as on Linux. */
	write_sysreg(cntkctl_el1, CNTKCTL_EL0VCTEN);
	isb();
}

static const char *sync_name(unsigned ec)
{
	switch (ec) {
	case 0x00: return "Unknown/Undefined Instruction";
	case 0x01: return "WFI/WFE";
	case 0x03: case 0x04: case 0x05: case 0x06: case 0x0c: return "Coprocessor Access";
	case 0x07: return "FP/SIMD Access";
	case 0x0e: return "Illegal Execution State";
	case 0x11: case 0x15: return "SVC";
	case 0x16: return "HVC";
	case 0x17: return "SMC";
	case 0x18: return "MSR/MRS";
	case 0x20: case 0x21: return "Instruction Abort";
	case 0x22: return "PC Alignment Fault";
	case 0x24: case 0x25: return "Data Abort";
	case 0x26: return "SP Alignment Fault";
	case 0x28: case 0x2c: return "FP Exception";
	case 0x2f: return "SError";
	case 0x30: case 0x31: return "Breakpoint";
	case 0x32: case 0x33: return "Software Step";
	case 0x34: case 0x35: return "Watchpoint";
	case 0x38: return "BKPT";
	case 0x3c: return "BRK";
	default: return "Unknown Exception Class";
	}
}

static enum trap_kind sync_kind(unsigned ec)
{
	switch (ec) {
	case 0x11: case 0x15:
		return TRAP_SYSCALL;
	case 0x20: case 0x21: case 0x24: case 0x25:
		return TRAP_PAGE_FAULT; /* refined by the fault status code */
	case 0x22: case 0x26:
		return TRAP_ALIGNMENT;
	case 0x00: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07: case 0x0c: case 0x0e:
	case 0x16: case 0x17: case 0x18:
		return TRAP_UNDEFINED;
	case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x38: case 0x3c:
		return TRAP_BREAKPOINT;
	default:
		return TRAP_OTHER;
	}
}

/* The Arm ARM numbers levels from the full 4-level tree; the walker counts from the root. */
static int generic_level(unsigned hw_level)
{
	int level = (int)hw_level - (4 - A64_PT_LEVELS);

	return level < 0 ? -1 : level;
}

static void decode_abort(unsigned ec, uint32_t iss, uint64_t far, struct trap_info *ti)
{
	unsigned fsc = ISS_ABORT_FSC(iss);
	bool instruction = ec == 0x20 || ec == 0x21;

	ti->has_fault_addr = !(iss & ISS_ABORT_FNV);
	ti->fault_addr = (uintptr_t)far;
	ti->access = instruction ? ACCESS_EXEC : (iss & ISS_ABORT_WNR) ? ACCESS_WRITE : ACCESS_READ;
	if (fsc <= 0x0f) {
		/* 0x00-03 address size, 0x04-07 translation, 0x08-0b access flag,
		 * 0x0c-0f permission; the low two bits are the level. */
		ti->kind = TRAP_PAGE_FAULT;
		ti->permission = fsc >= 0x0c;
		ti->level = generic_level(fsc & 3);
	} else if (fsc == 0x21) {
		ti->kind = TRAP_ALIGNMENT;
		ti->name = "Alignment Fault";
	} else {
		ti->kind = TRAP_OTHER; /* external abort, TLB conflict, ... */
	}
}

static void decode(struct trap_frame *f, unsigned slot, struct trap_info *ti)
{
	static const char *const async_names[] = { "Sync", "IRQ", "FIQ", "SError" };
	unsigned ec = ESR_EC(f->esr);

	*ti = (struct trap_info){ 0 };
	ti->user = SLOT_FROM_EL0(slot);
	ti->compat = SLOT_AARCH32(slot);
	ti->pc = (uintptr_t)f->pc;
	ti->sp = (uintptr_t)(ti->compat ? (f->x[13] & 0xffffffffUL) : f->sp);
	ti->level = -1;
	ti->syndrome = f->esr;
	ti->vector = slot;
	ti->frame = f;
	if (SLOT_KIND(slot) != SLOT_SYNC) {
		ti->name = async_names[SLOT_KIND(slot)];
		ti->kind = SLOT_KIND(slot) == SLOT_SERROR ? TRAP_OTHER : TRAP_IRQ;
		if (SLOT_KIND(slot) != SLOT_SERROR)
			ti->syndrome = 0; /* ESR is not updated for interrupts */
		return;
	}
	ti->name = sync_name(ec);
	ti->kind = sync_kind(ec);
	if (ti->kind == TRAP_PAGE_FAULT)
		decode_abort(ec, (uint32_t)ESR_ISS(f->esr), f->far, ti);
	else if (ec == 0x22) {
		ti->has_fault_addr = true;
		ti->fault_addr = (uintptr_t)f->far;
		ti->access = ACCESS_EXEC;
	}
}

static __noreturn void die_raw(const char *why, struct trap_frame *f, unsigned slot)
{
	a64_raw_puts("\nrndbits: ");
	a64_raw_puts(why);
	a64_raw_puts(": slot ");
	a64_raw_puthex(slot);
	a64_raw_puts(" ESR ");
	a64_raw_puthex(f->esr);
	a64_raw_puts(" ELR ");
	a64_raw_puthex(f->pc);
	a64_raw_puts(" FAR ");
	a64_raw_puthex(f->far);
	a64_raw_puts(" SP ");
	a64_raw_puthex(f->sp);
	a64_raw_puts("\n");
	arch_poweroff(EXIT_EXCEPTION);
}

#define A64_HLT_SEMIHOSTING 0xd45e0000u /* hlt #0xf000 */

/* QEMU without -semihosting-config treats the semihosting hlt as undefined: skip it, so that
 * arch_poweroff falls back to PSCI instead of faulting forever. */
static bool skip_missing_semihosting(struct trap_frame *f, unsigned slot)
{
	if (SLOT_KIND(slot) != SLOT_SYNC || ESR_EC(f->esr) != 0x00 || f->pc < PAGE_OFFSET ||
	    *(const uint32_t *)(uintptr_t)f->pc != A64_HLT_SEMIHOSTING)
		return false;
	f->pc += 4;
	return true;
}

void a64_trap_entry(struct trap_frame *f, unsigned slot)
{
	struct trap_info ti;
	bool from_kernel = !SLOT_FROM_EL0(slot);

	if (from_kernel && skip_missing_semihosting(f, slot))
		return;
	if (from_kernel && kernel_trap_depth++ > 0)
		die_raw("exception inside the exception handler", f, slot);
	decode(f, slot, &ti);
	if (SLOT_KIND(slot) == SLOT_IRQ) {
		/* Acknowledged and ended before the dispatcher, which may switch tasks. */
		unsigned intid = a64_gic_acknowledge();

		if (intid == A64_TIMER_PPI) {
			a64_timer_rearm();
			ti.irq = IRQ_TIMER;
		} else if (intid == VIRT_UART_IRQ) {
			ti.irq = IRQ_CONSOLE;
		}
		a64_gic_end(intid);
	} else if (ti.kind == TRAP_SYSCALL) {
		f->orig_x0 = f->x[0]; /* arch_syscall_restart's */
	}
	trap_dispatch(&ti);
	if (from_kernel)
		kernel_trap_depth--;
}

__noreturn void a64_stack_overflow(struct trap_frame *f, unsigned slot)
{
	static bool reported;
	struct trap_info ti;

	if (reported)
		die_raw("exception while reporting a kernel stack overflow", f, slot);
	reported = true;
	kernel_trap_depth = 1;
	printk("\nrndbits: kernel stack overflow: sp %#lx is below the task's kernel stack (%p)\n",
	       (unsigned long)f->sp, (void *)(a64_kstack_limit - TF_SIZE));
	decode(f, slot, &ti);
	trap_dispatch(&ti);
	arch_poweroff(EXIT_EXCEPTION);
}

static bool frame_is_compat(const struct trap_frame *f)
{
	return (f->pstate & PSR_MODE32) != 0;
}

/* Linux: AArch64 x8 = number, x0..x5 = arguments; AArch32 (EABI) r7 = number, r0..r6. */
unsigned long arch_syscall_nr(const struct trap_frame *f)
{
	return frame_is_compat(f) ? (unsigned long)(uint32_t)f->x[7] : (unsigned long)f->x[8];
}

unsigned long arch_syscall_arg(const struct trap_frame *f, unsigned i)
{
	if (frame_is_compat(f))
		return i <= 6 ? (unsigned long)(uint32_t)f->x[i] : 0;
	return i <= 5 ? (unsigned long)f->x[i] : 0;
}

void arch_syscall_set_return(struct trap_frame *f, long value)
{
	f->x[0] = frame_is_compat(f) ? (uint64_t)(uint32_t)value : (uint64_t)value;
}

