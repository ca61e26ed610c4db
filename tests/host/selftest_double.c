/* kernel/selftest.c on the host over a broken page-table encoder: the real x86_64 encoder
 * (arch/x86/64/pte.c, its make_leaf renamed real_arch_pte_make_leaf) behind a test double that
 * drops the write permission. `selftest sysctl_parse pte` must then fail exactly the pte suite's
 * leaf_round_trip case, which the harness's KTAP parser must name (qemu/tests/ktap_double.py).
 * The suites that need the running kernel (layout, pgtable, fork) are not run here: their entry
 * points are stubs that say so. */
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/selftest.h>

#include <stdio.h>
#include <stdlib.h>

pte_t real_arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot);

pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	return real_arch_pte_make_leaf(level, pa, prot & ~PT_W);
}

int vprintk(const char *fmt, va_list ap)
{
	return vprintf(fmt, ap);
}

static void __noreturn not_here(const char *fn)
{
	fprintf(stderr, "selftest_double: %s is not part of this host test (run sysctl_parse and pte only)\n", fn);
	abort();
}

#define STUB(ret, name, ...) ret name(__VA_ARGS__) { not_here(#name); }
STUB(uint64_t, mmap_rnd_offset, uint64_t random, unsigned bits, unsigned page_shift)
STUB(unsigned, log2_centi, uint64_t n)
STUB(void, task_geometry, bool compat, struct task_geometry *g)
STUB(void, mmap_range, const struct task_geometry *g, uint64_t rlimit_stack, bool randomize,
     bool legacy, unsigned bits, struct mmap_range *r)
STUB(uint64_t, mmap_base_at, const struct mmap_range *r, uint64_t rnd_pages)
STUB(phys_addr_t, pt_alloc_table, unsigned level)
STUB(int, pt_map, phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
     unsigned flags)
STUB(void, pt_walk, phys_addr_t root, uintptr_t va, struct pt_walk_result *out)
STUB(int, pt_visit, phys_addr_t root, uint64_t lo, uint64_t hi, const struct pt_visit_ops *ops,
     void *ctx)
STUB(void, pt_leaf_store, const struct pt_leaf *leaf, pte_t pte)
STUB(void, pt_leaf_flush, const struct pt_leaf *leaf)
STUB(void, pt_free_root, phys_addr_t root)
STUB(phys_addr_t, pmm_alloc_pages, unsigned order)
STUB(void, pmm_free_pages, phys_addr_t pa, unsigned order)
STUB(void, pmm_get_stats, struct pmm_stats *st)

static void fork_not_here(void)
{
	not_here("the fork suite");
}

const struct selftest_case fork_cases[FORK_NR_CASES] = {
	{ "cow_write", fork_not_here },
	{ "fork_costs_tables", fork_not_here },
	{ "fork_out_of_memory", fork_not_here },
};

int main(void)
{
	char *argv[] = { "selftest", "sysctl_parse", "pte", NULL };

	return selftest_run(3, argv);
}
