/* The kernel's real page tables (built with the generic walker) and the MMU operations. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <boot.h>
#include <kernel.h>
#include <pgtable.h>
#include <sections.h>
#include <asm/arm64.h>

#define TTBR_BADDR_MASK 0x0000fffffffffffeUL /* without the ASID (63:48) and CnP (0) */
#define TTBR_ASID_MASK 0xffff000000000000UL

static phys_addr_t kernel_root;

void arch_pt_sync(void)
{
	dsb(ishst);
	isb();
}

/* One CPU runs the kernel, so TLB maintenance is local: no Inner Shareable broadcast, which
 * QEMU implements as a synchronised flush of every vCPU (about 10 us each under TCG). */
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
		return kernel_root;
	/* The gap between the halves translates nowhere. */
	if (va >= TASK_SIZE)
		return a64_empty_root;
	/* The kernel root is never a TTBR0 root: asked about a user address with it (the boot
	 * self-check, a kernel fault report), answer with what translates it right now. */
	if (!user_root || user_root == kernel_root)
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
	if (!root || root == kernel_root)
		return;
	/* Base and ASID change in one write: no window with one but not the other. */
	write_sysreg(ttbr0_el1, root | (uint64_t)(asid & 0xff) << 48);
	isb();
}

phys_addr_t arch_kernel_root(void)
{
	return kernel_root;
}

static void map_or_panic(phys_addr_t root, uintptr_t va, phys_addr_t pa, uint64_t size,
			 unsigned prot, const char *what)
{
	if (!size)
		return;
	int err = pt_map(root, va, pa, size, prot, PT_MAP_BLOCKS);
	if (err)
		panic("arm64: mapping %s at %#lx (%#llx bytes) failed: %d", what, (unsigned long)va,
		      (unsigned long long)size, err);
}

static void map_kernel_range(phys_addr_t root, const void *start, const void *end, unsigned prot,
			     const char *what)
{
	uintptr_t s = (uintptr_t)start, e = (uintptr_t)end;

	map_or_panic(root, s, __pa(s), e - s, prot | PT_GLOBAL, what);
}

/* RAM outside the image, in the linear map: read/write data, never executable. */
static void map_linear_ram(phys_addr_t root, const struct boot_info *bi)
{
	const phys_addr_t img_lo = __pa(__kernel_start), img_hi = __pa(__kernel_end);
	const unsigned prot = PT_R | PT_W | PT_GLOBAL;

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		phys_addr_t lo = bi->ram[i].base, hi = lo + bi->ram[i].size;
		lo = ALIGN_UP(lo, (phys_addr_t)PAGE_SIZE);
		hi = ALIGN_DOWN(hi, (phys_addr_t)PAGE_SIZE);
		if (hi <= lo)
			continue;
		if (hi <= img_lo || lo >= img_hi) {
			map_or_panic(root, (uintptr_t)__va(lo), lo, hi - lo, prot, "RAM");
			continue;
		}
		if (lo < img_lo)
			map_or_panic(root, (uintptr_t)__va(lo), lo, img_lo - lo, prot, "RAM");
		if (hi > img_hi)
			map_or_panic(root, (uintptr_t)__va(img_hi), img_hi, hi - img_hi, prot, "RAM");
	}
}

static void map_device(phys_addr_t root, phys_addr_t pa, uint64_t size, const char *what)
{
	phys_addr_t lo = ALIGN_DOWN(pa, (phys_addr_t)PAGE_SIZE);
	phys_addr_t hi = ALIGN_UP(pa + size, (phys_addr_t)PAGE_SIZE);

	map_or_panic(root, IO_ADDRESS(lo), lo, hi - lo, PT_R | PT_W | PT_DEVICE | PT_GLOBAL, what);
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	phys_addr_t root = pt_alloc_table(0);

	if (!root)
		panic("arm64: no memory for the kernel's root table");
	map_kernel_range(root, __text_start, __text_end, PT_R | PT_X, "text");
	map_kernel_range(root, __rodata_start, __rodata_end, PT_R, "rodata");
	/* Data and BSS, minus the kernel stack's guard: an overflow faults instead of
	 * overwriting whatever lies below the stack. */
	map_kernel_range(root, __data_start, a64_kstack_guard, PT_R | PT_W, "data");
	map_kernel_range(root, a64_kstack_bottom, __kernel_end, PT_R | PT_W, "bss");
	map_linear_ram(root, bi);
	map_device(root, VIRT_UART_PA, VIRT_UART_SIZE, "PL011");
	a64_gic_map(root, map_device);

	arch_pt_sync();
	a64_replace_kernel_root(root, a64_boot_idmap_root, a64_empty_root,
				__pa(__kernel_start) - (uintptr_t)__kernel_start);
	kernel_root = root;
	a64_gic_init();
	return root;
}
