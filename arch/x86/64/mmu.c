/* x86_64 kernel page tables. The kernel's root comes with the image, made at build time with the
 * image's per-section permissions (asm/boot_tables_64.h, tools/boot_tables/x86_64.c);
 * arch_mmu_init adds the direct map of RAM with the same pt_map from the firmware's RAM map
 * (1 GiB pages where the CPU has them), then switches to it. The user half (PML4 slots 0..255) stays empty;
 * process roots share slots 256..511 with the kernel root. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <asm/boot_tables_64.h>
#include <asm/cpu_64.h>
#include <asm/processor.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <kernel/sections.h>

extern bool x86_64_gbpages; /* pte.c */

#define X86_64_KERNEL_HALF_FIRST_SLOT 256
#define X86_64_PML4_ENTRIES 512
#define X86_64_CR3_ADDR_MASK 0x000FFFFFFFFFF000ull

static phys_addr_t kernel_root;

static void map_direct_range(phys_addr_t start, phys_addr_t end, unsigned prot)
{
	int err;

	if (end <= start)
		return;
	err = pt_map(kernel_root, (uintptr_t)__va(start), start, end - start, prot | PT_GLOBAL,
		     PT_MAP_BLOCKS);
	if (err)
		panic("mmu: cannot map RAM %#llx..%#llx: error %d", (unsigned long long)start,
		      (unsigned long long)end, err);
}

/* All RAM at PAGE_OFFSET, never executable, RW except the alias of the kernel's text and
 * rodata, which is read-only as well (as Linux's CPA keeps aliases in step): no kernel code or
 * constant can be changed through the direct map. 2 MiB (or 1 GiB) leaves where aligned. */
static void map_direct(const struct boot_info *bi)
{
	phys_addr_t ro_start = __pa(__text_start), ro_end = __pa(__data_start);

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		phys_addr_t start = bi->ram[i].base;
		phys_addr_t end = start + bi->ram[i].size;

		if (start >= X86_DIRECT_MAP_SIZE)
			continue;
		end = MIN(end, (phys_addr_t)X86_DIRECT_MAP_SIZE);
		map_direct_range(start, MIN(end, ro_start), PT_R | PT_W);
		map_direct_range(MAX(start, ro_start), MIN(end, ro_end), PT_R);
		map_direct_range(MAX(start, ro_end), end, PT_R | PT_W);
	}
}

/* SMEP: the kernel never runs code from user pages, so make the CPU refuse to. (Not SMAP:
 * system calls read user memory directly, without stac/clac.) */
static void enable_smep(void)
{
	struct cpuid_regs r;

	if (cpuid_max_leaf() < 7)
		return;
	cpuid_count(7, 0, &r);
	if (r.ebx & X86_CPUID7_EBX_SMEP)
		write_cr4(read_cr4() | X86_CR4_SMEP);
}

static void detect_gbpages(void)
{
	struct cpuid_regs r;

	cpuid_count(0x80000000, 0, &r);
	if (r.eax < 0x80000001) {
		x86_64_gbpages = false;
		return;
	}
	cpuid_count(0x80000001, 0, &r);
	x86_64_gbpages = (r.edx & X86_CPUID_EXT_EDX_GBPAGES) != 0;
}

phys_addr_t arch_mmu_init(const struct boot_info *bi)
{
	detect_gbpages();
	kernel_root = __pa(x86_64_kernel_pml4);
	map_direct(bi);

	/* The boot tables had no global entries, so loading CR3 drops all of them. WP makes
	 * read-only leaves binding on the kernel too; PGE keeps kernel entries across CR3 loads. */
	write_cr0(read_cr0() | X86_CR0_WP);
	write_cr3(kernel_root);
	write_cr4(read_cr4() | X86_CR4_PGE);
	enable_smep();
	return kernel_root;
}

phys_addr_t arch_kernel_root(void)
{
	return kernel_root;
}

/* One root translates both halves. Asked with the kernel root (the boot self-check, a kernel
 * fault report), answer with the live one: it holds the same kernel half, and for a user
 * address it is what the CPU actually used. */
phys_addr_t arch_pt_root_for(phys_addr_t user_root, uintptr_t va)
{
	(void)va;
	if (user_root && user_root != kernel_root)
		return user_root;
	return read_cr3() & X86_64_CR3_ADDR_MASK;
}

void arch_pt_init_user_root(void *root_va)
{
	const uint64_t *kroot = __va(kernel_root);

	/* One copy of the kernel half (slot by slot through arch_pt_store cost a call per slot at
	 * every exec). */
	memcpy((uint64_t *)root_va + X86_64_KERNEL_HALF_FIRST_SLOT, kroot + X86_64_KERNEL_HALF_FIRST_SLOT,
	       (X86_64_PML4_ENTRIES - X86_64_KERNEL_HALF_FIRST_SLOT) * sizeof(uint64_t));
}

/* No PCIDs: a CR3 load flushes the old task's (non-global) entries, which is all we need. */
void arch_switch_user_root(phys_addr_t root, unsigned asid)
{
	(void)asid;
	write_cr3(root ? root : kernel_root);
}
