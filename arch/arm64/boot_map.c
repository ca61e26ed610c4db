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
 *   TTBR0: identity of the block holding the image, only until the jump to the high address.
 * The leaf size of each is known here (linker/arm64.ld asserts what the image's layout must
 * give), so no code chooses one: under QEMU every branch of code that runs once is paid for in
 * translation. Tables come from head.S's boot pool, which stays reserved as part of the image. */
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

/* head.S's uncleared pool of page-sized tables. */
extern uint64_t a64_boot_pool[A64_BOOT_POOL_TABLES][PAGE_SIZE / 8];
static unsigned boot_pool_used;
/* The three roots (the kernel's, the empty one, the identity map's) live apart, in BSS, which
 * head.S has zeroed: a root has A64_ROOT_ENTRIES entries, with 16K and 64K granules far fewer
 * than a page holds (2 and 64 with VA_BITS 48), and a page of the pool each pushed the image's
 * end 192 KiB further with 64K pages, into a 2 MiB stretch of RAM nothing else touches at boot
 * (QEMU backs guest RAM with huge pages: the first touch of one costs a third of a millisecond).
 * The identity root covers the boot TCR's 32-bit TTBR0 range: 4 to 128 entries. The empty root
 * is a whole root for that range and for the tasks' both: head.S switches TTBR0 to it before it
 * widens the range, and a walk in between (a speculative one, on hardware) must find nothing.
 * TTBR wants a table aligned to its size, and to 64 bytes at least; linker/arm64.ld puts them
 * first in .bss, the most aligned first, where that alignment costs no padding. */
#define A64_ROOT_BYTES (A64_ROOT_ENTRIES * 8)
static uint64_t boot_kernel_root[A64_ROOT_ENTRIES]
	__section(".bss.size_aligned") __aligned(MAX(64, A64_ROOT_BYTES));
#define BOOT_ID_ROOT_ENTRIES (1 << (A64_BOOT_ID_VA_BITS - A64_BOOT_BLOCK_SHIFT))
static uint64_t boot_identity_root[BOOT_ID_ROOT_ENTRIES]
	__section(".bss.size_aligned.identity") __aligned(MAX(64, BOOT_ID_ROOT_ENTRIES * 8));
#define EMPTY_ROOT_ENTRIES MAX(A64_ROOT_ENTRIES, BOOT_ID_ROOT_ENTRIES)
static uint64_t boot_empty_root[EMPTY_ROOT_ENTRIES]
	__section(".bss.size_aligned.empty") __aligned(MAX(64, EMPTY_ROOT_ENTRIES * 8));
_Static_assert(KERNEL_PHYS_BASE < 1ULL << A64_BOOT_ID_VA_BITS,
	       "the identity map's range must hold the image");
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
static __attribute__((noinline, noclone, aligned(16))) void boot_zero_entries(uint64_t *p, uint64_t *end)
{
	do {
#pragma GCC unroll 32
		for (unsigned i = 0; i < 32; i++)
			p[i] = 0;
		p += 32;
	} while (p < end);
}

static unsigned boot_level_entries(unsigned level)
{
	return level == 0 ? A64_ROOT_ENTRIES : 1u << A64_PT_BITS;
}

static unsigned boot_index(unsigned level, uint64_t va)
{
	return (unsigned)((va >> A64_LEVEL_SHIFT(level)) & (boot_level_entries(level) - 1));
}

/* The table holding va's slot at `level`, with the tables on the way made as needed: an empty
 * slot takes the pool's next table (zeroed whole by a64_boot_map). Without a branch in the
 * loop, and without a check of the pool's end in it: a64_boot_map checks once that the
 * mappings took exactly the pool (more would only have touched the RAM after the image).
 * Out of line, as is boot_fill_pages: each call costs QEMU a few instructions, each copy of
 * a loop a few blocks. */
static __attribute__((noinline)) uint64_t *boot_table_for(uint64_t *root, uint64_t va, unsigned level)
{
	uint64_t *table = root;
	unsigned used = boot_pool_used;

	for (unsigned l = 0; l < level; l++) {
		uint64_t *slot = &table[boot_index(l, va)];
		uint64_t fresh = (uint64_t)(uintptr_t)a64_boot_pool[used] | PTE_TYPE_TABLE;
		bool empty = !(*slot & PTE_VALID);

		*slot = empty ? fresh : *slot;
		used += empty;
		table = (uint64_t *)(uintptr_t)(*slot & PTE_OA_MASK);
	}
	boot_pool_used = used;
	return table;
}

/* Pages for [pa, end) in a last-level table: page aligned and not empty (linker/arm64.ld
 * asserts both for the image's parts). The table's slots are indexed by pa, as every mapping
 * here keeps the offset within a last-level table's span: the linear map and the device
 * window start on 1 GiB lines, and a table spans at most 512 MiB. */
static __attribute__((noinline)) void boot_fill_pages(uint64_t *table, const char *pa, const char *end, uint64_t attrs)
{
	uint64_t *slot = table + boot_index(LAST_LEVEL, (uint64_t)(uintptr_t)pa);
	uint64_t *stop = slot + ((uint64_t)(end - pa) >> PAGE_SHIFT);
	uint64_t desc = (uint64_t)(uintptr_t)pa | attrs | PTE_TYPE_PAGE;

	do {
		*slot++ = desc;
		desc += PAGE_SIZE;
	} while (slot < stop);
}

