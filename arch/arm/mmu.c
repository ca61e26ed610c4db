/* ARMv7-A MMU: the kernel's real translation tables (made at build time for what the link
 * fixes, completed once, below, with the linear map of RAM, both by mm/pgtable.c's pt_map),
 * TLB maintenance and the address-space switch.
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
 * what the link fixes is in them already: the linear map below the image (RAM's first 2 MiB,
 * where QEMU puts the DTB), the image, W^X (text RX, rodata R, data/bss/boot stacks RW) with
 * the page below the kernel stack (the top of the boot L1 table, unused from here on) left
 * unmapped, so an overflow aborts (entry.S); and the device pages. The build made those with
 * the kernel's own mapper (tools/boot_tables/arm.c), at no cost to the boot. */
extern struct arm_kernel_tables arm_kernel_tables;

/* RAM above the image in the linear map, which the DTB decides, with the same pt_map: RW and
 * never executable, sections for whole MiBs, pages in the image's last L2 table for the rest of
 * its MiB, and a table from the page allocator for a partial MiB at the end of RAM (the boot L1
 * table maps all lowmem, so the allocator's frames are reachable before the switch). The
 * regions are those clamp_ram_to_lowmem (setup.c) left: empty, or inside [ARM_PHYS_OFFSET,
 * lowmem end), so 32 bits hold them (64-bit operations cost several instructions each on this
 * ISA); nothing is left to map below the image. */
static void map_linear_ram(const struct boot_info *bi)
{
	const uint32_t img_end = __pa(__kernel_end);

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		uint32_t lo = MAX(ALIGN_UP((uint32_t)bi->ram[i].base, (uint32_t)PAGE_SIZE), img_end);
		uint32_t hi = ALIGN_DOWN((uint32_t)(bi->ram[i].base + bi->ram[i].size),
					 (uint32_t)PAGE_SIZE);

		if (lo >= hi)
			continue;
		int err = pt_map(kernel_root, (uintptr_t)__va(lo), lo, hi - lo,
				 PT_R | PT_W | PT_GLOBAL, PT_MAP_BLOCKS);
		if (err)
			panic("arm: mapping RAM at %#lx (%#lx bytes) failed: %d", (unsigned long)lo,
			      (unsigned long)(hi - lo), err);
	}
}

static uintptr_t stack_guard_page(void)
{
	return (uintptr_t)boot_svc_stack - PAGE_SIZE;
}

bool arm_is_stack_guard(uintptr_t va)
{
	return kernel_root && va >= stack_guard_page() && va < stack_guard_page() + PAGE_SIZE;
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	kernel_root = __pa(arm_kernel_tables.l1);
	map_linear_ram(bi); /* pt_map leaves its stores visible to the walker */
	/* head.S set SCTLR.UWXN and CONTEXTIDR (ASID 0), which nothing has changed since. */
	arm_write_ttbr0((uint32_t)kernel_root | ARM_TTBR_WALK);
	arm_isb();
	arch_tlb_flush_all();
	return kernel_root;
}
