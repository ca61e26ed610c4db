/* Private arm64 helpers shared by the files in arch/arm64 (not part of the arch interface). */
#ifndef RNDBITS_ASM_ARM64_ARM64_H
#define RNDBITS_ASM_ARM64_ARM64_H

#include <lib/types.h>
#include <asm/memory.h>

#define read_sysreg(reg)                                          \
	({                                                        \
		uint64_t __v;                                     \
		__asm__ volatile("mrs %0, " #reg : "=r"(__v));    \
		__v;                                              \
	})
#define write_sysreg(reg, v) __asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(v)) : "memory")
#define isb() __asm__ volatile("isb" : : : "memory")
#define dsb(opt) __asm__ volatile("dsb " #opt : : : "memory")

/* QEMU virt's devices (physical addresses, reached through the device window). */
#define VIRT_GICD_PA 0x08000000UL
#define VIRT_GICD_SIZE 0x10000UL
#define VIRT_GICC_PA 0x08010000UL /* GICv2 */
#define VIRT_GICC_SIZE 0x10000UL
#define VIRT_GICR_PA 0x080a0000UL /* GICv3, CPU 0: RD_base + SGI_base */
#define VIRT_GICR_SIZE 0x20000UL
#define VIRT_UART_PA 0x09000000UL
#define VIRT_UART_SIZE 0x1000UL
#define VIRT_UART_IRQ 33 /* SPI 1 */

/* boot_tables.c: the boot roots' physical addresses, and whether head.S found itself at EL2. */
extern uint64_t a64_booted_at_el2;
extern phys_addr_t a64_kernel_root, a64_empty_root;
extern char a64_kstack_guard[], a64_kstack_bottom[], a64_kstack_top[];
extern char a64_vectors[];

struct fdt_item;
void a64_gic_probe(const struct fdt_item *compatible);
/* A device's physical frame, page aligned, and its name for error messages. */
struct a64_device_frame {
	phys_addr_t pa;
	uint64_t size;
	const char *what;
};
unsigned a64_gic_frames(const struct a64_device_frame **frames);
void a64_gic_init(void);
bool a64_gic_ready(void);
unsigned a64_gic_acknowledge(void);
void a64_gic_end(unsigned intid);
void a64_gic_enable_ppi(unsigned intid);
#define A64_TIMER_PPI 27 /* the virtual timer's interrupt on QEMU virt */
#define A64_GIC_SPURIOUS 1023
void a64_timer_rearm(void);
void a64_raw_puts(const char *s);
void a64_raw_puthex(uint64_t v);

#endif
