/* Just enough interrupt controller for the console and the tick: the UART's RX interrupt (SPI 1)
 * and the virtual timer's (PPI 27) are routed to this CPU and the CPU interface raises IRQ for
 * them. The kernel runs with PSTATE.I set, so they are taken from user mode (Ctrl-C stops a
 * program, the tick preempts it) or inside arch_idle, which unmasks around its WFI.
 * QEMU virt has a GICv2 by default and a GICv3 with gic-version=3 (or max); the DTB says which. */
#include <lib/fdt.h>
#include <asm/arm64.h>

#define GICD_CTLR 0x0000
#define GICD_IGROUPR(n) (0x0080 + 4 * (n))
#define GICD_ISENABLER(n) (0x0100 + 4 * (n))
#define GICD_IPRIORITYR 0x0400
#define GICD_ITARGETSR 0x0800
#define GICD_IROUTER(irq) (0x6000 + 8 * (irq))
#define GICD_CTLR_ENABLE_GRP0 (1u << 0)
#define GICD_CTLR_ENABLE_GRP1 (1u << 1)
#define GICD_CTLR_ARE (1u << 4)
#define GICD_CTLR_RWP (1u << 31)

#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define GICC_IAR 0x00c
#define GICC_EOIR 0x010
#define GIC_INTID_SPURIOUS 1023

#define GICR_WAKER 0x0014
#define GICR_SGI_BASE 0x10000 /* the redistributor's second frame: SGIs and PPIs */
#define GICR_IGROUPR0 (GICR_SGI_BASE + 0x0080)
#define GICR_ISENABLER0 (GICR_SGI_BASE + 0x0100)
#define GICR_IPRIORITYR (GICR_SGI_BASE + 0x0400)
#define GICR_WAKER_PROCESSOR_SLEEP (1u << 1)
#define GICR_WAKER_CHILDREN_ASLEEP (1u << 2)

#define IRQ_PRIORITY 0x80
#define PRIORITY_MASK 0xf0

static unsigned gic_version; /* 0: none found */
static bool gic_ready;

static inline volatile uint32_t *reg32(phys_addr_t base, unsigned off)
{
	return (volatile uint32_t *)(IO_ADDRESS(base) + off);
}

static inline volatile uint8_t *reg8(phys_addr_t base, unsigned off)
{
	return (volatile uint8_t *)(IO_ADDRESS(base) + off);
}

/* Shown the "compatible" of the top-level interrupt-controller node(s) by boot_parse_dtb: the
 * first GIC a list names (lists go from the most to the least specific); a GICv2 node wins over
 * a GICv3 one. A select rather than tests: fewer blocks to translate at boot. */
void a64_gic_probe(const struct fdt_item *compatible)
{
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-v3" };
	static const uint8_t version_of[] = { 0, 2, 3 }; /* by index in gics + 1 (-1: none) */
	unsigned v = version_of[fdt_prop_string_index(compatible, gics, ARRAY_SIZE(gics)) + 1];

	gic_version = (v == 2) | (gic_version == 0) ? v : gic_version;
}

/* The frames to map for the GIC the DTB named, as a table: the caller maps them with one call
 * site. GICv2's CPU interface directly follows its distributor: one frame covers both. */
unsigned a64_gic_frames(const struct a64_device_frame **frames)
{
	_Static_assert(VIRT_GICD_PA + VIRT_GICD_SIZE == VIRT_GICC_PA, "GICv2 frames not adjacent");
	_Static_assert(((VIRT_GICD_PA | VIRT_GICD_SIZE | (VIRT_GICD_SIZE + VIRT_GICC_SIZE) |
			 VIRT_GICR_PA | VIRT_GICR_SIZE) & (PAGE_SIZE - 1)) == 0,
		       "GIC frames must be page aligned (mapped as they are)");
	static const struct a64_device_frame v2[] = {
		{ VIRT_GICD_PA, VIRT_GICD_SIZE + VIRT_GICC_SIZE, "GIC distributor and CPU interface" },
	};
	static const struct a64_device_frame v3[] = {
		{ VIRT_GICD_PA, VIRT_GICD_SIZE, "GIC distributor" },
		{ VIRT_GICR_PA, VIRT_GICR_SIZE, "GIC redistributor" },
	};

	if (gic_version == 2) {
		*frames = v2;
		return ARRAY_SIZE(v2);
	}
	if (gic_version == 3) {
		*frames = v3;
		return ARRAY_SIZE(v3);
	}
	return 0;
}

