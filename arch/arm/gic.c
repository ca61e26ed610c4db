/* The GICv2 of QEMU virt (distributor and CPU interface at ARM_GICD_VA/ARM_GICC_VA) and the
 * generic timer's virtual timer (CNTV), which makes the scheduler's tick. Two interrupts are
 * routed: the virtual timer, PPI 11 (interrupt ID 27), and the PL011's receive line, SPI 1
 * (ID 33). Both are level-sensitive: the timer's stays up until CNTV_CVAL moves past the
 * counter, the UART's while received bytes wait. */
#include <arch/cpu.h>
#include <arch/task.h>
#include <arch/trap.h>
#include <asm/cp15.h>
#include <kernel/kernel.h>
#include "arm.h"

#define GICD_CTLR 0x000
#define GICD_ISENABLER(n) (0x100 + 4 * (n))
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define GICC_IAR 0x00c
#define GICC_EOIR 0x010
#define GIC_INTID_MASK 0x3ff
#define GIC_INTID_TIMER 27
#define GIC_INTID_UART 33
#define GIC_PRIORITY 0xa0

#define CNTV_CTL_ENABLE (1u << 0)

volatile uint32_t arm_timer_ticks;
static uint64_t timer_period;
static uint64_t timer_deadline;

static inline void gic_write32(uintptr_t base, unsigned off, uint32_t v)
{
	*(volatile uint32_t *)(base + off) = v;
}

static inline void gic_write8(uintptr_t base, unsigned off, uint8_t v)
{
	*(volatile uint8_t *)(base + off) = v;
}

static void gic_enable(unsigned intid)
{
	gic_write8(ARM_GICD_VA, GICD_IPRIORITYR + intid, GIC_PRIORITY);
	/* Read-only for PPIs (each CPU has its own); an SPI goes to this CPU. */
	gic_write8(ARM_GICD_VA, GICD_ITARGETSR + intid, 0x01);
	gic_write32(ARM_GICD_VA, GICD_ISENABLER(intid / 32), 1u << (intid % 32));
}

/* The kernel keeps CPSR.I set: an interrupt is taken from user mode or inside arch_idle. */
void arm_gic_init(void)
{
	gic_enable(GIC_INTID_UART);
	gic_write32(ARM_GICD_VA, GICD_CTLR, 1);
	gic_write32(ARM_GICC_VA, GICC_PMR, 0xf0);
	gic_write32(ARM_GICC_VA, GICC_CTLR, 1);
}

static void cntv_write_cval(uint64_t v)
{
	__asm__ volatile("mcrr p15, 3, %Q0, %R0, c14" : : "r"(v) : "memory");
}

static void cntv_write_ctl(uint32_t v)
{
	__asm__ volatile("mcr p15, 0, %0, c14, c3, 1" : : "r"(v) : "memory");
	arm_isb();
}

/* The next deadline one period after the last, so ticks do not drift; after a long stall
 * (the guest paused), one period from now rather than a burst of late ticks. */
static void timer_rearm(void)
{
	uint64_t now = arch_cycles();

	timer_deadline += timer_period;
	if (timer_deadline <= now)
		timer_deadline = now + timer_period;
	cntv_write_cval(timer_deadline);
}

void arch_timer_start(unsigned hz)
{
	timer_period = arch_cycles_hz() / hz;
	timer_deadline = arch_cycles();
	timer_rearm();
	cntv_write_ctl(CNTV_CTL_ENABLE);
	gic_enable(GIC_INTID_TIMER);
}

/* Take the signalled interrupt, quiet its source if it is the timer (the line drops once the
 * deadline moves ahead), and end it at once: the UART's line drops only when the console has
 * read the received bytes, which trap_dispatch does. */
unsigned arm_irq_acknowledge(void)
{
	uint32_t iar = *(volatile uint32_t *)(ARM_GICC_VA + GICC_IAR);
	unsigned intid = iar & GIC_INTID_MASK;

	switch (intid) {
	case GIC_INTID_TIMER:
		timer_rearm();
		arm_timer_ticks++;
		gic_write32(ARM_GICC_VA, GICC_EOIR, iar);
		return IRQ_TIMER;
	case GIC_INTID_UART:
		gic_write32(ARM_GICC_VA, GICC_EOIR, iar);
		return IRQ_CONSOLE;
	default: /* 1020-1023: spurious, nothing to end */
		if (intid < 1020)
			gic_write32(ARM_GICC_VA, GICC_EOIR, iar);
		return IRQ_NONE;
	}
}
