/* i386 GDT, the TSS that holds esp0 for traps from ring 3, and the double-fault task: a #DF is
 * delivered through a task gate, so it gets a fresh stack and register set even when the kernel
 * stack is what overflowed (an interrupt gate would push onto the broken stack and triple-fault). */
#include <arch/memory.h>
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/boot_tables_32.h>
#include <asm/x86_32.h>

_Static_assert(sizeof(struct x86_tss) == 104, "i386 TSS layout");

#define DOUBLEFAULT_STACK_SIZE 8192
static uint8_t doublefault_stack[DOUBLEFAULT_STACK_SIZE] __aligned(16);

/* Both TSSes hold only what the link fixes, so they are data, not code to run at boot. The one in
 * TR: ring 0's stack for traps from ring 3 (esp0, the boot stack until a task runs), and no I/O
 * bitmap, so ring 3 gets no ports. */
struct x86_tss x86_tss __aligned(128) = {
	.ss0 = KERNEL_DS,
	.esp0 = (uintptr_t)boot_stack_top,
	.iomap_base = sizeof(struct x86_tss),
};

/* The double-fault task's: its own stack, interrupts off (bit 1 of EFLAGS is always one), the
 * kernel's segments, and the boot page directory until arch_mmu_init names the kernel's. */
struct x86_tss x86_doublefault_tss __aligned(128) = {
	.cr3 = (uintptr_t)boot_pgdir - PAGE_OFFSET,
	.eip = (uintptr_t)x86_doublefault_task,
	.esp = (uintptr_t)doublefault_stack + DOUBLEFAULT_STACK_SIZE,
	.eflags = 0x2,
	.cs = KERNEL_CS,
	.ds = KERNEL_DS,
	.es = KERNEL_DS,
	.fs = KERNEL_DS,
	.gs = KERNEL_DS,
	.ss = KERNEL_DS,
	.iomap_base = sizeof(struct x86_tss),
};

/* Flat 4 GiB segments: G=1, D=1, limit 0xFFFFF; access bytes with the accessed bit preset so
 * the CPU never writes the descriptor. */
#define SEG_FLAT(access) (0x00CF00000000FFFFull | ((uint64_t)(access) << 40))
#define ACCESS_KERNEL_CODE 0x9B
#define ACCESS_KERNEL_DATA 0x93
#define ACCESS_USER_CODE 0xFB
#define ACCESS_USER_DATA 0xF3
#define ACCESS_TSS_AVAILABLE 0x89

static uint64_t gdt[GDT_ENTRIES] __aligned(8) = {
	[GDT_ENTRY_KERNEL_CS] = SEG_FLAT(ACCESS_KERNEL_CODE),
	[GDT_ENTRY_KERNEL_DS] = SEG_FLAT(ACCESS_KERNEL_DATA),
	[GDT_ENTRY_USER_CS] = SEG_FLAT(ACCESS_USER_CODE),
	[GDT_ENTRY_USER_DS] = SEG_FLAT(ACCESS_USER_DATA),
};

/* A TSS descriptor, as the SDM draws it: two 32-bit words, the base and limit split across
 * both. */
static uint64_t tss_descriptor(const struct x86_tss *tss)
{
	uint32_t base = (uintptr_t)tss, limit = sizeof(*tss) - 1;
	uint32_t low = base << 16 | (limit & 0xFFFF);
	uint32_t high = (base & 0xFF000000) | (limit & 0xF0000) | ACCESS_TSS_AVAILABLE << 8 |
			(base >> 16 & 0xFF);

	return (uint64_t)high << 32 | low;
}

static void load_gdt(void)
{
	struct {
		uint16_t limit;
		uint32_t base;
	} __packed desc = { sizeof(gdt) - 1, (uintptr_t)gdt };

	__asm__ volatile("lgdt %0\n\t"
			 "ljmp %1, $1f\n"
			 "1:\n\t"
			 "movl %2, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%fs\n\t"
			 "movl %%eax, %%gs\n\t"
			 "movl %%eax, %%ss"
			 :
			 : "m"(desc), "i"(KERNEL_CS), "i"(KERNEL_DS)
			 : "eax", "memory");
	__asm__ volatile("ltr %w0" : : "r"(TSS_SEL));
}

void x86_gdt_init(void)
{
	gdt[GDT_ENTRY_TSS] = tss_descriptor(&x86_tss);
	gdt[GDT_ENTRY_DOUBLEFAULT_TSS] = tss_descriptor(&x86_doublefault_tss);
	load_gdt();
}

void x86_tss_set_esp0(uintptr_t esp0)
{
	x86_tss.esp0 = esp0;
}

void x86_doublefault_set_cr3(uintptr_t cr3)
{
	x86_doublefault_tss.cr3 = cr3;
}

uint64_t *x86_gdt_tls_slot(unsigned idx)
{
	return &gdt[idx];
}
