/* ARMv7-A MMU: the kernel's real translation tables (made at build time for what the link
 * fixes, completed once, below, with pte.c's descriptors, then read and extended by
 * mm/pgtable.c like any other), TLB maintenance and the address-space switch.
 *
 * One root per address space in TTBR0 (TTBCR.N = 0). The kernel half, [PAGE_OFFSET, 4 GiB),
 * is completed once here; arch_pt_init_user_root copies its L1 entries into each user root, so the
 * kernel's L2 tables are shared and kernel mappings must not change after the first user root
 * exists. Kernel entries are global; user entries are nG and tagged with the 8-bit ASID in
 * CONTEXTIDR. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <asm/cp15.h>
#include <asm/kernel_tables.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>

#define L1_KERNEL_FIRST (PAGE_OFFSET >> 20)

extern char boot_pgd[], boot_svc_stack[];

static phys_addr_t kernel_root;

/* One CPU runs the kernel, so TLB and branch-predictor maintenance is local: the Inner Shareable
 * broadcast forms cost QEMU a synchronised flush of every vCPU. */
ARM_CP15_OP(tlbiall, 0, c8, c7, 0)   /* all entries, this CPU */
ARM_CP15_OP(tlbiasid, 0, c8, c7, 2)  /* by ASID, this CPU */
ARM_CP15_OP(tlbimvaa, 0, c8, c7, 3)  /* by MVA, all ASIDs, this CPU */
ARM_CP15_OP(bpiall, 0, c7, c5, 6)

void arch_pt_sync(void)
{
	arm_dsb_st();
	arm_isb();
}

void arch_tlb_flush_page(uintptr_t va)
{
	arm_dsb_st();
	arm_tlbimvaa(va & ~(uintptr_t)(PAGE_SIZE - 1));
	arm_bpiall(0);
	arm_dsb();
	arm_isb();
}

void arch_tlb_flush_all(void)
{
	arm_dsb_st();
	arm_tlbiall(0);
	arm_bpiall(0);
	arm_dsb();
	arm_isb();
}

phys_addr_t arch_kernel_root(void)
{
	return kernel_root ? kernel_root : __pa(boot_pgd);
}

/* One root translates everything. Asked with the kernel root (or none), answer with the live
 * TTBR0: its kernel half is the kernel's, and its user half is what the CPU really uses, so a
 * kernel fault on a user address walks the right tables. */
phys_addr_t arch_pt_root_for(phys_addr_t user_root, uintptr_t va)
{
	(void)va;
	if (user_root && user_root != kernel_root)
		return user_root;
	return arm_read_ttbr0() & ~(uint32_t)(16384 - 1);
}

void arch_pt_init_user_root(void *root_va)
{
	uint32_t *root = root_va;
	const uint32_t *kernel = __va(arch_kernel_root());

	/* The user half is already zero: the root came from pt_alloc_table. */
	memcpy(root + L1_KERNEL_FIRST, kernel + L1_KERNEL_FIRST,
	       (ARM_L1_ENTRIES - L1_KERNEL_FIRST) * sizeof(uint32_t));
	arch_pt_sync();
}

/* Leaving a user root drops its ASID's TLB entries (a targeted flush), so no entry of an
 * address space survives its switch-out: its tables may be freed, and its ASID reused, without
 * flushing everything. The ASID changes only while TTBR0 holds the kernel root, whose user half
 * is empty and whose entries are global, so no walk can tag an entry with the wrong ASID (the
 * job the reserved ASID 0 did before) and CONTEXTIDR is written once per switch (QEMU flushes
 * its whole TLB on every ASID change). */
void arch_switch_user_root(phys_addr_t root, unsigned asid)
{
	uint32_t kroot = (uint32_t)arch_kernel_root();

	if ((arm_read_ttbr0() & ~(uint32_t)(16384 - 1)) != kroot) {
		arm_write_ttbr0(kroot | ARM_TTBR_WALK);
		arm_isb();
		arm_dsb_st();
		arm_tlbiasid(arm_read_contextidr() & 0xff);
		arm_bpiall(0);
		arm_dsb();
		arm_isb();
	}
	if (!root || root == kroot) /* no user address space: the kernel root's user half is empty */
		return;
	arm_write_contextidr(asid & 0xff);
	arm_isb();
	arm_write_ttbr0((uint32_t)root | ARM_TTBR_WALK);
	arm_isb();
}

/* The kernel root and the L2 tables of its half are in the image (asm/kernel_tables.h), and
 * what the link fixes is in them already: the image, W^X (text RX, rodata R, data/bss/boot
 * stacks RW) with the page below the kernel stack (the top of the boot L1 table, unused from
 * here on) left unmapped, so an overflow aborts (entry.S); and the device pages. The build made
 * those with the kernel's own mapper (tools/boot_tables/arm.c), at no cost to the boot. The
 * linear map of RAM, which the DTB decides, is added here with plain stores: it costs neither
 * the allocator nor the generic walker, and the kernel's tables are never freed. L2 tables are
 * needed only where a MiB is not mapped whole: the image's (W^X pages, the stack guard), the
 * two device MiBs and partial MiBs at the edges of RAM, which share the image's last table
 * when RAM goes on after it. */
#define SECTION_SIZE 0x100000u
#define L1_TYPE_MASK 0x3u
#define L1_TYPE_TABLE 0x1u
#define L1_TABLE_ADDR_MASK 0xfffffc00u

extern struct arm_kernel_tables arm_kernel_tables;

