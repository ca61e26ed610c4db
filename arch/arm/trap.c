/* ARMv7-A exceptions: decode the saved frame and the fault status registers (short-descriptor
 * format, Arm ARM B3.13.3) into struct trap_info for the generic dispatcher, and the Linux EABI
 * syscall convention (svc #0, r7 = number, r0..r6 arguments, result in r0). */
#include <arch/trap.h>
#include <asm/cp15.h>
#include <asm/trap_frame.h>
#include "arm.h"

extern char arm_vectors[];
bool arm_powering_off(void);
void arm_user_debug_setup(void); /* show_signal.c */
__noreturn void arm_psci_system_off(void);

#define CPACR_CP10_CP11_FULL (0xfu << 20)
#define FPEXC_EN (1u << 30)

/* User programs may use VFP and Advanced SIMD, as on Linux (the Cortex-A15 has VFPv4-D32 and
 * NEON). The kernel is built soft-float and never touches them, so there is no state to save
 * around a trap; arch_switch_to saves and loads each task's (entry.S), eagerly. */
static void vfp_enable(void)
{
	arm_write_cpacr(arm_read_cpacr() | CPACR_CP10_CP11_FULL);
	arm_isb();
	__asm__ volatile(".fpu neon\n\tvmsr fpexc, %0" : : "r"(FPEXC_EN) : "memory");
}

void arch_traps_init(void)
{
	arm_write_vbar((uint32_t)(uintptr_t)arm_vectors);
	arm_isb();
	arm_gic_init();
	vfp_enable();
	arm_user_debug_setup();
}

/* FSR[10,3:0] */
static unsigned fsr_status(uint32_t fsr)
{
	return ((fsr >> 6) & 0x10) | (fsr & 0xf);
}

struct fault_status {
	unsigned fs;
	enum trap_kind kind;
	bool permission;
	int level; /* 0 = L1 (section), 1 = L2 (page), -1 = not a translation-table fault */
	const char *what;
};

static const struct fault_status fault_statuses[] = {
	{ 0x01, TRAP_ALIGNMENT, false, -1, "alignment fault" },
	{ 0x02, TRAP_BREAKPOINT, false, -1, "debug event" },
	{ 0x03, TRAP_PAGE_FAULT, false, 0, "access flag fault (section)" },
	{ 0x06, TRAP_PAGE_FAULT, false, 1, "access flag fault (page)" },
	{ 0x05, TRAP_PAGE_FAULT, false, 0, "translation fault (section)" },
	{ 0x07, TRAP_PAGE_FAULT, false, 1, "translation fault (page)" },
	{ 0x09, TRAP_PAGE_FAULT, true, 0, "domain fault (section)" },
	{ 0x0b, TRAP_PAGE_FAULT, true, 1, "domain fault (page)" },
	{ 0x0d, TRAP_PAGE_FAULT, true, 0, "permission fault (section)" },
	{ 0x0f, TRAP_PAGE_FAULT, true, 1, "permission fault (page)" },
	{ 0x04, TRAP_OTHER, false, -1, "instruction cache maintenance fault" },
	{ 0x08, TRAP_OTHER, false, -1, "synchronous external abort" },
	{ 0x0c, TRAP_OTHER, false, 0, "external abort on table walk (L1)" },
	{ 0x0e, TRAP_OTHER, false, 1, "external abort on table walk (L2)" },
	{ 0x16, TRAP_OTHER, false, -1, "asynchronous external abort" },
};

static const struct fault_status *lookup_fault(uint32_t fsr)
{
	static const struct fault_status unknown = { 0, TRAP_OTHER, false, -1, "unknown fault" };
	unsigned fs = fsr_status(fsr);

	for (unsigned i = 0; i < ARRAY_SIZE(fault_statuses); i++)
		if (fault_statuses[i].fs == fs)
			return &fault_statuses[i];
	return &unknown;
}

static void decode_abort(struct trap_info *ti, uint32_t fsr, uint32_t far, bool data)
{
	const struct fault_status *st = lookup_fault(fsr);

	ti->syndrome = fsr;
	ti->kind = st->kind;
	ti->permission = st->permission;
	ti->level = st->level;
	/* FAR is UNKNOWN for debug events (BKPT) and asynchronous aborts. */
	ti->has_fault_addr = st->kind != TRAP_BREAKPOINT && fsr_status(fsr) != 0x16;
	ti->fault_addr = ti->has_fault_addr ? far : 0;
	if (data)
		ti->access = (fsr & (1u << 11)) ? ACCESS_WRITE : ACCESS_READ;
	else
		ti->access = ACCESS_EXEC;
}

static void decode_svc(struct trap_info *ti, const struct trap_frame *f)
{
	ti->name = "Supervisor Call";
	/* A kernel svc is never a syscall; the semihosting call only gets here when QEMU runs
	 * without semihosting. */
	ti->kind = ti->user ? TRAP_SYSCALL : TRAP_OTHER;
	ti->syndrome = f->r[7];
}

void arm_trap_entry(struct trap_frame *f, unsigned vec)
{
	struct trap_info ti = { 0 };

	if (arm_powering_off())
		arm_psci_system_off();
	ti.frame = f;
	ti.user = (f->cpsr & ARM_MODE_MASK) == ARM_MODE_USR;
	ti.pc = f->pc;
	ti.sp = f->sp;
	ti.level = -1;
	ti.vector = vec;
	switch (vec) {
	case ARM_VEC_UNDEF:
		ti.name = "Undefined Instruction";
		ti.kind = TRAP_UNDEFINED;
		break;
	case ARM_VEC_SVC:
		decode_svc(&ti, f);
		f->orig_r0 = f->r[0]; /* the result overwrites r0: arch_syscall_restart's */
		break;
	case ARM_VEC_PABT:
		ti.name = "Prefetch Abort";
		decode_abort(&ti, arm_read_ifsr(), arm_read_ifar(), false);
		break;
	case ARM_VEC_DABT:
		ti.name = "Data Abort";
		decode_abort(&ti, arm_read_dfsr(), arm_read_dfar(), true);
		if (!ti.user && arm_is_stack_guard(ti.fault_addr))
			ti.name = "Data Abort (kernel stack overflow)";
		break;
	case ARM_VEC_IRQ:
		ti.name = "IRQ";
		ti.kind = TRAP_IRQ;
		ti.irq = arm_irq_acknowledge(); /* before the dispatcher, which may switch tasks */
		break;
	default:
		ti.name = "FIQ";
		ti.kind = TRAP_OTHER;
		break;
	}
	trap_dispatch(&ti);
}

/* Linux EABI: the number in r7, arguments in r0..r6, the result in r0. */
unsigned long arch_syscall_nr(const struct trap_frame *f)
{
	return f->r[7];
}

unsigned long arch_syscall_arg(const struct trap_frame *f, unsigned i)
{
	return i < 7 ? f->r[i] : 0;
}

void arch_syscall_set_return(struct trap_frame *f, long value)
{
	f->r[0] = (uint32_t)value;
}

