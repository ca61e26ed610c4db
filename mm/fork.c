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
	const struct vma *v;    /* the parent's VMA being copied */
	unsigned long protected; /* parent leaves made read-only */
	/* The parent table that held the last leaf copied, and the child's table that maps the
	 * same addresses: a table's next leaves go straight into the same slot of the child's. */
	const void *parent_table;
	void *child_table;
};

/* Map leaf l's frame with prot in the child. The first leaf of each parent table goes through
 * pt_map, which makes the child's tables down to it, and a walk finds the child's table; the
 * leaves after it in the same table are stored at their index in that table, as Linux copies a
 * page table's entries range by range (a fork copies every leaf: one walk from the root each
 * was most of what a fork cost). */
static int child_map(struct fork_ctx *c, const struct pt_leaf *l, unsigned prot)
{
	if (l->table == c->parent_table) {
		arch_pt_store(c->child_table, l->index, arch_pte_make_leaf(l->level, l->info.pa, prot));
		return 0;
	}
	int err = pt_map(c->child->root, (uintptr_t)l->va, l->info.pa, (size_t)l->size, prot, 0);
	if (err)
		return err;
	struct pt_walk_result w;
	pt_walk(c->child->root, (uintptr_t)l->va, &w);
	const struct pt_step *last = &w.steps[w.nr_steps - 1];
	bool same_level = w.mapped && last->level == l->level && last->index == l->index;
	c->parent_table = same_level ? l->table : NULL;
	c->child_table = same_level ? __va(last->table_pa) : NULL;
	return 0;
}

/* One leaf of the parent: the child maps the same frame. An image frame (shared_pa) is the
 * kernel's and simply shared; a private frame gains an owner, and if writable becomes read-only
 * in the parent too, so that whichever writes first copies it. */
static int share_leaf(const struct pt_leaf *l, void *arg)
{
	struct fork_ctx *c = arg;
	bool counted = !c->v->shared_pa;
	unsigned prot = l->info.prot;

	if (counted) {
		if (!pmm_page_get(l->info.pa))
			return -ENOMEM; /* 65,536 owners: no more sharers */
		prot &= ~(unsigned)PT_W;
	}
	int err = child_map(c, l, prot);
	if (err) {
		if (counted)
			pmm_page_put(l->info.pa); /* the parent still owns it: never the last */
		return err;
	}
	if (!counted)
		return 0;
	c->child->frames++;
	if (l->info.prot & PT_W) {
		pt_leaf_store(l, arch_pte_make_leaf(l->level, l->info.pa, prot));
		if (++c->protected <= FLUSH_ALL_AFTER)
			pt_leaf_flush(l);
	}
	return 0;
}

/* The child's table that maps the same addresses as the parent's last-level table slot i,
 * made by pt_map storing that slot's leaf (pte, the descriptor the child gets) and found by a
 * walk: once per table, not per page. NULL with *err set when pt_map fails. */
static void *child_table_for(struct fork_ctx *c, unsigned level, uint64_t va, pte_t pte,
			     int *err)
{
	struct pte_info info;
	struct pt_walk_result w;

	arch_pte_decode(level, pte, &info);
	*err = pt_map(c->child->root, (uintptr_t)va, info.pa, PAGE_SIZE, info.prot, 0);
	if (*err)
		return NULL;
	pt_walk(c->child->root, (uintptr_t)va, &w);
	return __va(w.steps[w.nr_steps - 1].table_pa);
}

/* Slot i of a parent's last-level table t at va: a private frame gains the child as an owner
 * and, if writable, becomes read-only in the parent too (so that whichever writes first
 * copies it); an image frame (shared_pa) is the kernel's and simply shared. Returns the
 * descriptor for the child, or 0 when the frame has as many owners as it can count. */
static pte_t share_page(struct fork_ctx *c, void *t, unsigned i, uint64_t va, pte_t pte)
{
	if (c->v->shared_pa)
		return pte;
	if (!pmm_page_get(arch_pte_page_pa(pte)))
		return 0; /* 65,536 owners: no more sharers */
	c->child->frames++;
	pte_t ro = arch_pte_wrprotect(arch_pt_geometry()->levels - 1, pte);
	if (ro != pte) {
		arch_pt_store(t, i, ro);
		if (++c->protected <= FLUSH_ALL_AFTER) {
			arch_pt_sync(); /* the read-only descriptor before the flush */
			arch_tlb_flush_page((uintptr_t)va);
		}
	}
	return ro;
}

/* A whole last-level table of the parent, the part of it the VMA covers, in one loop: each
 * descriptor is loaded once, empty slots skipped, and the child's descriptor made from the
 * parent's (the visitor's per-slot decode and callback were most of a fork's cost). The child's
 * table is the same for every slot: found once. Tables above the last level are visited. */
static int share_table(unsigned level, phys_addr_t table, uint64_t va, void *arg)
{
	struct fork_ctx *c = arg;
	const struct pt_geometry *g = arch_pt_geometry();

	if (level != g->levels - 1)
		return 0;
	void *t = __va(table), *child_t = NULL;
	uint64_t table_end = va + ((uint64_t)g->entries[level] << g->shift[level]);
	uint64_t lo = MAX(va, c->v->start), hi = MIN(table_end, c->v->end);
	unsigned first = (unsigned)((lo - va) >> g->shift[level]);
	unsigned end = (unsigned)((hi - va + PAGE_SIZE - 1) >> g->shift[level]);

	for (unsigned i = first; i < end; i++) {
		pte_t pte = arch_pt_load(t, i);
		uint64_t page_va = va + ((uint64_t)i << g->shift[level]);
		int err = 0;

		if (!pte || !arch_pte_is_page(pte))
			continue; /* nothing mapped (an invalid descriptor is not copied) */
		pte_t child = share_page(c, t, i, page_va, pte);
		if (!child)
			return -ENOMEM;
		if (!child_t)
			child_t = child_table_for(c, level, page_va, child, &err);
		if (err) {
			if (!c->v->shared_pa)
				pmm_page_put(arch_pte_page_pa(pte)); /* the parent's: never the last */
			return err;
		}
		arch_pt_store(child_t, i, child);
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

int mm_fork(struct mm *child, struct mm *parent)
{
	struct fork_ctx c = { .child = child };
	const struct pt_visit_ops ops = { .leaf = share_leaf, .table = share_table };
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
	for (const struct vma *v = parent->vmas; v && !err; v = v->next) {
		c.v = v;
		err = copy_vma(child, v);
		if (!err)
			err = pt_visit(parent->root, v->start, v->end - 1, &ops, &c);
	}
	if (c.protected > FLUSH_ALL_AFTER)
		arch_tlb_flush_all();
	/* Undone: the child's references go with its tables. The parent's pages it made
	 * read-only stay so until written, when break_cow finds them with one owner again and
	 * only makes them writable. */
	if (err)
		mm_destroy(child);
	return err;
}
