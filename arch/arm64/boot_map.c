/* The boot mapping, built with the MMU off before anything else runs.
 *
 * This file runs at the physical load address while the kernel is linked high. That works
 * because AArch64's small code model reaches globals and functions PC-relatively (adrp/add, bl):
 * it must not take pointers from initialised data, call into other files, or let the compiler
 * turn loops into memset calls (arch.cmake builds it with -fno-tree-loop-distribute-patterns).
 * With the MMU off every access is Device memory, so only aligned 8-byte stores are used.
 *
 * Mapping, with blocks of A64_BOOT_BLOCK_SHIFT (1 GiB / 32 MiB / 512 MiB):
 *   TTBR1: PAGE_OFFSET + [0, LINEAR_MAP_MAX) -> PHYS_OFFSET + same, Normal RWX
 *          IO_VIRT_BASE + [0, 1 GiB)         -> PA [0, 1 GiB), Device-nGnRE
 *   TTBR0: identity of the blocks holding the image, only until the jump to the high address.
 * arch_mmu_init() replaces all of it with page-granular W^X tables. */
#include <types.h>
#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>

#define BOOT_POOL_TABLES A64_BOOT_POOL_TABLES

/* head.S's uncleared pool (up to 6 tables of 64 KiB): only the tables handed out are zeroed. */
extern uint64_t a64_boot_pool[BOOT_POOL_TABLES][PAGE_SIZE / 8];
static unsigned boot_pool_used;
uint64_t a64_booted_at_el2;
/* Physical roots for later: the identity map (for the TTBR1 switch) and an empty table. */
phys_addr_t a64_boot_idmap_root, a64_boot_kernel_root, a64_empty_root;

static void boot_uart_puts_phys(const char *s)
{
	volatile uint32_t *dr = (volatile uint32_t *)0x09000000UL;

	while (*s)
		*dr = (uint32_t)*s++;
}

static __noreturn void boot_die(const char *why)
{
	boot_uart_puts_phys("rndbits: arm64 boot: ");
	boot_uart_puts_phys(why);
	boot_uart_puts_phys("\r\n");
	/* PSCI SYSTEM_OFF through the conduit QEMU advertises for this boot EL. */
	register uint64_t x0 __asm__("x0") = 0x84000008;
	if (a64_booted_at_el2)
		__asm__ volatile("smc #0" : "+r"(x0));
	else
		__asm__ volatile("hvc #0" : "+r"(x0));
	for (;;)
		__asm__ volatile("wfi");
}

static uint64_t *boot_alloc_table(void)
{
	if (boot_pool_used == BOOT_POOL_TABLES)
		boot_die("boot table pool exhausted");
	uint64_t *table = a64_boot_pool[boot_pool_used++];
	for (unsigned i = 0; i < PAGE_SIZE / 8; i++)
		table[i] = 0;
	return table;
}

static unsigned boot_index(unsigned level, uint64_t va)
{
	unsigned entries = level == 0 ? A64_ROOT_ENTRIES : 1u << A64_PT_BITS;

	return (unsigned)((va >> A64_LEVEL_SHIFT(level)) & (entries - 1));
}

/* Map [va, va + size) with boot blocks; va, pa and size are block aligned. */
static void boot_map_blocks(uint64_t *root, uint64_t va, uint64_t pa, uint64_t size,
			    uint64_t attrs)
{
	for (uint64_t off = 0; off < size; off += 1ULL << A64_BOOT_BLOCK_SHIFT) {
		uint64_t *table = root;
		unsigned level = 0;

		while (A64_LEVEL_SHIFT(level) > A64_BOOT_BLOCK_SHIFT) {
			unsigned idx = boot_index(level, va + off);
			if (!(table[idx] & PTE_VALID))
				table[idx] = (uint64_t)(uintptr_t)boot_alloc_table() | PTE_TYPE_TABLE;
			table = (uint64_t *)(uintptr_t)(table[idx] & PTE_OA_MASK);
			level++;
		}
		table[boot_index(level, va + off)] = ((pa + off) & PTE_OA_MASK) | attrs;
	}
}

