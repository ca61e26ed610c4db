/* x86 TLB and page-table ordering, the same for i386 and x86_64. */
#include <arch/mmu.h>
#include <asm/processor.h>

/* The page walker snoops ordinary stores: only the compiler must not reorder them. */
void arch_pt_sync(void)
{
	__asm__ volatile("" : : : "memory");
}

void arch_tlb_flush_page(uintptr_t va)
{
	invlpg(va);
}

/* Toggling CR4.PGE drops global entries too; reloading CR3 alone would keep them. */
void arch_tlb_flush_all(void)
{
	uintptr_t cr4 = read_cr4();

	if (cr4 & X86_CR4_PGE) {
		write_cr4(cr4 & ~(uintptr_t)X86_CR4_PGE);
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3());
	}
}