/* The linear map below the image, [PHYS_OFFSET, image): the DTB, and the room pmm_init puts its
 * bitmap in. KERNEL_LOAD_OFFSET bytes: one block where the granule has blocks that small (4K's
 * 2 MiB), else pages in the image's table, which also spans the start of RAM (32 or 512 MiB). */
#define BELOW_IMAGE_IS_BLOCK (KERNEL_LOAD_OFFSET == 1ULL << A64_TABLE_SPAN_SHIFT)
_Static_assert(KERNEL_LOAD_OFFSET <= 1ULL << A64_TABLE_SPAN_SHIFT,
	       "the linear map below the image must share its table, or be one block");

static void boot_map_below_image(uint64_t *root, uint64_t *image_table)
{
	extern char __kernel_start[];

	if (BELOW_IMAGE_IS_BLOCK)
		boot_table_for(root, PAGE_OFFSET, LAST_LEVEL - 1)
			[boot_index(LAST_LEVEL - 1, PAGE_OFFSET)] =
			PHYS_OFFSET | ATTR_DATA | PTE_TYPE_BLOCK;
	else
		boot_fill_pages(image_table, (const char *)PHYS_OFFSET, __kernel_start, ATTR_DATA);
}

/* The kernel's half. The image lies in one last-level table (linker/arm64.ld asserts it): one
 * walk from the root finds the table all its parts go in. */
static void boot_map_kernel(uint64_t *root)
{
	extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
	extern char __data_start[], __kernel_end[];
	uint64_t *image_table = boot_table_for(root, KERNEL_VIRT_BASE, LAST_LEVEL);

	boot_map_below_image(root, image_table);
	boot_fill_pages(image_table, __text_start, __text_end, ATTR_TEXT);
	boot_fill_pages(image_table, __rodata_start, __rodata_end, ATTR_RODATA);
	/* Data and BSS, minus the kernel stack's guard: an overflow faults instead of
	 * overwriting whatever lies below the stack. */
	boot_fill_pages(image_table, __data_start, a64_kstack_guard, ATTR_DATA);
	boot_fill_pages(image_table, a64_kstack_bottom, __kernel_end, ATTR_DATA);
	boot_table_for(root, IO_ADDRESS(VIRT_UART_PA), LAST_LEVEL)
		[boot_index(LAST_LEVEL, VIRT_UART_PA)] = VIRT_UART_PA | ATTR_DEVICE | PTE_TYPE_PAGE;
	/* The GIC's frames join the device window once the DTB has named its version
	 * (arch_mmu_init). The table they go in is made now, so that the boot takes no table
	 * from the page allocator (with 16K and 64K it is the UART's). */
	boot_table_for(root, IO_ADDRESS(VIRT_GICD_PA), LAST_LEVEL);
}

/* The identity map holds the block the image lies in (linker/arm64.ld: the image lies in one
 * last-level table's span, which is at most a block), until the jump to the high address. The
 * boot TCR gives TTBR0 a 32-bit range, whose walks start at the block level: its root holds
 * the block, and needs no table below it (head.S sets TTBR0's real range when it drops it). */
static void boot_map_identity(uint64_t *root)
{
	const uint64_t pa = KERNEL_PHYS_BASE & ~((1ULL << A64_BOOT_BLOCK_SHIFT) - 1);

	root[pa >> A64_BOOT_BLOCK_SHIFT] = pa | ATTR_IDENTITY | PTE_TYPE_BLOCK;
}

static uint64_t read_mmfr0(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, id_aa64mmfr0_el1" : "=r"(v));
	return v;
}

/* TCR_EL1 for the boot, or a reason why the CPU cannot run this preset. */
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
	return TCR_EL1_BOOT | (pa_range << TCR_IPS_SHIFT);
}

void a64_boot_map(void)
{
	uint64_t tcr = boot_tcr();
	uint64_t *kroot = boot_kernel_root;

	/* In one call: the mappings take every table of the pool. */
	boot_zero_entries(a64_boot_pool[0], (uint64_t *)(a64_boot_pool + A64_BOOT_POOL_TABLES));
	boot_map_kernel(kroot);
	if (boot_pool_used != A64_BOOT_POOL_TABLES)
		boot_die("boot table pool miscounted");
	boot_map_identity(boot_identity_root);

	a64_kernel_root = (phys_addr_t)(uintptr_t)kroot;
	a64_empty_root = (phys_addr_t)(uintptr_t)boot_empty_root;

	/* No stale translation may survive (the TLB is flushed before the tables go live; the
	 * dsb completes that), and the registers take effect together at the isb. Every msr,
	 * tlbi and isb ends a block QEMU translates: no more of them than that. */
	__asm__ volatile("tlbi vmalle1\n\t"
			 "dsb nsh\n\t"
			 "msr mair_el1, %0\n\t"
			 "msr tcr_el1, %1\n\t"
			 "msr ttbr0_el1, %2\n\t"
			 "msr ttbr1_el1, %3\n\t"
			 "isb"
			 :
			 : "r"(MAIR_EL1_VALUE), "r"(tcr), "r"(boot_identity_root), "r"(kroot)
			 : "memory");
}