static uint64_t read_mmfr0(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, id_aa64mmfr0_el1" : "=r"(v));
	return v;
}

/* TCR_EL1 for this preset, or a reason why the CPU cannot run it. */
static uint64_t boot_tcr(void)
{
	uint64_t mmfr0 = read_mmfr0();
	uint64_t pa_range = mmfr0 & 0xf;
	unsigned tgran4 = (mmfr0 >> 28) & 0xf, tgran64 = (mmfr0 >> 24) & 0xf;
	unsigned tgran16 = (mmfr0 >> 20) & 0xf;

	if (CONFIG_PAGE_SHIFT == 12 && tgran4 == 0xf)
		boot_die("this CPU has no 4K granule");
	if (CONFIG_PAGE_SHIFT == 14 && tgran16 == 0)
		boot_die("this CPU has no 16K granule (use -cpu max)");
	if (CONFIG_PAGE_SHIFT == 16 && tgran64 == 0xf)
		boot_die("this CPU has no 64K granule");
	/* Output addresses stay 48-bit: 52-bit ones change the descriptor format. */
	if (pa_range > 5)
		pa_range = 5;
	return TCR_EL1_BASE | (pa_range << TCR_IPS_SHIFT);
}

void a64_boot_map(void)
{
	const uint64_t normal = PTE_TYPE_BLOCK | PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF;
	const uint64_t device = PTE_TYPE_BLOCK | PTE_ATTRINDX(MT_DEVICE_nGnRE) | PTE_AF | PTE_PXN |
				PTE_UXN;
	const uint64_t block = 1ULL << A64_BOOT_BLOCK_SHIFT;
	uint64_t tcr = boot_tcr();
	uint64_t *kroot = boot_alloc_table(), *idroot = boot_alloc_table();
	uint64_t *empty = boot_alloc_table();
	extern char __kernel_start[], __kernel_end[];
	uint64_t img_lo = (uint64_t)(uintptr_t)__kernel_start & ~(block - 1);
	uint64_t img_hi = ((uint64_t)(uintptr_t)__kernel_end + block - 1) & ~(block - 1);

	boot_map_blocks(kroot, PAGE_OFFSET, PHYS_OFFSET, LINEAR_MAP_MAX, normal | PTE_UXN);
	boot_map_blocks(kroot, IO_VIRT_BASE, 0, IO_WINDOW_SIZE, device);
	boot_map_blocks(idroot, img_lo, img_lo, img_hi - img_lo, normal | PTE_UXN);

	a64_boot_kernel_root = (phys_addr_t)(uintptr_t)kroot;
	a64_boot_idmap_root = (phys_addr_t)(uintptr_t)idroot;
	a64_empty_root = (phys_addr_t)(uintptr_t)empty;

	__asm__ volatile("msr mair_el1, %0\n\t"
			 "msr tcr_el1, %1\n\t"
			 "msr ttbr0_el1, %2\n\t"
			 "msr ttbr1_el1, %3\n\t"
			 "isb\n\t"
			 "tlbi vmalle1\n\t"
			 "dsb nsh\n\t"
			 "isb"
			 :
			 : "r"(MAIR_EL1_VALUE), "r"(tcr), "r"(a64_boot_idmap_root),
			   "r"(a64_boot_kernel_root)
			 : "memory");
}

/* Called at the high address: from here on TTBR0 holds no translations at all. */
void a64_drop_identity_map(void)
{
	__asm__ volatile("msr ttbr0_el1, %0\n\t"
			 "isb\n\t"
			 "tlbi vmalle1\n\t"
			 "dsb nsh\n\t"
			 "isb"
			 :
			 : "r"(a64_empty_root)
			 : "memory");
}
