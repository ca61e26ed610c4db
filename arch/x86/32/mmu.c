/* i386 kernel page tables: the image with per-section permissions, the rest of RAM in the linear
 * map (4 MiB pages where aligned), all global; then CR3, CR4.PGE and CR0.WP. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>
#include <asm/multiboot.h>
#include <asm/processor.h>
#include <asm/x86_32.h>
#include <lib/string.h>

static phys_addr_t kernel_root;

static void map_or_panic(uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
			 const char *what)
{
	int err;

	if (!size)
		return;
	err = pt_map(kernel_root, va, pa, size, prot, PT_MAP_BLOCKS);
	if (err)
		panic("x86: mapping %s at %#lx (%#zx bytes) failed: %d", what, (unsigned long)va,
		      size, err);
}

static void map_image_range(const char *start, const char *end, unsigned prot, const char *what)
{
	map_or_panic((uintptr_t)start, __pa(start), (size_t)(end - start), prot, what);
}

/* W^X as far as 2-level paging allows: text is read-only, rodata and data are not executable
 * only in intent (there is no NX bit; the walk text says so). The page below the boot stack
 * stays unmapped so that a stack overflow faults (and reaches the double-fault task). */
static void map_kernel_image(void)
{
	map_image_range(__text_start, __text_end, PT_R | PT_X | PT_GLOBAL, "kernel text");
	map_image_range(__rodata_start, __data_start, PT_R | PT_GLOBAL, "kernel rodata");
	map_image_range(__data_start, boot_stack_guard, PT_R | PT_W | PT_GLOBAL, "kernel data and bss");
	map_image_range(boot_stack, __kernel_end, PT_R | PT_W | PT_GLOBAL, "kernel stack");
}

static void map_linear_range(phys_addr_t start, phys_addr_t end)
{
	if (end > start)
		map_or_panic((uintptr_t)__va(start), start, (size_t)(end - start),
			     PT_R | PT_W | PT_GLOBAL, "linear map");
}

/* RAM outside the image, at PAGE_OFFSET + pa. The image itself sits at the same place in the
 * linear map and keeps the permissions map_kernel_image gave it. */
static void map_linear_ram(const struct boot_info *bi)
{
	phys_addr_t image_start = __pa(__kernel_start), image_end = __pa(__kernel_end);

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		phys_addr_t start = bi->ram[i].base;
		phys_addr_t end = MIN(start + bi->ram[i].size, (phys_addr_t)X86_LINEAR_MAP_SIZE);

		if (end <= image_start || start >= image_end) {
			map_linear_range(start, end);
			continue;
		}
		map_linear_range(start, image_start);
		map_linear_range(image_end, end);
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
	kernel_root = pt_alloc_table(0);
	if (!kernel_root)
		panic("x86: no memory for the kernel page directory");
	map_kernel_image();
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
