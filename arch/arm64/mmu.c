/* The kernel's page tables and the MMU operations. The boot tables come with the image, made at
 * build time (tools/boot_tables: the image with its final permissions, the linear map
 * below it, the UART); arch_mmu_init adds what only the DTB tells, with the generic walker, and
 * TTBR1 never changes. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>
#include <asm/arm64.h>

#define TTBR_BADDR_MASK 0x0000fffffffffffeUL /* without the ASID (63:48) and CnP (0) */
#define TTBR_ASID_MASK 0xffff000000000000UL

void arch_pt_sync(void)
{
	dsb(ishst);
	isb();
}

/* One CPU runs the kernel, so TLB maintenance is local: no Inner Shareable broadcast to other
 * CPUs (docs/benchmarks.md: what the broadcast costs under QEMU). */
void arch_tlb_flush_page(uintptr_t va)
{
	/* By VA for every ASID: the same call serves kernel and user pages. The operand is
	 * VA[55:12] whatever the granule. */
	dsb(nshst);
	__asm__ volatile("tlbi vaae1, %0" : : "r"((va >> 12) & ((1UL << 44) - 1)) : "memory");
	dsb(nsh);
	isb();
}

void arch_tlb_flush_all(void)
{
	dsb(nshst);
	__asm__ volatile("tlbi vmalle1" : : : "memory");
	dsb(nsh);
	isb();
}

static void flush_asid(uint64_t asid_field)
{
	dsb(nshst);
	__asm__ volatile("tlbi aside1, %0" : : "r"(asid_field) : "memory");
	dsb(nsh);
	isb();
}

phys_addr_t arch_pt_root_for(phys_addr_t user_root, uintptr_t va)
{
	if (va >= PAGE_OFFSET)
		return a64_kernel_root;
	/* The gap between the halves translates nowhere. */
	if (va >= TASK_SIZE)
		return a64_empty_root;
	/* The kernel root is never a TTBR0 root: asked about a user address with it (the boot
	 * self-check, a kernel fault report), answer with what translates it right now. */
	if (!user_root || user_root == a64_kernel_root)
		return read_sysreg(ttbr0_el1) & TTBR_BADDR_MASK;
	return user_root;
}

void arch_pt_init_user_root(void *root_va)
{
	/* TTBR1 translates the kernel half: a user root starts empty. */
	(void)root_va;
}

/* Leaving a user root drops its ASID's TLB entries (a targeted flush), so no entry of an
 * address space survives its switch-out: its tables may be freed, and its ASID reused, with no
 * flush of the whole TLB. The empty root keeps the departed ASID (QEMU flushes its whole TLB
 * whenever TTBR0's ASID changes); it maps nothing, so nothing can be cached under that ASID. */
void arch_switch_user_root(phys_addr_t root, unsigned asid)
{
	uint64_t live = read_sysreg(ttbr0_el1);

	if ((live & TTBR_BADDR_MASK) != a64_empty_root) {
		write_sysreg(ttbr0_el1, a64_empty_root | (live & TTBR_ASID_MASK));
		isb();
		flush_asid(live & TTBR_ASID_MASK);
	}
	/* No root, or the kernel's (which is TTBR1's alone), means "no user mappings". */
	if (!root || root == a64_kernel_root)
		return;
	/* Base and ASID change in one write: no window with one but not the other. */
	write_sysreg(ttbr0_el1, root | (uint64_t)(asid & 0xff) << 48);
	isb();
}

/* Valid from the first instruction at the high address: an early fault report walks it too. */
phys_addr_t arch_kernel_root(void)
{
	return a64_kernel_root;
}

static void map_or_panic(phys_addr_t root, uintptr_t va, phys_addr_t pa, uint64_t size,
			 unsigned prot, const char *what)
{
	int err = pt_map(root, va, pa, size, prot, PT_MAP_BLOCKS);
	if (err)
		panic("arm64: mapping %s at %#lx (%#llx bytes) failed: %d", what, (unsigned long)va,
		      (unsigned long long)size, err);
}

/* RAM above the image in the linear map: read/write data, never executable, in the largest
 * blocks that fit. Nothing below it is left to map: clamp_ram_to_linear_map (setup.c) dropped
 * RAM below PHYS_OFFSET, and the boot tables map [PHYS_OFFSET, end of the image). Tables it needs
 * beyond the boot ones come from the page allocator, which hands out the lowest free frame: one
 * the linear map reaches already (below the image, or RAM this loop has mapped). */
static void map_linear_ram(phys_addr_t root, const struct boot_info *bi)
{
	const phys_addr_t image_end = __pa(__kernel_end);
	const unsigned prot = PT_R | PT_W | PT_GLOBAL;

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		phys_addr_t lo = MAX(ALIGN_UP(bi->ram[i].base, (phys_addr_t)PAGE_SIZE), image_end);
		phys_addr_t hi = ALIGN_DOWN(bi->ram[i].base + bi->ram[i].size, (phys_addr_t)PAGE_SIZE);
		if (lo < hi)
			map_or_panic(root, (uintptr_t)__va(lo), lo, hi - lo, prot, "RAM");
	}
}

/* The GIC's frames in the device window (gic.c has them page aligned). */
static void map_gic(phys_addr_t root)
{
	const struct a64_device_frame *frames;
	unsigned n = a64_gic_frames(&frames);

	for (unsigned i = 0; i < n; i++)
		map_or_panic(root, IO_ADDRESS(frames[i].pa), frames[i].pa, frames[i].size,
			     PT_R | PT_W | PT_DEVICE | PT_GLOBAL, frames[i].what);
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	map_linear_ram(a64_kernel_root, bi);
	map_gic(a64_kernel_root);
	a64_gic_init();
	return a64_kernel_root;
}
