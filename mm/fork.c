/* fork's address space: the child gets the parent's VMAs and layout and a page-table root of
 * its own that maps the same frames. Private writable pages become copy-on-write: read-only in
 * both, each frame counting its owners (mm/pmm.c), and the first write copies (mm/fault.c). */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

/* Past this many write-protected pages one flush of the whole TLB is cheaper than a flush per
 * page. */
#define FLUSH_ALL_AFTER 32

struct fork_ctx {
	struct mm *child;
	/* The first of the parent's VMAs that may hold what the visit comes to next: it goes up
	 * through them in address order, as mm_destroy's teardown does. */
	const struct vma *v;
	unsigned long protected; /* parent leaves made read-only */
};

/* A leaf above the last level: a block. No user address space holds one (exec, mmap and the
 * fault handler map page by page; blocks are the kernel's own mappings), and owners are
 * counted per page frame: rather than share a block uncounted, the fork fails. */
static int refuse_block(const struct pt_leaf *l, void *arg)
{
	(void)l;
	(void)arg;
	return -EINVAL;
}

/* The child's table that maps the same addresses as the parent's last-level table slot at
 * va, made by pt_map storing that slot's leaf (pte, the descriptor the child gets) and found by
 * a walk: once per table, not per page. */
static int child_table_for(struct fork_ctx *c, unsigned level, uint64_t va, pte_t pte,
			   void **table)
{
	struct pte_info info;
	struct pt_walk_result w;

	arch_pte_decode(level, pte, &info);
	int err = pt_map(c->child->root, (uintptr_t)va, info.pa, PAGE_SIZE, info.prot, 0);
	if (err)
		return err;
	pt_walk(c->child->root, (uintptr_t)va, &w);
	*table = __va(w.steps[w.nr_steps - 1].table_pa);
	return 0;
}

/* The slots [first, end) of the parent's last-level table t (at va), which VMA v covers: a
 * private frame gains the child as an owner and, if writable, becomes read-only in the parent
 * too, so that whichever writes first copies it; an image frame (shared_pa) is the kernel's
 * and simply shared. Each descriptor is loaded once, empty slots skipped, and the child's
 * descriptor made from the parent's (a decode and a callback per page were most of what a
 * fork cost). *child_t: the child's table for the same addresses, found with the first page
 * and kept for the rest. */
static int share_slots(struct fork_ctx *c, const struct vma *v, unsigned level, void *t,
		       uint64_t va, unsigned first, unsigned end, void **child_t)
{
	const struct pt_geometry *g = arch_pt_geometry();
	bool counted = !v->shared_pa;
	unsigned long shared = 0; /* frames that gained the child as an owner */
	int err = 0;

	for (unsigned i = first; i < end; i++) {
		pte_t pte = arch_pt_load(t, i), child = pte;
		uint64_t page_va = va + ((uint64_t)i << g->shift[level]);

		if (!pte || !arch_pte_is_page(pte))
			continue; /* nothing mapped (an invalid descriptor is not copied) */
		if (counted) {
			if (!pmm_page_get(arch_pte_page_pa(pte))) {
				err = -ENOMEM; /* 65,536 owners: no more sharers */
				break;
			}
			shared++;
			child = arch_pte_wrprotect(level, pte);
			if (child != pte) {
				arch_pt_store(t, i, child);
				if (++c->protected <= FLUSH_ALL_AFTER) {
					arch_pt_sync(); /* the read-only descriptor before the flush */
					arch_tlb_flush_page((uintptr_t)page_va);
				}
			}
		}
		if (!*child_t && (err = child_table_for(c, level, page_va, child, child_t))) {
			if (counted) {
				pmm_page_put(arch_pte_page_pa(pte)); /* the parent's: not the last */
				shared--;
			}
			break;
		}
		arch_pt_store(*child_t, i, child);
	}
	c->child->frames += shared;
	return err;
}

/* A whole last-level table of the parent, the part of each VMA it holds, in one loop per VMA
 * (share_slots); tables above the last level are visited. */
static int share_table(unsigned level, phys_addr_t table, uint64_t va, void *arg)
{
	struct fork_ctx *c = arg;
	const struct pt_geometry *g = arch_pt_geometry();

	if (level != g->levels - 1)
		return 0;
	void *t = __va(table), *child_t = NULL;
	uint64_t table_end = va + ((uint64_t)g->entries[level] << g->shift[level]);

	for (const struct vma *v = c->v; v && v->start < table_end; v = v->next) {
		uint64_t lo = MAX(va, v->start), hi = MIN(table_end, v->end);
		if (lo >= hi)
			continue;
		unsigned first = (unsigned)((lo - va) >> g->shift[level]);
		unsigned end = (unsigned)((hi - va) >> g->shift[level]);
		int err = share_slots(c, v, level, t, va, first, end, &child_t);
		if (err)
			return err;
	}
	return PT_VISIT_SKIP; /* done here: the visitor need not go through its slots */
}

/* The VMA v of the parent, with everything that describes it, in the child. */
static int copy_vma(struct mm *child, const struct vma *v)
{
	int err = vma_insert(child, v->start, v->end, v->prot, v->kind, v->file_offset);

	if (err)
		return err;
	struct vma *copy = vma_find(child, v->start);
	copy->file = v->file;
	copy->shared_pa = v->shared_pa;
	copy->name = v->name;
	return 0;
}

/* Where the parent may have pages from va on: in the first VMA that ends above va (the visit
 * reads no slot outside the VMAs). */
static uint64_t next_in_vmas(uint64_t va, uint64_t *end, void *arg)
{
	struct fork_ctx *c = arg;

	while (c->v->next && c->v->end <= va)
		c->v = c->v->next;
	*end = c->v->end;
	return c->v->end <= va ? UINT64_MAX : MAX(va, c->v->start);
}

int mm_fork(struct mm *child, struct mm *parent)
{
	struct fork_ctx c = { .child = child };
	const struct pt_visit_ops ops = { .leaf = refuse_block, .table = share_table,
					  .next = next_in_vmas };
	int err = mm_init(child, parent->compat, parent->asid);

	if (err)
		return err;
	/* Every layout field (mmap_base, brk, stack, vdso, load bias, the draw) as the parent
	 * has it; the tables and VMAs are the child's own. */
	phys_addr_t root = child->root;
	*child = *parent;
	child->root = root;
	child->vmas = NULL;
	child->nr_vmas = 0;
	child->frames = 0;
	const struct vma *last = parent->vmas;
	for (const struct vma *v = parent->vmas; v && !err; v = v->next) {
		err = copy_vma(child, v);
		last = v;
	}
	/* One visit from the first VMA's start to the last one's end, reading only the slots the
	 * VMAs cover (pages are only ever mapped inside VMAs). */
	c.v = parent->vmas;
	if (!err && last)
		err = pt_visit(parent->root, parent->vmas->start, last->end - 1, &ops, &c);
	if (c.protected > FLUSH_ALL_AFTER)
		arch_tlb_flush_all();
	/* Undone: the child's references go with its tables. The parent's pages it made
	 * read-only stay so until written, when break_cow finds them with one owner again and
	 * only makes them writable. */
	if (err)
		mm_destroy(child);
	return err;
}
