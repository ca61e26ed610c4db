/* The kernel's page tables, built once with the MMU off before anything else runs.
 *
 * This file runs at the physical load address while the kernel is linked high. That works
 * because AArch64's small code model reaches globals and functions PC-relatively (adrp/add, bl):
 * it must not take pointers from initialised data, call into other files, or let the compiler
 * turn loops into memset calls (arch.cmake builds it with -fno-tree-loop-distribute-patterns).
 * With the MMU off every access is Device memory, so only aligned 8-byte stores are used (some
 * paired into stp).
 *
 * What it maps is final: the same descriptors arch_pte_make_leaf() encodes (pte.c), so the
 * generic walker reads and extends these tables like any other (arch_mmu_init adds what the DTB
 * decides, with pt_map).
 *   TTBR1: the image, page by page: text r-x, rodata r--, data and BSS rw-, the kernel stack's
 *            guard page left unmapped;
 *          the linear map below it, [PHYS_OFFSET, image): the DTB, and the room pmm_init puts
 *            its bitmap in before arch_mmu_init maps the rest of RAM;
 *          the PL011 at IO_ADDRESS(), Device-nGnRE, for printk until then, and the table the
 *            GIC's frames go in.
 *   TTBR0: identity of the blocks holding the image, only until the jump to the high address.
 * Tables come from head.S's boot pool, which stays reserved as part of the image. */
#include <types.h>
#include <asm/arm64.h>
#include <asm/memory.h>
#include <asm/pgtable-hwdef.h>

#define LAST_LEVEL (A64_PT_LEVELS - 1)

/* Descriptor attributes, as pte.c's prot_to_attrs() encodes kernel (global) mappings. */
#define ATTR_NORMAL (PTE_AF | PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER)
#define ATTR_TEXT (ATTR_NORMAL | PTE_AP_RDONLY | PTE_UXN)
#define ATTR_RODATA (ATTR_NORMAL | PTE_AP_RDONLY | PTE_PXN | PTE_UXN)
#define ATTR_DATA (ATTR_NORMAL | PTE_PXN | PTE_UXN)
#define ATTR_DEVICE (PTE_AF | PTE_ATTRINDX(MT_DEVICE_nGnRE) | PTE_PXN | PTE_UXN)
/* The identity map only carries the few instructions that turn the MMU on. */
#define ATTR_IDENTITY (ATTR_NORMAL | PTE_UXN)

/* head.S's uncleared pool of page-sized tables: only those handed out are zeroed. */
extern uint64_t a64_boot_pool[A64_BOOT_POOL_TABLES][PAGE_SIZE / 8];
static unsigned boot_pool_used;
/* The three roots (the kernel's, the identity map's, the empty one) live apart, in BSS, which
 * head.S has zeroed: a root has A64_ROOT_ENTRIES entries, with 16K and 64K granules far fewer
 * than a page holds (2 and 64 with VA_BITS 48), and a page of the pool each pushed the image's
 * end 192 KiB further with 64K pages, into a 2 MiB stretch of RAM nothing else touches at boot
 * (QEMU backs guest RAM with huge pages: the first touch of one costs a third of a millisecond).
 * TTBR wants a table aligned to its size, and to 64 bytes at least; linker/arm64.ld puts them
 * first in .bss, where that alignment costs no padding. */
#define A64_ROOT_BYTES (A64_ROOT_ENTRIES * 8)
enum { BOOT_ROOT_KERNEL, BOOT_ROOT_IDENTITY, BOOT_ROOT_EMPTY, NR_BOOT_ROOTS };
static uint64_t boot_roots[NR_BOOT_ROOTS][A64_ROOT_ENTRIES]
	__section(".bss.size_aligned") __aligned(MAX(64, A64_ROOT_BYTES));
uint64_t a64_booted_at_el2;
/* Physical roots: the kernel's (TTBR1 for good), an empty table (TTBR0 with no user root). */
phys_addr_t a64_kernel_root, a64_empty_root;

