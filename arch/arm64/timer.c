/* The scheduler's tick on arm64: the generic timer's virtual timer (CNTV, PPI 27 on QEMU's virt
 * board) through the GIC, re-armed at every tick. */
#include <arch/task.h>
#include <kernel/kernel.h>
#include <asm/arm64.h>

#define CNTV_CTL_ENABLE (1u << 0)

static uint64_t tick_interval; /* counter ticks between timer interrupts */

void arch_timer_start(unsigned hz)
{
	tick_interval = (read_sysreg(cntfrq_el0) & 0xffffffffUL) / hz;
	write_sysreg(cntv_tval_el0, tick_interval);
	write_sysreg(cntv_ctl_el0, CNTV_CTL_ENABLE);
	isb();
	a64_gic_enable_ppi(A64_TIMER_PPI);
}

/* The timer's line is level-sensitive and stays high until the compare value moves: move it a
 * tick ahead (ticks missed while interrupts were masked are not made up). */
void a64_timer_rearm(void)
{
	write_sysreg(cntv_tval_el0, tick_interval);
	isb();
}
