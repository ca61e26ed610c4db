/* i386 kernel page tables. The kernel's page directory comes with the image, made at build time
 * with the image's per-section permissions (asm/boot_tables_32.h, tools/boot_tables/x86_32.c);
 * arch_mmu_init adds the rest of RAM's linear map (4 MiB pages where aligned, all global) with
 * the same pt_map, then sets CR3, CR4.PGE and CR0.WP. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>
#include <asm/boot_tables_32.h>
#include <asm/multiboot.h>
#include <asm/processor.h>
#include <asm/x86_32.h>
#include <lib/string.h>

static phys_addr_t kernel_root;

#define PSE_PAGE_SIZE 0x400000u

/* The end of the highest RAM region: the top of RAM. */
static uint32_t ram_top(const struct boot_info *bi)
{
	uint32_t top = 0;

	for (unsigned i = 0; i < bi->nr_ram; i++)
		top = MAX(top, (uint32_t)(bi->ram[i].base + bi->ram[i].size));
	return top;
}

/* RAM above the image in the linear map, at PAGE_OFFSET + pa: read/write data, global, in 4 MiB
 * pages where aligned. Nothing below it is left to map: the build mapped the first MiB and the
 * image (tools/boot_tables/x86_32.c). The multiboot parser kept RAM below X86_LINEAR_MAP_SIZE,
 * so 32 bits hold every address here.
 * The top of RAM is rounded up to a whole 4 MiB page (firmware keeps the last few hundred KiB
 * for its ACPI tables, so RAM seldom ends on one): one PDE instead of a page table of up to
 * 1023 PTEs, allocated and filled at boot. What it maps past RAM is nothing else: a PC has no
 * device memory below the linear map's end but the ISA hole, in the first MiB, and the page
 * allocator never hands out a frame that is not RAM. Page tables it still needs (an edge of RAM
 * within a 4 MiB page below the top) come from the page allocator, which hands out the lowest
 * free frame: one the boot mapping reaches. */
static void map_linear_ram(const struct boot_info *bi)
{
	const uint32_t image_end = __pa(__kernel_end), top = ram_top(bi);

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		uint32_t lo = MAX((uint32_t)bi->ram[i].base, image_end);
		uint32_t hi = (uint32_t)(bi->ram[i].base + bi->ram[i].size);

		if (lo >= hi)
			continue;
		if (hi == top && hi > ALIGN_UP(lo, PSE_PAGE_SIZE))
			hi = MIN(ALIGN_UP(hi, PSE_PAGE_SIZE), (uint32_t)X86_LINEAR_MAP_SIZE);
		int err = pt_map(kernel_root, (uintptr_t)__va(lo), lo, hi - lo,
				 PT_R | PT_W | PT_GLOBAL, PT_MAP_BLOCKS);
		if (err)
			panic("x86: mapping RAM at %#x (%#x bytes) failed: %d", lo, hi - lo, err);
	}
}

static bool cpu_has_pge(void)
{
	struct cpuid_regs r;

	cpuid_count(1, 0, &r);
	return r.edx & X86_CPUID1_EDX_PGE;
}

/* SMEP: the kernel may not execute user pages. It also makes 32-bit paging report instruction
 * fetches in the #PF error code (I/D), which it otherwise never does. */
static bool cpu_has_smep(void)
{
	struct cpuid_regs r;

	if (cpuid_max_leaf() < 7)
		return false;
	cpuid_count(7, 0, &r);
	return r.ebx & X86_CPUID7_EBX_SMEP;
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	kernel_root = __pa(x86_kernel_pgdir);
	map_linear_ram(bi);
	if (x86_multiboot_ram_beyond_limit)
		printk("mmu: %llu MiB of RAM above the %u MiB linear map left unused (no HIGHMEM)\n",
		       (unsigned long long)(x86_multiboot_ram_beyond_limit >> 20),
		       X86_LINEAR_MAP_SIZE >> 20);

	write_cr3((uintptr_t)kernel_root);
	/* Setting PGE after the switch also flushes the boot mapping's leftovers. */
	if (cpu_has_pge())
		write_cr4(read_cr4() | X86_CR4_PGE);
	if (cpu_has_smep())
		write_cr4(read_cr4() | X86_CR4_SMEP);
	write_cr0(read_cr0() | X86_CR0_WP);
	x86_doublefault_set_cr3((uintptr_t)kernel_root);
	return kernel_root;
}

/* Before arch_mmu_init the boot page directory is the one in CR3 (an early fault report walks
 * it). */
phys_addr_t arch_kernel_root(void)
{
	return kernel_root ? kernel_root : __pa(boot_pgdir);
}

/* One root translates both halves. */
phys_addr_t arch_pt_root_for(phys_addr_t user_root, uintptr_t va)
{
	return user_root ? user_root : arch_kernel_root();
}

/* The kernel half's PDEs never change after arch_mmu_init (the whole linear map is built up
 * front), so a copy stays valid for the life of the user root. */
void arch_pt_init_user_root(void *root_va)
{
	const uint32_t *kernel_pd = __va(kernel_root);
	unsigned first = PAGE_OFFSET >> arch_pt_geometry()->shift[0];

	memcpy((uint32_t *)root_va + first, kernel_pd + first, (1024 - first) * sizeof(uint32_t));
}

void arch_switch_user_root(phys_addr_t root, unsigned asid)
{
	write_cr3((uintptr_t)(root ? root : arch_kernel_root()));
}