static void boot_uart_puts_phys(const char *s)
{
	volatile uint32_t *dr = (volatile uint32_t *)VIRT_UART_PA;

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

/* Zero [p, end), 32 entries a round (at most 256 bytes past a small root, still inside its
 * page), which the compiler makes sixteen aligned stp of xzr. Under TCG each store is paid in
 * instructions, and 64K tables are 8192 entries. A function of its own so that the loop starts
 * at its entry: inlined after other code, its first round would be translated a second time
 * as part of the block before it; aligned so that the loop needs no padding before it. */
static __attribute__((noinline, aligned(16))) void boot_zero_entries(uint64_t *p, uint64_t *end)
{
	do {
#pragma GCC unroll 32
		for (unsigned i = 0; i < 32; i++)
			p[i] = 0;
		p += 32;
	} while (p < end);
}

/* A zeroed table below a root. Kept out of line: one copy is translated once, where an
 * inlined copy per caller would each cost QEMU a translation. */
static __attribute__((noinline)) uint64_t *boot_alloc_table(void)
{
	if (boot_pool_used == A64_BOOT_POOL_TABLES)
		boot_die("boot table pool exhausted");
	uint64_t *table = a64_boot_pool[boot_pool_used++];
	boot_zero_entries(table, table + PAGE_SIZE / 8);
	return table;
}

static unsigned boot_level_entries(unsigned level)
{
	return level == 0 ? A64_ROOT_ENTRIES : 1u << A64_PT_BITS;
}

static unsigned boot_index(unsigned level, uint64_t va)
{
	return (unsigned)((va >> A64_LEVEL_SHIFT(level)) & (boot_level_entries(level) - 1));
}

/* Blocks exist at Arm level 2 for every granule and at level 1 for 4K (as pte.c says). */
static bool boot_block_allowed(unsigned level)
{
	return A64_HW_LEVEL(level) == 2 || (CONFIG_PAGE_SHIFT == 12 && A64_HW_LEVEL(level) == 1);
}

/* The level of the largest leaf that va, pa and the remaining size line up with. */
static unsigned boot_leaf_level(uint64_t va, uint64_t pa, uint64_t remaining)
{
	for (unsigned level = 0; level < LAST_LEVEL; level++) {
		uint64_t size = 1ULL << A64_LEVEL_SHIFT(level);

		if (boot_block_allowed(level) && !((va | pa) & (size - 1)) && remaining >= size)
			return level;
	}
	return LAST_LEVEL;
}

/* The table holding va's slot at `level`, with the tables on the way made as needed. */
static uint64_t *boot_table_for(uint64_t *root, uint64_t va, unsigned level)
{
	uint64_t *table = root;

	for (unsigned l = 0; l < level; l++) {
		unsigned idx = boot_index(l, va);
		if (!(table[idx] & PTE_VALID))
			table[idx] = (uint64_t)(uintptr_t)boot_alloc_table() |
				     PTE_TYPE_TABLE;
		table = (uint64_t *)(uintptr_t)(table[idx] & PTE_OA_MASK);
	}
	return table;
}

/* Write `count` leaves from `slot` on, the first one `desc`, each the next `leaf` bytes. A
 * plain loop of single 8-byte stores: the descriptors differ, and nothing here may call out. */
static void boot_fill_leaves(uint64_t *slot, unsigned count, uint64_t desc, uint64_t leaf)
{
	for (uint64_t *end = slot + count; slot < end; slot++) {
		*slot = desc;
		desc += leaf;
	}
}

/* Map [va, va + size) to pa with the largest leaves that fit. All three are page aligned: the
 * constants by construction, the image's section bounds by linker/arm64.ld's assertions (a
 * check here would run, and be translated, for every call). One walk from
 * the root per table written: the run of leaves that table takes is filled in one go. Leaves of
 * one size keep fitting until the table ends or fewer than a leaf's bytes remain (va and pa
 * move together), and only there can another leaf size be chosen: a table's end is aligned
 * to every size it and its parents map. So the descriptors are those a leaf at a time gives. */
static void boot_map(uint64_t *root, uint64_t va, uint64_t pa, uint64_t size, uint64_t attrs)
{
	while (size) {
		unsigned level = boot_leaf_level(va, pa, size);
		unsigned shift = A64_LEVEL_SHIFT(level);
		unsigned idx = boot_index(level, va);
		uint64_t fit = size >> shift, room = boot_level_entries(level) - idx;
		unsigned count = (unsigned)(fit < room ? fit : room);
		uint64_t type = level == LAST_LEVEL ? PTE_TYPE_TABLE : PTE_TYPE_BLOCK;
		uint64_t bytes = (uint64_t)count << shift;

		boot_fill_leaves(boot_table_for(root, va, level) + idx, count,
				 (pa & PTE_OA_MASK) | attrs | type, 1ULL << shift);
		va += bytes;
		pa += bytes;
		size -= bytes;
	}
}

/* Map the image's [start, end), here at its physical address, at its linked address. */
static void boot_map_image(uint64_t *root, const char *start, const char *end, uint64_t attrs)
{
	uint64_t pa = (uint64_t)(uintptr_t)start;

	boot_map(root, pa - PHYS_OFFSET + PAGE_OFFSET, pa, (uint64_t)(end - start), attrs);
}

static void boot_map_kernel(uint64_t *root)
{
	extern char __kernel_start[], __kernel_end[], __text_start[], __text_end[];
	extern char __rodata_start[], __rodata_end[], __data_start[];
	uint64_t below_image = (uint64_t)(uintptr_t)__kernel_start - PHYS_OFFSET;

	boot_map(root, PAGE_OFFSET, PHYS_OFFSET, below_image, ATTR_DATA);
	boot_map_image(root, __text_start, __text_end, ATTR_TEXT);
	boot_map_image(root, __rodata_start, __rodata_end, ATTR_RODATA);
	/* Data and BSS, minus the kernel stack's guard: an overflow faults instead of
	 * overwriting whatever lies below the stack. */
	boot_map_image(root, __data_start, a64_kstack_guard, ATTR_DATA);
	boot_map_image(root, a64_kstack_bottom, __kernel_end, ATTR_DATA);
	boot_map(root, IO_ADDRESS(VIRT_UART_PA), VIRT_UART_PA, PAGE_SIZE, ATTR_DEVICE);
	/* The GIC's frames join the device window once the DTB has named its version
	 * (arch_mmu_init). The table they go in is made now, so that the boot takes no table
	 * from the page allocator (with 16K and 64K it is the UART's). */
	boot_table_for(root, IO_ADDRESS(VIRT_GICD_PA), LAST_LEVEL);
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
	extern char __kernel_start[], __kernel_end[];
	const uint64_t block = 1ULL << A64_BOOT_BLOCK_SHIFT;
	uint64_t tcr = boot_tcr();
	uint64_t *kroot = boot_roots[BOOT_ROOT_KERNEL];
	uint64_t *idroot = boot_roots[BOOT_ROOT_IDENTITY];
	uint64_t *empty = boot_roots[BOOT_ROOT_EMPTY];
	uint64_t img_lo = (uint64_t)(uintptr_t)__kernel_start & ~(block - 1);
	uint64_t img_hi = ((uint64_t)(uintptr_t)__kernel_end + block - 1) & ~(block - 1);

	boot_map_kernel(kroot);
	boot_map(idroot, img_lo, img_lo, img_hi - img_lo, ATTR_IDENTITY);

	a64_kernel_root = (phys_addr_t)(uintptr_t)kroot;
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
			 : "r"(MAIR_EL1_VALUE), "r"(tcr), "r"(idroot), "r"(kroot)
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