static void route_uart_irq_v2(void)
{
	*reg8(VIRT_GICD_PA, GICD_IPRIORITYR + VIRT_UART_IRQ) = IRQ_PRIORITY;
	*reg8(VIRT_GICD_PA, GICD_ITARGETSR + VIRT_UART_IRQ) = 0x01; /* CPU 0 */
	*reg32(VIRT_GICD_PA, GICD_ISENABLER(VIRT_UART_IRQ / 32)) = 1u << (VIRT_UART_IRQ % 32);
	*reg32(VIRT_GICD_PA, GICD_CTLR) = GICD_CTLR_ENABLE_GRP0;
	*reg32(VIRT_GICC_PA, GICC_PMR) = PRIORITY_MASK;
	*reg32(VIRT_GICC_PA, GICC_CTLR) = 1;
}

static void gicd_wait_rwp(void)
{
	while (*reg32(VIRT_GICD_PA, GICD_CTLR) & GICD_CTLR_RWP)
		;
}

/* QEMU's virt GICv3 runs with security disabled (GICD_CTLR.DS = 1): one Group 1, signalled as
 * IRQ once ICC_IGRPEN1_EL1 is set. */
static void route_uart_irq_v3(void)
{
	*reg32(VIRT_GICD_PA, GICD_CTLR) = GICD_CTLR_ARE;
	gicd_wait_rwp();
	*reg32(VIRT_GICD_PA, GICD_IGROUPR(VIRT_UART_IRQ / 32)) |= 1u << (VIRT_UART_IRQ % 32);
	*reg8(VIRT_GICD_PA, GICD_IPRIORITYR + VIRT_UART_IRQ) = IRQ_PRIORITY;
	*(volatile uint64_t *)(IO_ADDRESS(VIRT_GICD_PA) + GICD_IROUTER(VIRT_UART_IRQ)) = 0;
	*reg32(VIRT_GICD_PA, GICD_ISENABLER(VIRT_UART_IRQ / 32)) = 1u << (VIRT_UART_IRQ % 32);
	*reg32(VIRT_GICD_PA, GICD_CTLR) = GICD_CTLR_ARE | GICD_CTLR_ENABLE_GRP1 | GICD_CTLR_ENABLE_GRP0;
	gicd_wait_rwp();

	*reg32(VIRT_GICR_PA, GICR_WAKER) &= ~GICR_WAKER_PROCESSOR_SLEEP;
	while (*reg32(VIRT_GICR_PA, GICR_WAKER) & GICR_WAKER_CHILDREN_ASLEEP)
		;
	write_sysreg(s3_0_c12_c12_5, read_sysreg(s3_0_c12_c12_5) | 1); /* ICC_SRE_EL1.SRE */
	isb();
	write_sysreg(s3_0_c4_c6_0, PRIORITY_MASK); /* ICC_PMR_EL1 */
	write_sysreg(s3_0_c12_c12_7, 1);           /* ICC_IGRPEN1_EL1 */
	isb();
}

void a64_gic_init(void)
{
	if (gic_version == 2)
		route_uart_irq_v2();
	else if (gic_version == 3)
		route_uart_irq_v3();
	else
		return;
	dsb(sy);
	gic_ready = true;
}

bool a64_gic_ready(void)
{
	return gic_ready;
}

/* A private peripheral interrupt (the timer's): banked per CPU, in the distributor on GICv2 and
 * in the redistributor's SGI frame on GICv3. */
void a64_gic_enable_ppi(unsigned intid)
{
	if (gic_version == 2) {
		*reg8(VIRT_GICD_PA, GICD_IPRIORITYR + intid) = IRQ_PRIORITY;
		*reg32(VIRT_GICD_PA, GICD_ISENABLER(0)) = 1u << intid;
	} else if (gic_version == 3) {
		*reg32(VIRT_GICR_PA, GICR_IGROUPR0) |= 1u << intid;
		*reg8(VIRT_GICR_PA, GICR_IPRIORITYR + intid) = IRQ_PRIORITY;
		*reg32(VIRT_GICR_PA, GICR_ISENABLER0) = 1u << intid;
	}
	dsb(sy);
}

/* Take the signalled interrupt: its INTID (GIC_INTID_SPURIOUS if none), to be ended with
 * a64_gic_end once its source is quiet (the timer re-armed). Both routed lines are
 * level-sensitive: the UART's stays pending as long as received bytes wait, and drops when the
 * console has read them. */
unsigned a64_gic_acknowledge(void)
{
	if (gic_version == 2)
		return *reg32(VIRT_GICC_PA, GICC_IAR) & 0x3ff;
	if (gic_version == 3) {
		uint64_t iar = read_sysreg(s3_0_c12_c12_0); /* ICC_IAR1_EL1 */
		isb();
		return (unsigned)(iar & 0xffffff);
	}
	return GIC_INTID_SPURIOUS;
}

void a64_gic_end(unsigned intid)
{
	if (intid == GIC_INTID_SPURIOUS)
		return;
	if (gic_version == 2) {
		*reg32(VIRT_GICC_PA, GICC_EOIR) = intid;
	} else if (gic_version == 3) {
		write_sysreg(s3_0_c12_c12_1, intid); /* ICC_EOIR1_EL1 */
		isb();
	}
}