static uint32_t *kernel_l2_for(uintptr_t va)
{
	uint32_t *l1e = &arm_kernel_tables.l1[va >> 20];
	uint32_t *table;

	if (*l1e) {
		if ((*l1e & L1_TYPE_MASK) != L1_TYPE_TABLE) /* a section: two ranges overlap */
			panic("arm: kernel mappings overlap at %#lx", (unsigned long)va);
		return __va(*l1e & L1_TABLE_ADDR_MASK);
	}
	if (arm_kernel_tables.l2_used == ARM_KERNEL_L2_TABLES)
		panic("arm: out of kernel L2 tables at %#lx", (unsigned long)va);
	table = arm_kernel_tables.l2[arm_kernel_tables.l2_used++];
	*l1e = (uint32_t)arch_pte_make_table(0, __pa(table));
	return table;
}

/* One range of the linear map: [va, end) -> pa, RW, never executable, global. Short
 * descriptors hold 32-bit addresses, and every range lies in lowmem, so the arithmetic is
 * 32-bit (64-bit operations cost several instructions each on this ISA). */
struct kernel_range {
	uintptr_t va, end;
	uint32_t pa;
};
#define LINEAR_PROT (PT_R | PT_W | PT_GLOBAL)

/* Write `count` leaves from `slot` on: `attrs` with consecutive addresses `step` apart from pa. */
static void fill_leaves(uint32_t *slot, size_t count, uint32_t attrs, uint32_t pa, uint32_t step)
{
	for (uint32_t *end = slot + count; slot < end; slot++, pa += step)
		*slot = attrs | pa;
}

/* Whole aligned MiBs become sections, the rest 4K pages. A leaf encoded for address 0 carries
 * only attributes below the address bits, so OR-ing each address in gives pte.c's descriptor.
 * Leaves are written a run at a time: sections while whole MiBs remain (va and pa stay aligned
 * together), pages as far as their L2 table or the range goes (one table lookup a run), since
 * a section can only start at a MiB boundary, which is where an L2 table ends. One encoder
 * call a run, for either level: one call site to translate. */
static void map_kernel_range(const struct kernel_range *r)
{
	uintptr_t va = r->va, end = r->end;
	uint32_t pa = r->pa;

	while (va < end) {
		bool section = IS_ALIGNED(va | pa, SECTION_SIZE) && end - va >= SECTION_SIZE;
		uint32_t step = section ? SECTION_SIZE : PAGE_SIZE;
		uint32_t *slot;
		size_t count;

		if (section) {
			slot = &arm_kernel_tables.l1[va >> 20];
			count = (end - va) / SECTION_SIZE;
		} else {
			size_t first = (va >> PAGE_SHIFT) % ARM_L2_ENTRIES;

			slot = kernel_l2_for(va) + first;
			count = MIN(ARM_L2_ENTRIES - first, (end - va + PAGE_SIZE - 1) >> PAGE_SHIFT);
		}
		fill_leaves(slot, count,
			    (uint32_t)arch_pte_make_leaf(section ? 0 : 1, 0, LINEAR_PROT), pa,
			    step);
		va += count * step;
		pa += count * step;
	}
}

/* [lo, hi) of RAM as a linear-map range, kept only if not empty: an empty one is overwritten
 * by the next. */
static struct kernel_range *add_ram_piece(struct kernel_range *r, uint32_t lo, uint32_t hi)
{
	*r = (struct kernel_range){ (uintptr_t)__va(lo), (uintptr_t)__va(hi), lo };
	return r + (lo < hi);
}

/* RAM in the linear map, RW and never executable, except the kernel image (mapped apart). The
 * regions are those clamp_ram_to_lowmem (setup.c) left: empty, or inside [ARM_PHYS_OFFSET,
 * lowmem end), so 32 bits hold them. */
static struct kernel_range *add_linear_ram(struct kernel_range *r, const struct boot_info *bi)
{
	const uint32_t img_start = __pa(__kernel_start), img_end = __pa(__kernel_end);

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		if (!bi->ram[i].size)
			continue;
		uint32_t start = ALIGN_UP((uint32_t)bi->ram[i].base, (uint32_t)PAGE_SIZE);
		uint32_t end = ALIGN_DOWN((uint32_t)(bi->ram[i].base + bi->ram[i].size),
					  (uint32_t)PAGE_SIZE);

		r = add_ram_piece(r, start, MIN(end, img_start));
		r = add_ram_piece(r, MAX(start, img_end), end);
	}
	return r;
}

static uintptr_t stack_guard_page(void)
{
	return (uintptr_t)boot_svc_stack - PAGE_SIZE;
}

/* The linear map, into the tables the build made (see above). */
static void map_kernel_half(const struct boot_info *bi)
{
	struct kernel_range linear[2 * BOOT_MAX_REGIONS];
	const struct kernel_range *linear_end = add_linear_ram(linear, bi);

	for (const struct kernel_range *r = linear; r < linear_end; r++)
		map_kernel_range(r);
}

bool arm_is_stack_guard(uintptr_t va)
{
	return kernel_root && va >= stack_guard_page() && va < stack_guard_page() + PAGE_SIZE;
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	kernel_root = __pa(arm_kernel_tables.l1);
	map_kernel_half(bi);
	arch_pt_sync();
	/* head.S set SCTLR.UWXN and CONTEXTIDR (ASID 0), which nothing has changed since. */
	arm_write_ttbr0((uint32_t)kernel_root | ARM_TTBR_WALK);
	arm_isb();
	arch_tlb_flush_all();
	return kernel_root;
}
